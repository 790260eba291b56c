/**
 * Bounded histories for sparklines and statistics: fixed-size typed ring buffers, so a monitor
 * left open for days holds the same memory as after a minute. A missing value is stored as NaN.
 */
export class Ring {
  private readonly buf: Float64Array;
  private start = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.buf = new Float64Array(capacity);
  }

  push(value: number | null): void {
    const v = value === null || !Number.isFinite(value) ? Number.NaN : value;
    const end = (this.start + this.size) % this.capacity;
    this.buf[end] = v;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
  }

  get length(): number {
    return this.size;
  }

  /** Oldest first; missing values as null. */
  values(): (number | null)[] {
    const out: (number | null)[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const v = this.buf[(this.start + i) % this.capacity]!;
      out[i] = Number.isNaN(v) ? null : v;
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
}

export const HISTORY_LENGTH = 120;
/** Keys come from device data (source names, port ids): cap them so a device cannot grow us. */
export const MAX_SERIES = 256;

/** Named series, e.g. `ntp:ntp1.example`, `gnss:0:gps`, `ptp:1:offset`. */
export class HistoryStore {
  private readonly series = new Map<string, Ring>();
  /** Bumped on every push, so views can tell "changed" without comparing arrays. */
  version = 0;

  constructor(readonly capacity = HISTORY_LENGTH) {}

  push(key: string, value: number | null): void {
    let ring = this.series.get(key);
    if (!ring) {
      if (this.series.size >= MAX_SERIES) {
        const oldest = this.series.keys().next().value;
        if (oldest !== undefined) this.series.delete(oldest);
      }
      ring = new Ring(this.capacity);
      this.series.set(key, ring);
    }
    ring.push(value);
    this.version++;
  }

  get(key: string): Ring | undefined {
    return this.series.get(key);
  }

  values(key: string): (number | null)[] {
    return this.series.get(key)?.values() ?? [];
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
