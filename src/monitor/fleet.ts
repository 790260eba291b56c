/**
 * Many devices at once (the exporter): one DeviceClient and one Poller per device, so every
 * device gets the live monitor's single flight per operation, one request in flight per device,
 * probe-only backoff and PTP discovery unchanged. What the fleet adds:
 *
 * - a cap on requests in flight across all devices (a Limiter shared by the clients), so 500
 *   devices waking together do not open 500 sockets at once; devices that stopped answering
 *   hold at most half of it, so stalled devices cannot starve the healthy ones;
 * - starts spread over one interval, so the polls of the fleet are spread evenly in time;
 * - per device, what an exporter reads without waiting: the latest snapshot, which operations
 *   have been polled, how long each one's latest poll took and when the latest poll ended.
 *
 * A Poller costs four timers and a store with bounded histories; 500 of them were measured to
 * poll well under the CPU budget (test/bench/exporter.ts), so no shared scheduler was needed.
 */
import { DeviceClient, type CallOptions, type ClientOptions } from '../api/client.js';
import type { OperationName, RawData } from '../api/endpoints.js';
import type { Result } from '../api/errors.js';
import type { SectionName, Snapshot } from '../model/snapshot.js';
import type { Thresholds, Verdict } from './health.js';
import { Poller } from './poller.js';
import type { PtpPortSelection } from './ptp-discovery.js';
import { sectionNames } from './store.js';

/**
 * A counting semaphore with two classes of task: at most `max` tasks run at once, and of them at
 * most `maxSlow` slow ones (requests to a device whose latest request got no answer). Waiting
 * tasks are served in order, the other class first: a stalled device can hold at most
 * `maxSlow` slots, so healthy devices always have the rest, and they never queue behind it.
 */
export class Limiter {
  private running = 0;
  private runningSlow = 0;
  private readonly waiting: { slow: boolean; start: () => void }[] = [];
  readonly maxSlow: number;
  /** The most tasks seen running at once (for tests and the benchmark). */
  peak = 0;
  /** The most slow tasks seen running at once. */
  peakSlow = 0;

  constructor(
    readonly max: number,
    maxSlow?: number,
  ) {
    if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`the limit must be a whole number of at least 1 (got ${max})`);
    this.maxSlow = maxSlow ?? Math.max(1, Math.floor(max / 2));
  }

  get inFlight(): number {
    return this.running;
  }

  async run<T>(task: () => Promise<T>, opts: { slow?: boolean } = {}): Promise<T> {
    const slow = opts.slow ?? false;
    // Waiting tasks of the same class go first; a task of the other class may pass them.
    if (this.mayStart(slow) && !this.waiting.some((w) => w.slow === slow)) this.started(slow);
    else await new Promise<void>((start) => this.waiting.push({ slow, start }));
    try {
      return await task();
    } finally {
      this.running--;
      if (slow) this.runningSlow--;
      this.next();
    }
  }

  private mayStart(slow: boolean): boolean {
    return this.running < this.max && (!slow || this.runningSlow < this.maxSlow);
  }

  private started(slow: boolean): void {
    this.running++;
    if (slow) this.runningSlow++;
    this.peak = Math.max(this.peak, this.running);
    this.peakSlow = Math.max(this.peakSlow, this.runningSlow);
  }

  /** Starts waiting tasks while there is room: the first healthy one, else the first slow one. */
  private next(): void {
    for (;;) {
      const healthy = this.waiting.findIndex((w) => !w.slow && this.mayStart(false));
      const i = healthy >= 0 ? healthy : this.waiting.findIndex((w) => w.slow && this.mayStart(true));
      if (i < 0) return;
      const [w] = this.waiting.splice(i, 1);
      this.started(w!.slow);
      w!.start();
    }
  }
}

/**
 * A DeviceClient whose requests take a fleet slot. Calls of one device are queued here first, so
 * a device holds at most one slot, and only while its request is on the wire; the request's
 * deadline starts when it gets the slot. A device whose latest request got no answer asks in the
 * slow class until it answers again.
 */
class FleetClient extends DeviceClient {
  private tail: Promise<unknown> = Promise.resolve();
  private slow = false;

  constructor(
    options: ClientOptions,
    private readonly limiter: Limiter,
    private readonly timed: (name: OperationName, ms: number) => void,
  ) {
    super(options);
  }

