/**
 * The exporter's own metrics at /metrics: the process (prom-client's default collectors: CPU,
 * memory, file descriptors, event loop lag), probes answered by HTTP status, operations that
 * failed inside probes by error kind, device polls started and shared, probes in flight and
 * targets held. A registry of its own, apart from the device families.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Snapshot } from '../model/snapshot.js';
import type { ProbeService } from './probe.js';

/** The names of this module's families (the contrib test checks rules and dashboards against them). */
export const selfMetricNames = [
  'synctop_exporter_probes_total',
  'synctop_exporter_probe_errors_total',
  'synctop_exporter_device_polls_total',
  'synctop_exporter_probes_shared_total',
  'synctop_exporter_probes_in_flight',
  'synctop_exporter_targets',
  'synctop_exporter_connections_refused_total',
] as const;

export class ExporterMetrics {
  readonly registry = new Registry();
  private readonly probes: Counter<'code'>;
  private readonly errors: Counter<'kind'>;
  private readonly refusedConnections: Counter;

  constructor(service: ProbeService) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.probes = new Counter({ name: 'synctop_exporter_probes_total', help: 'Probes answered, by HTTP status (200 answered, 400 bad request, 403 target not allowed, 503 over a cap).', labelNames: ['code'], registers });
    this.errors = new Counter({
      name: 'synctop_exporter_probe_errors_total',
      help: 'Operations that could not be read during probes, by error kind (network, http, protocol, device, auth).',
      labelNames: ['kind'],
      registers,
    });
    new Counter({
      name: 'synctop_exporter_device_polls_total',
      help: 'Device polls started for probes (probes of one target in flight together share one poll).',
      registers,
      collect() {
        this.reset();
        this.inc(service.stats.polls);
      },
    });
    new Counter({
      name: 'synctop_exporter_probes_shared_total',
      help: 'Probes answered by joining a poll of the same target already in flight.',
      registers,
      collect() {
        this.reset();
        this.inc(service.stats.shared);
      },
    });
    new Gauge({
      name: 'synctop_exporter_probes_in_flight',
      help: 'Device polls for probes in flight now.',
      registers,
      collect() {
        this.set(service.inFlight);
      },
    });
    new Gauge({
      name: 'synctop_exporter_targets',
      help: 'Targets held, each with its kept-alive connection (least recently probed dropped first past --max-targets).',
      registers,
      collect() {
        this.set(service.held);
      },
    });
    this.refusedConnections = new Counter({
      name: 'synctop_exporter_connections_refused_total',
      help: 'Incoming connections closed at once because the exporter, or that client address, held the most it accepts.',
      registers,
    });
  }

  answered(code: number): void {
    this.probes.inc({ code: String(code) });
  }

  /** Counts the operations of a fresh poll that could not be read. */
  polled(snapshot: Snapshot): void {
    for (const section of [snapshot.ntp, snapshot.gnss, snapshot.ptp, snapshot.alarm]) {
      if (!section.ok) this.errors.inc({ kind: section.error.kind });
    }
  }

  connectionRefused(): void {
    this.refusedConnections.inc();
  }
}
