/**
 * Codes and registers in words: PTP clockClass, clockAccuracy, offsetScaledLogVariance, chrony's
 * reach register, the GPS/BDS leap-second relation. Pure lookups, shown next to raw values.
 */

/**
 * What a grandmaster's clockClass says about its time. The severities the health table gives
 * them follow from this (locked ok, holdover within specification a warning, anything worse
 * critical), so the table below is the one place a class gets its meaning.
 */
export type ClockClassCondition =
  | 'locked'
  | 'holdover'
  | 'holdover-out-of-spec'
  | 'free-running'
  | 'slave-only'
  | 'other-profile'
  | 'reserved';

interface ClockClassMeaning {
  meaning: string;
  condition: ClockClassCondition;
}

/**
 * clockClass values with a defined meaning: IEEE 1588-2008 7.6.2.4 Table 5 (IEEE 1588-2019
 * 7.6.2.5 Table 4) and the ITU-T telecom profiles G.8275.1 (6.4, Table 2/3) and G.8275.2, which
 * reuse 6, 7, 248 and 255 and add 135-165.
 */
const clockClasses: Record<number, ClockClassMeaning> = {
  6: { meaning: 'locked to a primary reference (e.g. GNSS)', condition: 'locked' },
  7: { meaning: 'holdover, within specification', condition: 'holdover' },
  13: { meaning: 'locked to an application-specific source', condition: 'locked' },
  14: { meaning: 'holdover from an application-specific source, within specification', condition: 'holdover' },
  52: { meaning: 'holdover out of specification, will not follow another clock (1588 alternative A of 7)', condition: 'holdover-out-of-spec' },
  58: { meaning: 'holdover out of specification, will not follow another clock (1588 alternative A of 14)', condition: 'holdover-out-of-spec' },
  135: { meaning: 'T-BC in holdover, within specification (G.8275)', condition: 'holdover' },
  140: { meaning: 'holdover out of specification, frequency traceable to category 1 (G.8275)', condition: 'holdover-out-of-spec' },
  150: { meaning: 'holdover out of specification, frequency traceable to category 2 (G.8275)', condition: 'holdover-out-of-spec' },
  160: { meaning: 'holdover out of specification, frequency traceable to category 3 (G.8275)', condition: 'holdover-out-of-spec' },
  165: { meaning: 'T-GM or T-BC in holdover, out of specification (G.8275)', condition: 'holdover-out-of-spec' },
  187: { meaning: 'holdover out of specification, may follow another clock (1588 alternative B of 7)', condition: 'holdover-out-of-spec' },
  193: { meaning: 'holdover out of specification, may follow another clock (1588 alternative B of 14)', condition: 'holdover-out-of-spec' },
  248: { meaning: 'free-running: default, not synchronized to any reference', condition: 'free-running' },
  255: { meaning: 'slave-only clock', condition: 'slave-only' },
};

/** Ranges IEEE 1588 leaves to alternate PTP profiles (Table 5: 68-122, 133-170, 216-232). */
const profileRanges: readonly [number, number][] = [
  [68, 122],
  [133, 170],
  [216, 232],
];

/** A class's meaning and condition; null for what is not a clockClass at all. */
export function decodeClockClass(cls: number | null): ClockClassMeaning | null {
  if (cls === null || !Number.isInteger(cls) || cls < 0 || cls > 255) return null;
  const known = clockClasses[cls];
  if (known) return known;
  if (profileRanges.some(([lo, hi]) => cls >= lo && cls <= hi)) return { meaning: 'alternate PTP profile', condition: 'other-profile' };
  return { meaning: 'reserved', condition: 'reserved' };
}

export function describeClockClass(cls: number | null): string | null {
  return decodeClockClass(cls)?.meaning ?? null;
}

/** clockAccuracy enumeration (IEEE 1588-2008 Table 6): code -> the bound it promises. */
const clockAccuracies: [code: number, bound: string][] = [
  [0x17, 'within 1 ps'],
  [0x18, 'within 2.5 ps'],
  [0x19, 'within 10 ps'],
  [0x1a, 'within 25 ps'],
  [0x1b, 'within 100 ps'],
  [0x1c, 'within 250 ps'],
  [0x1d, 'within 1 ns'],
  [0x1e, 'within 2.5 ns'],
  [0x1f, 'within 10 ns'],
  [0x20, 'within 25 ns'],
  [0x21, 'within 100 ns'],
  [0x22, 'within 250 ns'],
  [0x23, 'within 1 µs'],
  [0x24, 'within 2.5 µs'],
  [0x25, 'within 10 µs'],
  [0x26, 'within 25 µs'],
  [0x27, 'within 100 µs'],
  [0x28, 'within 250 µs'],
  [0x29, 'within 1 ms'],
  [0x2a, 'within 2.5 ms'],
  [0x2b, 'within 10 ms'],
  [0x2c, 'within 25 ms'],
  [0x2d, 'within 100 ms'],
  [0x2e, 'within 250 ms'],
  [0x2f, 'within 1 s'],
  [0x30, 'within 10 s'],
  [0x31, 'more than 10 s'],
  [0xfe, 'unknown'],
];
const accuracyByCode = new Map(clockAccuracies);

export function describeClockAccuracy(code: number | null): string | null {
  if (code === null || !Number.isInteger(code) || code < 0 || code > 255) return null;
  return accuracyByCode.get(code) ?? 'reserved';
}

