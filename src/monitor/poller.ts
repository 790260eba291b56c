/**
 * The poller: one loop per operation, each with at most one request in flight (the next poll is
 * scheduled when the answer is in, so a slow answer is never stacked on), a small jitter so the
 * four operations do not hit the device in one burst, and exponential backoff while the device
 * does not answer. During an outage only one operation probes the device; when it answers,
 * every operation polls again at once.
 */
import type { DeviceClient } from '../api/client.js';
import type { OperationName } from '../api/endpoints.js';
import type { Result } from '../api/errors.js';
import { normalizeAlarm } from '../model/alarm.js';
import { toSnapshotError } from '../model/build.js';
import { withCapped } from '../model/capped.js';
import { normalizeGnss } from '../model/gnss.js';
import { normalizeNtp } from '../model/ntp.js';
import { normalizePtp } from '../model/ptp.js';
import type { Section, SectionName, Snapshot } from '../model/snapshot.js';
import type { Thresholds } from './health.js';
import {
  AUTO_PORT_IDS,
  discoveredIds,
  discoveryComplete,
  isNotFound,
  pollPorts,
  ptpSectionResult,
  type PtpPortSelection,
} from './ptp-discovery.js';
import type { MonitorController, MonitorState } from './state.js';
import { MonitorStore, sectionNames } from './store.js';

export interface PollerOptions {
  intervalMs: number;
  ptpPorts: PtpPortSelection;
  showSecrets: boolean;
  thresholds?: Thresholds;
  /** The device profile's name, shown in the header. */
  profile?: string;
  /** Upper bound of the backoff while the device does not answer. */
  maxBackoffMs?: number;
  /** How often auto discovery asks the port ids again. */
  rediscoverMs?: number;
  /** Fraction of the interval added at random to each delay. */
  jitter?: number;
  now?: () => number;
  random?: () => number;
}

export const MAX_BACKOFF_MS = 30_000;

/** Delay before the next probe after `failures` failed ones: doubling from the interval, capped. */
export function backoffDelay(intervalMs: number, failures: number, maxMs: number = MAX_BACKOFF_MS): number {
  return Math.min(maxMs, intervalMs * 2 ** Math.min(Math.max(failures, 0), 16));
}
export const REDISCOVER_MS = 5 * 60_000;

interface Loop {
  timer: NodeJS.Timeout | null;
  inFlight: boolean;
  /** The latest poll of this operation failed at the network level. */
  networkFailed: boolean;
}

export class Poller implements MonitorController {
  readonly store: MonitorStore;
  private readonly loops: Record<SectionName, Loop>;
  private readonly opts: Required<Omit<PollerOptions, 'now' | 'random' | 'thresholds' | 'profile'>> & PollerOptions;
  private readonly clock: () => number;
  private readonly random: () => number;
  private running = false;
  private failures = 0;
  /** The operation that probes the device during an outage. */
  private probe: SectionName | null = null;
  private ptpIds: number[] | null;
  private discoveredAt = 0;
  /** Ask every port id again at the next PTP poll (auto discovery only): after an outage, a port failing. */
  private rediscoverSoon = false;
  /** Ports whose latest answer was an error: a port that starts failing triggers rediscovery once. */
  private failingPorts = new Set<number>();

  constructor(
    private readonly client: DeviceClient,
    options: PollerOptions,
  ) {
    this.opts = { maxBackoffMs: MAX_BACKOFF_MS, rediscoverMs: REDISCOVER_MS, jitter: 0.05, ...options };
    this.clock = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.store = new MonitorStore(client.baseUrl, options.intervalMs, options.thresholds);
    if (options.profile) this.store.update({ profile: options.profile });
    this.ptpIds = options.ptpPorts === 'auto' ? null : [...options.ptpPorts];
    const loop = (): Loop => ({ timer: null, inFlight: false, networkFailed: false });
    this.loops = { ntp: loop(), gnss: loop(), ptp: loop(), alarm: loop() };
  }

  // --- MonitorController ---

  getState = (): MonitorState => this.store.getState();

  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  private get paused(): boolean {
    return this.store.getState().paused;
  }

  pollNow = (): void => {
    if (!this.running || this.paused) return;
    this.failures = 0;
    this.probe = null;
    for (const name of sectionNames) this.runSoon(name, 0);
  };

  setPaused = (paused: boolean): void => {
    if (paused === this.paused) return;
    this.store.update({ paused });
    if (paused) {
      // Paused means quiet: no timers, no requests.
      for (const name of sectionNames) this.clearTimer(name);
    } else {
      this.pollNow();
    }
  };

  // --- lifecycle ---

  start(): void {
    if (this.running) return;
    this.running = true;
    // Staggered start: the device sees the four requests one after another.
    sectionNames.forEach((name, i) => this.runSoon(name, i * 50));
  }

  stop(): void {
    this.running = false;
    for (const name of sectionNames) this.clearTimer(name);
  }

