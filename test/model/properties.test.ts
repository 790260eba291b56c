/**
 * Properties over arbitrary input: parsers never throw and never produce NaN, Infinity or -0;
 * the sanitizer's output is always safe, bounded and stable under a second pass.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, sanitizeText } from '../../src/model/sanitize.js';
import {
  formatDuration,
  formatNumber,
  formatOffset,
  formatPpm,
  parseCoordinate,
  parseLastRxSeconds,
  parseLastSample,
  parseQuantityNs,
  parseUtc,
  reachCount,
} from '../../src/model/units.js';

const numRuns = Number(process.env.FUZZ_RUNS ?? 300);

/** Strings biased towards the characters parsers and the sanitizer care about. */
const deviceText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...'0123456789+-.[]/ :°\'"NSEWnsuµmhdy±\x1b\x07\u202e\u200d'.split('')), maxLength: 30 }),
);

function isCleanNumberOrNull(value: number | null): boolean {
  return value === null || (Number.isFinite(value) && !Object.is(value, -0));
}

describe('parsers on arbitrary text', () => {
  it('yield finite numbers (never -0) or null', () => {
    fc.assert(
      fc.property(deviceText, (text) => {
        const sample = parseLastSample(text);
        return [
          parseQuantityNs(text),
          sample.offsetNs,
          sample.measuredOffsetNs,
          sample.errorNs,
          parseLastRxSeconds(text),
          parseCoordinate(text, 'lat'),
          parseCoordinate(text, 'lon'),
          reachCount(text),
        ].every(isCleanNumberOrNull);
      }),
      { numRuns },
    );
  });

  it('parseUtc yields a valid ISO instant or null', () => {
    fc.assert(
      fc.property(deviceText, deviceText, (date, time) => {
        const utc = parseUtc(date, time);
        return utc === null || new Date(utc).toISOString() === utc;
      }),
      { numRuns },
    );
  });
});

describe('formatters on arbitrary numbers', () => {
  it('never print NaN, Infinity or -0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.double({ min: -0.01, max: 0.01 }), fc.constant(null)), (n) =>
        [formatOffset(n), formatOffset(n, { ascii: true }), formatDuration(n), formatPpm(n), formatNumber(n), formatNumber(n, 2)].every(
          (text) => !/NaN|Infinity|^-0(\.0+)?(?![.\d])/.test(text),
        ),
      ),
      { numRuns },
    );
  });

  it('formatOffset reads back to about the same value', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (ns) => {
        const back = parseQuantityNs(formatOffset(ns, { ascii: true }));
        expect(back).not.toBeNull();
        // Three significant digits, or whole nanoseconds below a microsecond.
        expect(Math.abs((back ?? 0) - ns)).toBeLessThanOrEqual(Math.max(0.5, Math.abs(ns) * 0.006));
      }),
      { numRuns },
    );
  });
});

describe('sanitizeText on arbitrary text', () => {
  it('is safe, bounded and idempotent', () => {
    fc.assert(
      fc.property(deviceText, fc.integer({ min: 1, max: 300 }), (text, max) => {
        const once = sanitizeText(text, max);
        expect(hasUnsafeCharacters(once)).toBe(false);
        expect(Array.from(once).length).toBeLessThanOrEqual(max);
        expect(sanitizeText(once, max)).toBe(once);
      }),
      { numRuns },
    );
  });
});