export function hex2(code: number | null): string {
  return code === null ? '-' : `0x${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * offsetScaledLogVariance is log2 of the PTP variance (s^2) scaled by 2^8 and offset by 0x8000
 * (IEEE 1588-2008 7.6.3.3); 0xFFFF means "not computed". Shown as the standard deviation it
 * stands for: lower is steadier. The field is a UInteger16: a fraction or anything outside
 * 0..0xFFFF is no 1588 value and decodes to nothing.
 */
export function describeVariance(v: number | null): string | null {
  if (v === null) return null;
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) return 'not a 1588 value';
  if (v === 0xffff) return 'not computed';
  const sigmaNs = Math.sqrt(2 ** ((v - 0x8000) / 256)) * 1e9;
  if (sigmaNs < 1) return `deviation about ${+(sigmaNs * 1000).toPrecision(2)} ps`;
  if (sigmaNs < 1e3) return `deviation about ${+sigmaNs.toPrecision(2)} ns`;
  if (sigmaNs < 1e6) return `deviation about ${+(sigmaNs / 1e3).toPrecision(2)} µs`;
  return `deviation about ${+(sigmaNs / 1e6).toPrecision(2)} ms`;
}

/**
 * A local oscillator may be off by +-100 ppm (IEEE 1588 Annex / IEEE 802.1AS B.1.1), so two
 * clocks differ by at most about 200 ppm. A larger "ppm" value is something else: a raw
 * 802.1AS cumulativeScaledRateOffset ((rateRatio - 1) x 2^41) reads as millions.
 */
export const PLAUSIBLE_RATE_OFFSET_PPM = 200;

export function rateOffsetImplausible(ppm: number | null): boolean {
  return ppm !== null && Math.abs(ppm) > PLAUSIBLE_RATE_OFFSET_PPM;
}

/** Seconds per unit, and the epoch value above which a number must be in the finer unit. */
const epochUnits: readonly { unit: string; perSecond: number; below: number }[] = [
  { unit: 'seconds', perSecond: 1, below: 1e11 },
  { unit: 'milliseconds', perSecond: 1e3, below: 1e14 },
  { unit: 'microseconds', perSecond: 1e6, below: 1e17 },
  { unit: 'nanoseconds', perSecond: 1e9, below: Number.POSITIVE_INFINITY },
];

/** Before this (2000-01-01) a "last update" is no date: a count since boot, or an unset field. */
const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);

export interface DecodedLastUpdate {
  /** Epoch ms of the last update; null when the value is no date. */
  atMs: number | null;
  /** The unit it was sent in, when not the documented seconds ("milliseconds"). */
  unit: string | null;
  /** Why it is no date: "0: never set", "3600 is no date (a time since boot?)". */
  problem: string | null;
}

/**
 * PTP lastUpdate, documented as "timestamp, in seconds". Firmwares send milliseconds too (the
 * seconds reading lands thousands of years ahead), and 0 or a count since boot (the seconds
 * reading lands in 1970): the unit is told by magnitude, and what is no date says so.
 */
export function decodeLastUpdate(value: number | null): DecodedLastUpdate {
  if (value === null) return { atMs: null, unit: null, problem: null };
  if (value === 0) return { atMs: null, unit: null, problem: '0: never set' };
  if (!Number.isFinite(value) || value < 0) return { atMs: null, unit: null, problem: `${value} is no date` };
  const scale = epochUnits.find((u) => value < u.below) ?? epochUnits[epochUnits.length - 1]!;
  const atMs = (value / scale.perSecond) * 1000;
  if (atMs < EARLIEST_PLAUSIBLE_MS) return { atMs: null, unit: null, problem: `${value} is no date (a time since boot?)` };
  return { atMs, unit: scale.perSecond === 1 ? null : scale.unit, problem: null };
}

export function describeStepsRemoved(n: number | null): string | null {
  if (n === null || !Number.isInteger(n) || n < 0) return null;
  if (n === 0) return 'this clock is the grandmaster';
  if (n === 1) return 'directly attached to the grandmaster';
  return `${n} hops from the grandmaster`;
}

/** "last 8 polls: 6 ok, 2 lost" from the count of successes. */
export function describeReach(count: number | null): string | null {
  if (count === null) return null;
  return `last 8 polls: ${count} ok, ${8 - count} lost`;
}

/**
 * Leap seconds each constellation's time is ahead of UTC, as broadcast: GPS - UTC has been 18 s
 * since 2017-01-01 (IS-GPS-200, IERS Bulletin C 52), BDT - UTC 4 s (BDT began 2006-01-01 at
 * UTC + 0 when GPS - UTC was 14). No leap second has been announced since; when the IERS announces
 * one, both change together and these two numbers with them.
 */
export const CURRENT_LEAP_SECONDS = { gps: 18, bds: 4 } as const;

/** "GPS leap seconds 17 (GPS - UTC is 18 s since 2017-01-01)": the values a receiver got wrong. */
export function leapSecondProblem(gps: number | null, bds: number | null): string | null {
  const wrong: string[] = [];
  if (gps !== null && gps !== CURRENT_LEAP_SECONDS.gps) wrong.push(`GPS leap seconds ${gps} (GPS - UTC is ${CURRENT_LEAP_SECONDS.gps} s since 2017-01-01)`);
  if (bds !== null && bds !== CURRENT_LEAP_SECONDS.bds) wrong.push(`BDS leap seconds ${bds} (BDS - UTC is ${CURRENT_LEAP_SECONDS.bds} s)`);
  return wrong.length > 0 ? wrong.join(', ') : null;
}