  snapshot(): Snapshot {
    return this.store.snapshotWithHealth(this.clock());
  }

  // --- scheduling ---

  private clearTimer(name: SectionName): void {
    const loop = this.loops[name];
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = null;
  }

  private runSoon(name: SectionName, delayMs: number): void {
    const loop = this.loops[name];
    this.clearTimer(name);
    if (loop.inFlight) return; // its completion schedules the next poll
    loop.timer = setTimeout(() => {
      loop.timer = null;
      void this.runOnce(name);
    }, delayMs);
  }

  private nextDelay(name: SectionName): number | null {
    if (this.probe !== null) {
      // Outage: only the probe keeps asking, with exponential backoff.
      if (this.probe !== name) return null;
      return backoffDelay(this.opts.intervalMs, this.failures, this.opts.maxBackoffMs);
    }
    return this.opts.intervalMs * (1 + this.opts.jitter * this.random());
  }

  private async runOnce(name: SectionName): Promise<void> {
    const loop = this.loops[name];
    if (!this.running || this.paused || loop.inFlight) return;
    loop.inFlight = true;
    let result: Result<unknown>;
    try {
      result = await this.fetchSection(name);
    } catch (err) {
      // Nothing in the client throws for device input; this is a bug, shown in the pane.
      result = { ok: false, error: { kind: 'protocol', message: `internal error: ${(err as Error).message}` } };
    } finally {
      loop.inFlight = false;
    }
    if (!this.running) return;
    this.record(name, result);
    if (this.paused) return;
    const delay = this.nextDelay(name);
    if (delay !== null) this.runSoon(name, delay);
  }

  private async fetchSection(name: SectionName): Promise<Result<unknown>> {
    if (name !== 'ptp') {
      const raw = await this.client.call(name as Exclude<OperationName, 'ptp'>);
      if (!raw.ok) return raw;
      return { ok: true, data: withCapped(this.normalize(name, raw.data), raw.capped) };
    }
    const auto = this.opts.ptpPorts === 'auto';
    const discovering = this.ptpIds === null || (auto && (this.rediscoverSoon || this.clock() - this.discoveredAt > this.opts.rediscoverMs));
    const ids = discovering ? AUTO_PORT_IDS : (this.ptpIds ?? []);
    const results = await pollPorts((id) => this.client.call('ptp', { id }), ids);
    if (discovering && discoveryComplete(results)) {
      this.ptpIds = discoveredIds(results);
      this.discoveredAt = this.clock();
      this.rediscoverSoon = false;
    }
    // A port that starts failing may have gone (or the device renumbered its ports): look again.
    const failing = new Set(results.filter((p) => !p.result.ok && !(discovering && isNotFound(p.result))).map((p) => p.id));
    if (auto && !discovering && [...failing].some((id) => !this.failingPorts.has(id))) this.rediscoverSoon = true;
    this.failingPorts = failing;
    const section = ptpSectionResult(results, discovering);
    if (!section.ok) return section;
    return { ok: true, data: normalizePtp(section.data) };
  }

  private normalize(name: Exclude<SectionName, 'ptp'>, raw: unknown): unknown {
    switch (name) {
      case 'ntp':
        return normalizeNtp(raw as Parameters<typeof normalizeNtp>[0]);
      case 'gnss':
        return normalizeGnss(raw as Parameters<typeof normalizeGnss>[0]);
      case 'alarm':
        return normalizeAlarm(raw as Parameters<typeof normalizeAlarm>[0], { showSecrets: this.opts.showSecrets });
    }
  }

  // --- state ---

  private record(name: SectionName, result: Result<unknown>): void {
    const now = this.clock();
    const section: Section<unknown> = result.ok ? { ok: true, data: result.data } : { ok: false, error: toSnapshotError(result.error) };
    const networkFailure = !result.ok && result.error.kind === 'network';
    this.loops[name].networkFailed = networkFailure;
    let unreachable: MonitorState['unreachable'] | undefined;
    if (networkFailure) {
      // The device is down only when no operation gets through: one stalled operation while the
      // others answer is that operation's error, shown in its pane, not an outage.
      if (this.probe === null && sectionNames.every((n) => this.loops[n].networkFailed)) this.probe = name;
      if (this.probe === name) {
        this.failures++;
        const delay = this.nextDelay(name) ?? this.opts.intervalMs;
        unreachable = { since: this.getState().unreachable?.since ?? now, retryAt: now + delay, reason: section.ok ? '' : section.error.message };
      }
    } else if (this.probe !== null || this.getState().unreachable !== null) {
      // The device answers again, whoever asked (the probe, or `r` after pollNow dropped the
      // probe): the outage is over, everyone polls now, and PTP ports are looked for afresh.
      this.probe = null;
      this.failures = 0;
      unreachable = null;
      if (this.opts.ptpPorts === 'auto') this.rediscoverSoon = true;
      for (const other of sectionNames) if (other !== name) this.runSoon(other, 0);
    }
    this.store.apply(name, section, now, unreachable);
  }
}
