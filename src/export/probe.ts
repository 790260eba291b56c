/**
 * `/probe`: one device asked now, within the scrape's budget (the multi-target exporter pattern:
 * Prometheus owns the target list, the schedule and the sharding; this answers one target).
 *
 * - One poll is pollOnce (the one-shot modes' poll) with a budget; its samples are the static
 *   fleet's (deviceSamples, the one health table) plus synctop_probe_success and
 *   synctop_probe_duration_seconds.
 * - Single flight: concurrent probes of one target (two Prometheus replicas, a retried scrape)
 *   share one poll, and polls of one device URL (under two profiles) run one after another, so a
 *   device never has two requests in flight.
 * - Entries (a kept-alive client per target, the PTP ports found last time) are held in an LRU
 *   of at most `maxTargets`; sockets close themselves when idle (the client's keep-alive).
 * - At most `maxPolls` device polls in flight; past that, or when every held target is busy, the
 *   probe is refused with a sentence (the HTTP layer answers 503).
 */
import { DeviceClient, type CallOptions, type ClientOptions } from '../api/client.js';
import type { OperationName, RawData } from '../api/endpoints.js';
import type { Result } from '../api/errors.js';
import type { SectionName, Snapshot } from '../model/snapshot.js';
import { evaluateHealth } from '../monitor/health.js';
import { pollOnce } from '../monitor/once.js';
import { REDISCOVER_MS } from '../monitor/poller.js';
import type { PtpPortSelection } from '../monitor/ptp-discovery.js';
import { sectionNames } from '../monitor/store.js';
import { deviceSamples, probeSamples, type Sample } from './metrics.js';
import type { ProbeTarget } from './targets.js';

export const DEFAULT_MAX_TARGETS = 2000;
export const DEFAULT_MAX_PROBES = 128;

/** A device client that adds up the wall time of each operation's requests (PTP: all ports). */
class TimedClient extends DeviceClient {
  readonly spentMs: Record<SectionName, number | null> = { ntp: null, gnss: null, ptp: null, alarm: null };

  constructor(options: ClientOptions) {
    super(options);
  }

  reset(): void {
    for (const name of sectionNames) this.spentMs[name] = null;
  }

  override async call<K extends OperationName>(name: K, params: { id?: number } = {}, opts: CallOptions = {}): Promise<Result<RawData<K>>> {
    const started = performance.now();
    try {
      return await super.call(name, params, opts);
    } finally {
      this.spentMs[name] = (this.spentMs[name] ?? 0) + (performance.now() - started);
    }
  }
}

interface Entry {
  readonly target: ProbeTarget;
  readonly client: TimedClient;
  /** Slave port ids found by the latest complete discovery (auto only), and when. */
  ptpIds: number[] | null;
  discoveredAt: number;
  /** The poll in flight, shared by every probe of this target meanwhile. */
  running: Promise<ProbeResult> | null;
}

export interface ProbeResult {
  snapshot: Snapshot;
  samples: Sample[];
  durationMs: number;
}

export type ProbeOutcome = { ok: true; result: ProbeResult; shared: boolean } | { ok: false; message: string };

export interface ProbeServiceOptions {
  maxTargets?: number;
  maxPolls?: number;
  now?: () => number;
  /**
   * Runs a poll of the device at `url` in turn with anyone else asking it (the static fleet
   * polling the same device), so it never has two requests in flight.
   */
  exclusive?: <T>(url: string, task: () => Promise<T>) => Promise<T>;
}

export interface ProbeStats {
  /** Device polls started (fewer than probes answered when probes share a poll). */
  polls: number;
  /** Probes that joined a poll already in flight. */
  shared: number;
  /** Entries dropped to stay under maxTargets. */
  evicted: number;
}

export class ProbeService {
  readonly maxTargets: number;
  readonly maxPolls: number;
  readonly stats: ProbeStats = { polls: 0, shared: 0, evicted: 0 };
  /** Insertion order is recency: a used entry is moved to the end. */
  private readonly entries = new Map<string, Entry>();
  /** The latest poll per device URL: the next one of that URL waits for it. */
  private readonly urlTails = new Map<string, Promise<unknown>>();
  private polling = 0;
  private readonly now: () => number;
  private readonly exclusive: <T>(url: string, task: () => Promise<T>) => Promise<T>;

  constructor(opts: ProbeServiceOptions = {}) {
    this.maxTargets = opts.maxTargets ?? DEFAULT_MAX_TARGETS;
    this.maxPolls = opts.maxPolls ?? DEFAULT_MAX_PROBES;
    this.now = opts.now ?? Date.now;
    this.exclusive = opts.exclusive ?? ((_url, task) => task());
  }

