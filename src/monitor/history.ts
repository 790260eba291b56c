/**
 * Bounded histories for sparklines, statistics and the zoomed charts: fixed-size typed ring
 * buffers, allocated whole when a series starts, so a monitor left open for days holds the same
 * memory as after a minute. Each sample keeps its time, so a chart's time axis is true across
 * outages and pauses. A missing value is stored as NaN.
 */
export class Ring {
  private readonly buf: Float64Array;
  private readonly at: Float64Array;
  private start = 0;
  private size = 0;
  /** Samples ever pushed: tells a cached drawing of the series that it changed. */
  pushes = 0;

  constructor(readonly capacity: number) {
    this.buf = new Float64Array(capacity);
    this.at = new Float64Array(capacity);
  }

  /** @param at epoch ms of the sample (NaN when unknown) */
  push(value: number | null, at = Number.NaN): void {
    const v = value === null || !Number.isFinite(value) ? Number.NaN : value;
    const end = (this.start + this.size) % this.capacity;
    this.buf[end] = v;
    this.at[end] = at;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
    this.pushes++;
  }

  get length(): number {
    return this.size;
  }

  /**
   * The newest `n` values (all by default), oldest first; missing values as null. Views pass a
   * window: a frame's work must not grow with the length of the history.
   */
  values(n = this.size): (number | null)[] {
    const from = Math.max(0, this.size - Math.max(0, n));
    const out: (number | null)[] = new Array(this.size - from);
    for (let i = from; i < this.size; i++) {
      const v = this.buf[(this.start + i) % this.capacity]!;
      out[i - from] = Number.isNaN(v) ? null : v;
    }
    return out;
  }

  /** The newest `n` values that are present, oldest first. */
  recent(n: number): number[] {
    const out: number[] = [];
    for (let i = Math.max(0, this.size - n); i < this.size; i++) {
      const v = this.buf[(this.start + i) % this.capacity]!;
      if (!Number.isNaN(v)) out.push(v);
    }
    return out;
  }

  /** Every sample with its time, oldest first (the zoomed chart; NaN value = missing). */
  samples(): { times: Float64Array; values: Float64Array } {
    const times = new Float64Array(this.size);
    const values = new Float64Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const j = (this.start + i) % this.capacity;
      times[i] = this.at[j]!;
      values[i] = this.buf[j]!;
    }
    return { times, values };
  }
}

/** The shortest history kept: the sparklines and the 60-sample statistics need 120 at most. */
export const HISTORY_LENGTH = 120;
/** What the zoomed charts show: the last hour at the poll rate... */
export const HISTORY_SPAN_MS = 3_600_000;
/** ...within this many samples (16 bytes each): half an hour at the fastest interval, 0.5 s. */
export const HISTORY_MAX_LENGTH = 3_600;

/** Samples per series for a poll interval: an hour of polls, bounded both ways. */
export function historyCapacity(intervalMs: number): number {
  if (!(intervalMs > 0)) return HISTORY_LENGTH;
  return Math.max(HISTORY_LENGTH, Math.min(HISTORY_MAX_LENGTH, Math.ceil(HISTORY_SPAN_MS / intervalMs)));
}

/** Keys come from device data (source names, port ids): cap them so a device cannot grow us. */
export const MAX_SERIES = 256;

/** Named series, e.g. `ntp:ntp1.example`, `gnss:0:gps`, `ptp:1:offset`. */
export class HistoryStore {
  private readonly series = new Map<string, Ring>();
  /** Bumped on every push, so views can tell "changed" without comparing arrays. */
  version = 0;

  constructor(readonly capacity = HISTORY_LENGTH) {}

  push(key: string, value: number | null, at?: number): void {
    let ring = this.series.get(key);
    if (!ring) {
      if (this.series.size >= MAX_SERIES) {
        const oldest = this.series.keys().next().value;
        if (oldest !== undefined) this.series.delete(oldest);
      }
      ring = new Ring(this.capacity);
      this.series.set(key, ring);
    }
    ring.push(value, at);
    this.version++;
  }

  get(key: string): Ring | undefined {
    return this.series.get(key);
  }

  /** The newest `n` values of a series (all by default), oldest first. */
  values(key: string, n?: number): (number | null)[] {
    return this.series.get(key)?.values(n) ?? [];
  }

  get seriesCount(): number {
    return this.series.size;
  }
}

export const seriesKey = {
  ntpOffset: (source: string) => `ntp:${source}`,
  gnssCount: (receiver: number | null, constellation: string) => `gnss:${receiver ?? '?'}:${constellation}`,
  gnssTotal: (receiver: number | null) => `gnss:${receiver ?? '?'}:total`,
  ptpOffset: (port: number) => `ptp:${port}:offset`,
  ptpDelay: (port: number) => `ptp:${port}:delay`,
};
