/**
 * Codes and registers in words: PTP clockClass, clockAccuracy, offsetScaledLogVariance, chrony's
 * reach register, the GPS/BDS leap-second relation. Pure lookups, shown next to raw values.
 */

/** IEEE 1588-2008 clockClass values with a defined meaning (7.6.2.4), plus the ITU-T telecom profile ones. */
const clockClasses: Record<number, string> = {
  6: 'locked to a primary reference (e.g. GNSS)',
  7: 'holdover, within specification',
  13: 'locked to an application-specific time source',
  14: 'holdover from an application-specific source, within specification',
  52: 'degraded: primary reference lost, out of holdover specification (alternative A)',
  58: 'degraded: application-specific source lost, out of holdover specification (alternative A)',
  135: 'boundary clock in holdover, within specification (telecom profile)',
  140: 'holdover, category 1 (telecom profile)',
  150: 'holdover, category 2 (telecom profile)',
  160: 'holdover, category 3 (telecom profile)',
  165: 'boundary clock, out of holdover specification (telecom profile)',
  187: 'degraded: primary reference lost, may be stepped (alternative B)',
  193: 'degraded: application-specific source lost, may be stepped (alternative B)',
  248: 'default: not synchronized to any reference',
  255: 'slave-only clock',
};

export function describeClockClass(cls: number | null): string | null {
  if (cls === null || !Number.isInteger(cls) || cls < 0 || cls > 255) return null;
  const known = clockClasses[cls];
  if (known) return known;
  if (cls < 6) return 'reserved';
  if (cls >= 68 && cls <= 122) return 'alternate PTP profile';
  if (cls >= 133 && cls <= 170) return 'alternate PTP profile';
  if (cls >= 216 && cls <= 232) return 'alternate PTP profile';
  return 'reserved';
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
 * stands for: lower is steadier.
 */
export function describeVariance(v: number | null): string | null {
  if (v === null || !Number.isFinite(v) || v < 0 || v > 0xffff) return null;
  if (v === 0xffff) return 'not computed';
  const sigmaNs = Math.sqrt(2 ** ((v - 0x8000) / 256)) * 1e9;
  if (sigmaNs < 1) return `deviation about ${+(sigmaNs * 1000).toPrecision(2)} ps`;
  if (sigmaNs < 1e3) return `deviation about ${+sigmaNs.toPrecision(2)} ns`;
  if (sigmaNs < 1e6) return `deviation about ${+(sigmaNs / 1e3).toPrecision(2)} µs`;
  return `deviation about ${+(sigmaNs / 1e6).toPrecision(2)} ms`;
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

/** BeiDou time runs 14 s behind GPS time, so the leap-second fields must differ by 14. */
export const GPS_MINUS_BDS_SECONDS = 14;

export function leapSecondMismatch(gps: number | null, bds: number | null): string | null {
  if (gps === null || bds === null) return null;
  if (gps - bds === GPS_MINUS_BDS_SECONDS) return null;
  return `GPS leap seconds ${gps} and BDS ${bds} should differ by ${GPS_MINUS_BDS_SECONDS} (BDS = GPS - 14 s)`;
}