  /** Device polls in flight now. */
  get inFlight(): number {
    return this.polling;
  }

  /** Targets held (each with its client). */
  get held(): number {
    return this.entries.size;
  }

  /** Asks the target now, or joins the poll of it already in flight; `budgetMs` bounds the whole poll. */
  probe(target: ProbeTarget, budgetMs: number): Promise<ProbeOutcome> {
    const existing = this.entries.get(target.key);
    if (existing?.running) {
      this.stats.shared++;
      return existing.running.then((result) => ({ ok: true, result, shared: true }));
    }
    if (this.polling >= this.maxPolls) {
      const n = this.polling;
      return Promise.resolve({ ok: false, message: `${n} probe${n === 1 ? ' is' : 's are'} in flight, the most this exporter runs at once (--max-probes); the target is asked at the next scrape.` });
    }
    const entry = existing ?? this.admit(target);
    if (!entry) {
      const n = this.entries.size;
      return Promise.resolve({ ok: false, message: `${n === 1 ? 'the 1 target' : `all ${n} targets`} this exporter holds ${n === 1 ? 'is' : 'are'} being probed (--max-targets); the target is asked at the next scrape.` });
    }
    // Most recently used last.
    this.entries.delete(target.key);
    this.entries.set(target.key, entry);

    const deadline = performance.now() + budgetMs;
    const tail = this.urlTails.get(target.url) ?? Promise.resolve();
    this.polling++;
    this.stats.polls++;
    const run = tail
      .then(() => this.exclusive(target.url, () => this.poll(entry, deadline - performance.now())))
      .finally(() => {
        this.polling--;
        entry.running = null;
        if (this.urlTails.get(target.url) === settled) this.urlTails.delete(target.url);
      });
    const settled = run.catch(() => undefined);
    this.urlTails.set(target.url, settled);
    entry.running = run;
    return run.then((result) => ({ ok: true, result, shared: false }));
  }

  /** Drops every entry and its connections. */
  close(): void {
    for (const e of this.entries.values()) e.client.destroy();
    this.entries.clear();
  }

  /** A new entry, after dropping the least recently used idle one when full; null when all are busy. */
  private admit(target: ProbeTarget): Entry | null {
    if (this.entries.size >= this.maxTargets) {
      const idle = [...this.entries.values()].find((e) => !e.running);
      if (!idle) return null;
      this.entries.delete(idle.target.key);
      idle.client.destroy();
      this.stats.evicted++;
    }
    const c = target.config.connection;
    const client = new TimedClient({ ...c, baseUrl: c.url });
    const entry: Entry = { target, client, ptpIds: null, discoveredAt: 0, running: null };
    this.entries.set(target.key, entry);
    return entry;
  }

  private async poll(entry: Entry, budgetMs: number): Promise<ProbeResult> {
    const { config } = entry.target;
    const started = performance.now();
    entry.client.reset();
    const ptpPorts = this.portsToAsk(entry, config.ptpPorts);
    // The export never shows secrets.
    const snapshot = await pollOnce(entry.client, { ptpPorts, showSecrets: false, budgetMs: Math.max(0, Math.floor(budgetMs)) });
    const durationMs = performance.now() - started;
    if (ptpPorts === 'auto') this.rememberPorts(entry, snapshot);
    const verdict = evaluateHealth(snapshot, config.thresholds);
    const polled = { ntp: true, gnss: true, ptp: true, alarm: true };
    const samples = [
      ...deviceSamples({ device: entry.target.url, snapshot, polled, durationMs: { ...entry.client.spentMs }, lastPollAt: this.now(), verdict }),
      ...probeSamples(entry.target.url, snapshot, durationMs),
    ];
    return { snapshot, samples, durationMs };
  }

  /** With auto discovery, the ports found last time, rediscovered as often as the live monitor does. */
  private portsToAsk(entry: Entry, selection: PtpPortSelection): PtpPortSelection {
    if (selection !== 'auto') return selection;
    return entry.ptpIds !== null && this.now() - entry.discoveredAt < REDISCOVER_MS ? entry.ptpIds : 'auto';
  }

  /** Discovery is kept only when it was conclusive: no port id lost to the network. */
  private rememberPorts(entry: Entry, snapshot: Snapshot): void {
    if (!snapshot.ptp.ok) return;
    const ports = snapshot.ptp.data.ports;
    if (ports.some((p) => !p.ok && p.error?.kind === 'network')) return;
    entry.ptpIds = ports.map((p) => p.id);
    entry.discoveredAt = this.now();
  }
}