  override call<K extends OperationName>(name: K, params: { id?: number } = {}, opts: CallOptions = {}): Promise<Result<RawData<K>>> {
    const turn = this.tail.then(() =>
      this.limiter.run(
        async () => {
          const started = performance.now();
          try {
            const result = await super.call(name, params, opts);
            this.slow = !result.ok && result.error.kind === 'network';
            return result;
          } finally {
            this.timed(name, performance.now() - started);
          }
        },
        { slow: this.slow },
      ),
    );
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /** Runs `task` in this device's turn: no request of the fleet's goes to the device meanwhile. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(task);
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}

export interface FleetDevice {
  readonly url: string;
  readonly poller: Poller;
  /** The latest result of every operation, as a snapshot taken at the latest poll; null before the first result. */
  readonly snapshot: Snapshot | null;
  /** Operations that have a result (a pending one is "not polled yet", not "down"). */
  readonly polled: Record<SectionName, boolean>;
  /** Wall time of each operation's latest poll, ms (PTP: all its port requests together). */
  readonly durationMs: Record<SectionName, number | null>;
  /** Epoch ms when the latest poll of any operation ended. */
  lastPollAt: number | null;
}

export interface FleetOptions {
  intervalMs: number;
  ptpPorts: PtpPortSelection;
  thresholds?: Thresholds;
  /** Requests in flight across the fleet. */
  maxInFlight?: number;
  /** Starts are spread over this many ms (default: one interval). */
  spreadMs?: number;
  /** The fleet view's --show-secrets; the exporter never shows them. */
  showSecrets?: boolean;
}

/** One device of a fleet: its connection, and the profile name the live views show. */
export type FleetConnection = ClientOptions & { profile?: string };

export const DEFAULT_MAX_IN_FLIGHT = 32;

const perSection = <T>(value: T): Record<SectionName, T> => ({ ntp: value, gnss: value, ptp: value, alarm: value });

export class Fleet {
  readonly devices: readonly FleetDevice[];
  readonly limiter: Limiter;
  private readonly clients: FleetClient[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly spreadMs: number;

  /** `connections`: one per device; the device label is its baseUrl. */
  constructor(connections: readonly FleetConnection[], opts: FleetOptions) {
    this.limiter = new Limiter(opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.spreadMs = opts.spreadMs ?? opts.intervalMs;
    this.devices = connections.map(({ profile, ...connection }) => {
      // Request time accumulates per operation until the store applies that operation's result.
      const pendingMs = perSection(0);
      const client = new FleetClient(connection, this.limiter, (name, ms) => {
        pendingMs[name] += ms;
      });
      this.clients.push(client);
      // The export never shows secrets; the poller masks them before anything else sees them.
      const poller = new Poller(client, {
        intervalMs: opts.intervalMs,
        ptpPorts: opts.ptpPorts,
        showSecrets: opts.showSecrets ?? false,
        thresholds: opts.thresholds,
        ...(profile ? { profile } : {}),
      });
      const device: FleetDevice = {
        url: client.baseUrl,
        poller,
        // Made when read (a scrape), not on every answer: the results are the store's latest, which only an answer changes.
        get snapshot() {
          return this.lastPollAt === null ? null : poller.store.snapshot(this.lastPollAt);
        },
        polled: perSection(false),
        durationMs: perSection(null),
        lastPollAt: null,
      };
      this.unsubscribe.push(
        poller.store.onResult((name, _result, at) => {
          device.polled[name] = true;
          device.durationMs[name] = pendingMs[name];
          pendingMs[name] = 0;
          device.lastPollAt = at;
        }),
      );
      return device;
    });
  }

  /** Starts every poller, spread evenly over `spreadMs`. */
  start(): void {
    const n = this.devices.length;
    this.devices.forEach((device, i) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        device.poller.start();
      }, Math.floor((i * this.spreadMs) / Math.max(n, 1)));
      this.timers.add(timer);
    });
  }

  /** Stops polling and drops every connection; requests in flight end at once. */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const off of this.unsubscribe.splice(0)) off();
    for (const d of this.devices) d.poller.stop();
    for (const c of this.clients) c.destroy();
  }

  /**
   * Runs `task` (another client's requests to the device at `url`, a /probe) in that device's
   * turn, so the device never has two requests in flight; a URL outside the fleet runs at once.
   */
  exclusive<T>(url: string, task: () => Promise<T>): Promise<T> {
    const client = this.clients.find((c) => c.baseUrl === url);
    return client ? client.exclusive(task) : task();
  }

  /** The verdict of the shared rule table, once every operation of the device has a result. */
  static verdict(device: FleetDevice): Verdict | null {
    return sectionNames.every((n) => device.polled[n]) ? device.poller.getState().verdict : null;
  }
}
