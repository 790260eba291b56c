import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatDuration,
  formatMagnitude,
  formatNumber,
  formatOffset,
  formatPollInterval,
  formatPpm,
  looksLikeSample,
  parseCoordinate,
  parseLastRxSeconds,
  parseLastSample,
  parseQuantityNs,
  parseUtc,
  pollSeconds,
  reachBits,
  reachCount,
  reachText,
} from '../../src/model/units.js';

/** Object.is tells 0 from -0, which toBe also does; this keeps the intent explicit. */
function expectSame(actual: unknown, expected: unknown) {
  expect(Object.is(actual, expected), `${String(actual)} vs ${String(expected)}`).toBe(true);
}

describe('parseQuantityNs', () => {
  it.each<[string, number | null]>([
    ['+12us', 12000],
    ['-1.5ms', -1500000],
    ['+0.000us', 0],
    ['-0ns', 0],
    ['-0.000s', 0],
    ['850ns', 850],
    ['+12.3us', 12300],
    ['+12.3µs', 12300],
    ['+12.3μs', 12300],
    ['+2.5s', 2500000000],
    [' - 15 us ', -15000],
    ['.5ms', 500000],
    ['1.0001ns', 1],
    ['1.0005ns', 1.001],
    ['+12US', 12000],
    ['12', null],
    ['12m', null],
    ['12xs', null],
    ['', null],
    ['   ', null],
    ['us', null],
    ['NaN', null],
    ['NaNus', null],
    ['Infinity', null],
    ['+Infinityms', null],
    ['1e5us', null],
    ['+-12us', null],
    ['12us13us', null],
    [`${'9'.repeat(400)}s`, null],
  ])('%j -> %j', (text, expected) => {
    const value = parseQuantityNs(text);
    expectSame(value, expected);
    if (value !== null) expect(Number.isFinite(value)).toBe(true);
  });

  it('keeps huge but finite values finite', () => {
    const value = parseQuantityNs('99999999999999999999s');
    expect(value).not.toBeNull();
    expect(Number.isFinite(value)).toBe(true);
  });
});

describe('parseLastSample', () => {
  it.each<[string | null | undefined, number | null, number | null, number | null]>([
    ['+12us[ +15us] +/-  120us', 12000, 15000, 120000],
    ['-1234ns[-1300ns] +/- 5ms', -1234, -1300, 5000000],
    ['+0ns[-0ns] +/- 0ns', 0, 0, 0],
    ['+12us +/- 120us', 12000, null, 120000],
    ['+12us', 12000, null, null],
    ['+12us[+15us]', 12000, 15000, null],
    ['+12us[+15us', 12000, 15000, null],
    ['+12us[ garbage ] +/- 1ms', 12000, null, 1000000],
    ['+12us[+15us] ± 3ms', 12000, 15000, 3000000],
    ['+12us[+15us] +/- ', 12000, 15000, null],
    ['   +1.5ms  [  +1.6ms  ]   +/-   2s  ', 1500000, 1600000, 2000000000],
    ['NaN[NaN] +/- Infinity', null, null, null],
    ['12[15] +/- 120', null, null, null],
    ['', null, null, null],
    ['-', null, null, null],
    [null, null, null, null],
    [undefined, null, null, null],
  ])('%j', (text, offsetNs, measuredOffsetNs, errorNs) => {
    const sample = parseLastSample(text);
    expectSame(sample.offsetNs, offsetNs);
    expectSame(sample.measuredOffsetNs, measuredOffsetNs);
    expectSame(sample.errorNs, errorNs);
  });
});

describe('looksLikeSample', () => {
  it.each<[string, boolean]>([
    ['+12us[ +15us] +/-  120us', true],
    ['-3ms +/- 9ms', true],
    ['+12us', true],
    ['12', false],
    ['5m', false],
    ['2d', false],
    ['-', false],
    ['', false],
    ['4294967295', false],
  ])('%j -> %j', (text, expected) => {
    expect(looksLikeSample(text)).toBe(expected);
  });
});

describe('parseLastRxSeconds', () => {
  it.each<[string | null | undefined, number | null]>([
    ['12', 12],
    ['0', 0],
    ['5m', 300],
    ['3h', 10800],
    ['2d', 172800],
    ['1y', 31536000],
    [' 7 ', 7],
    ['7s', 7],
    ['4294967295', null],
    ['-', null],
    ['', null],
    ['-5', null],
    ['1.5', null],
    ['5x', null],
    ['NaN', null],
    ['Infinity', null],
    ['+12us[+15us] +/- 1ms', null],
    [`${'9'.repeat(400)}`, null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (text, expected) => {
    expectSame(parseLastRxSeconds(text), expected);
  });
});

describe('pollSeconds', () => {
  it.each<[number | null | undefined, number | null]>([
    [0, 1],
    [1, 2],
    [6, 64],
    [10, 1024],
    [-2, 0.25],
    [-10, 2 ** -10],
    [20, 2 ** 20],
    [21, null],
    [-11, null],
    [1.5, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (log2, expected) => {
    expectSame(pollSeconds(log2), expected);
  });
});

describe('reach', () => {
  it.each<[string | number | null | undefined, number | null, string | null]>([
    ['377', 8, '377'],
    ['177', 7, '177'],
    ['077', 6, '077'],
    ['007', 3, '007'],
    ['000', 0, '000'],
    ['1', 1, '001'],
    [' 17 ', 4, '017'],
    ['8', null, null],
    ['400', null, null],
    ['777', null, null],
    ['', null, null],
    ['0377', null, null],
    ['abc', null, null],
    [255, 8, '377'],
    [0, 0, '000'],
    [7, 3, '007'],
    [377, 8, '377'],
    [-1, null, null],
    [1.5, null, null],
    [999, null, null],
    [Number.NaN, null, null],
    [null, null, null],
    [undefined, null, null],
  ])('%j -> count %j, text %j', (reach, count, text) => {
    expectSame(reachCount(reach), count);
    expectSame(reachText(reach), text);
  });

  it.each<[string, boolean[] | null]>([
    ['377', [true, true, true, true, true, true, true, true]],
    ['177', [false, true, true, true, true, true, true, true]],
    ['007', [false, false, false, false, false, true, true, true]],
    ['001', [false, false, false, false, false, false, false, true]],
    ['200', [true, false, false, false, false, false, false, false]],
    ['000', [false, false, false, false, false, false, false, false]],
    ['9', null],
  ])('reachBits(%j) is oldest first', (reach, bits) => {
    expect(reachBits(reach)).toEqual(bits);
  });
});

describe('parseCoordinate', () => {
  it.each<[string | number | null | undefined, 'lat' | 'lon', number | null]>([
    ["22.543'N", 'lat', 22.543],
    ["22.543'S", 'lat', -22.543],
    ['113.95"E', 'lon', 113.95],
    ['113.95"W', 'lon', -113.95],
    ['22.543°S', 'lat', -22.543],
    ['22.543 N', 'lat', 22.543],
    ['N22.543', 'lat', 22.543],
    ['n22.543', 'lat', 22.543],
    [`31°30'15.2"N`, 'lat', 31 + 30 / 60 + 15.2 / 3600],
    [`22°32.58'N`, 'lat', 22 + 32.58 / 60],
    ['-33.9', 'lat', -33.9],
    ['+151.2', 'lon', 151.2],
    [-33.9, 'lat', -33.9],
    [151.2, 'lon', 151.2],
    [0, 'lat', 0],
    ['0.0\'S', 'lat', 0],
    // NMEA ddmm.mmmm / dddmm.mmmm: beyond the axis limit with a hemisphere letter.
    ["2232.58'N", 'lat', 22 + 32.58 / 60],
    ["2232.58'S", 'lat', -(22 + 32.58 / 60)],
    ['11357.0E', 'lon', 113 + 57 / 60],
    ['00530.5W', 'lon', -(5 + 30.5 / 60)],
    ["2275.00'N", 'lat', null], // 75 minutes
    ["9500.00'N", 'lat', null], // 95 degrees
    ['2232.58', 'lat', null], // no hemisphere: not NMEA, just out of range
    [95, 'lat', null],
    [-181, 'lon', null],
    ['90.0001N', 'lat', null],
    ['180W', 'lon', -180],
    ["22.5'E", 'lat', null], // wrong letter for the axis
    ["113.9'N", 'lon', null],
    ["-22.5'S", 'lat', null], // sign and hemisphere together
    [`31°75'N`, 'lat', null],
    [`31.5°30'N`, 'lat', null],
    ['1°2\'3"4N', 'lat', null],
    ['', 'lat', null],
    ["'N", 'lat', null],
    ['NaN', 'lat', null],
    ['Infinity', 'lon', null],
    [Number.NaN, 'lat', null],
    [Number.POSITIVE_INFINITY, 'lon', null],
    ['22.5.3N', 'lat', null],
    // Spaces are not a degree/minute separator; around a mark they are fine.
    ['1   1', 'lat', null],
    ['22 30N', 'lat', null],
    [`31° 30' 15.2" N`, 'lat', 31 + 30 / 60 + 15.2 / 3600],
    ["22.5 ' N", 'lat', 22.5],
    ['abc', 'lat', null],
    [null, 'lat', null],
    [undefined, 'lon', null],
  ])('%j as %s -> %j', (value, axis, expected) => {
    const actual = parseCoordinate(value, axis);
    if (expected === null) expect(actual).toBeNull();
    else expect(actual).toBeCloseTo(expected, 8);
    if (actual !== null) expectSame(actual === 0 ? Object.is(actual, -0) : false, false);
  });
});

describe('parseUtc', () => {
  it.each<[string | null | undefined, string | null | undefined, string | null]>([
    ['2026-11-22', '03:04:05.123', '2026-11-22T03:04:05.123Z'],
    ['2026-11-22', '03:04:05', '2026-11-22T03:04:05.000Z'],
    ['2026-11-22', '03:04:05.1', '2026-11-22T03:04:05.100Z'],
    ['2026-11-22', '03:04:05.123456', '2026-11-22T03:04:05.123Z'],
    ['2026/11/22', '3:04:05', '2026-11-22T03:04:05.000Z'],
    // The sample's irregularity: a combined date-time in both fields.
    ['2026-11-22 03:04:05', '2026-11-22 03:04:05', '2026-11-22T03:04:05.000Z'],
    ['2026-11-22T03:04:05.5', null, '2026-11-22T03:04:05.500Z'],
    [null, '2026-11-22 03:04:05', '2026-11-22T03:04:05.000Z'],
    ['garbage', '2026/11/22 03:04:05Z', '2026-11-22T03:04:05.000Z'],
    ['2026-11-22  03:04:05 UTC', '', '2026-11-22T03:04:05.000Z'],
    ['1980-01-06', '00:00:00', '1980-01-06T00:00:00.000Z'],
    ['2026-02-31', '00:00:00', null],
    ['2026-13-01', '00:00:00', null],
    ['2026-11-22', '24:00:00', null],
    ['2026-11-22', '23:60:00', null],
    ['2026-11-22', null, null],
    [null, '03:04:05', null],
    ['', '', null],
    ['NaN', 'Infinity', null],
    [null, null, null],
    [undefined, undefined, null],
  ])('%j + %j -> %j', (date, time, expected) => {
    expect(parseUtc(date, time)).toBe(expected);
  });
});

describe('formatOffset', () => {
  it.each<[number | null, string, string]>([
    [0, '+0ns', '+0ns'],
    [-0, '+0ns', '+0ns'],
    [-0.3, '+0ns', '+0ns'],
    [-850, '-850ns', '-850ns'],
    [999, '+999ns', '+999ns'],
    [12300, '+12.3µs', '+12.3us'],
    [1000, '+1.00µs', '+1.00us'],
    [999960, '+1.00ms', '+1.00ms'],
    [-1200000, '-1.20ms', '-1.20ms'],
    [123456789, '+123ms', '+123ms'],
    [2.5e9, '+2.50s', '+2.50s'],
    [-12345e9, '-12345s', '-12345s'],
    [null, '-', '-'],
    [Number.NaN, '-', '-'],
    [Number.POSITIVE_INFINITY, '-', '-'],
  ])('%j -> %j (ascii %j)', (ns, text, ascii) => {
    expect(formatOffset(ns)).toBe(text);
    expect(formatOffset(ns, { ascii: true })).toBe(ascii);
  });
});

// A path delay is a magnitude (IEEE 1588-2008 11.3: meanPathDelay = ((t2 - t1) + (t4 - t3)) / 2,
// the mean of the two one-way delays): no "+"; a negative one keeps its "-", itself a finding.
describe('formatMagnitude: unsigned quantities (path delay, error bound, spread)', () => {
  it.each<[number | null, string, string]>([
    [0, '0ns', '0ns'],
    [850, '850ns', '850ns'],
    [1180, '1.18µs', '1.18us'],
    [999960, '1.00ms', '1.00ms'],
    [2.5e9, '2.50s', '2.50s'],
    [-50, '-50ns', '-50ns'],
    [-1180, '-1.18µs', '-1.18us'],
    [-0.2, '0ns', '0ns'],
    [null, '-', '-'],
    [Number.NaN, '-', '-'],
  ])('%j -> %j (ascii %j)', (ns, text, ascii) => {
    expect(formatMagnitude(ns)).toBe(text);
    expect(formatMagnitude(ns, { ascii: true })).toBe(ascii);
  });
});

// chronyc shows Poll as a base-2 logarithm (`sources -v`: "10" is 1024 s); synctop shows the
// seconds it stands for, whole, never rounded into minutes ("17m" is neither form).
describe('formatPollInterval: seconds as chronyc users read them', () => {
  it.each<[number | null, string]>([
    [1, '1s'],
    [16, '16s'],
    [64, '64s'],
    [1024, '1024s'],
    [2 ** 17, '131072s'],
    [0.5, '0.5s'],
    [2 ** -4, '0.0625s'],
    [2 ** -10, '0.000977s'],
    [null, '-'],
    [Number.POSITIVE_INFINITY, '-'],
  ])('%j -> %j', (seconds, text) => {
    expect(formatPollInterval(seconds)).toBe(text);
  });
});

describe('formatDuration and formatAge', () => {
  it.each<[number | null, string]>([
    [0, '0s'],
    [0.25, '0.25s'],
    [5, '5s'],
    [64, '64s'],
    [119, '119s'],
    [1024, '17m'],
    [3600, '1h'],
    [2 * 3600 + 14 * 60 + 59, '2h14m'],
    [3 * 86400 + 4 * 3600, '3d4h'],
    [86400, '1d'],
    [2 * 365 * 86400 + 5, '2y'],
    [-5, '-5s'],
    [null, '-'],
    [Number.NaN, '-'],
    [Number.NEGATIVE_INFINITY, '-'],
  ])('%j -> %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
    expect(formatAge(seconds)).toBe(text);
  });
});

// chrony (`chronyc tracking`: "Frequency ... ppm") and ptp4l ("freq" in ppb) users read a
// frequency offset under 1 ppm in ppb: 0.000123 ppm must not print as +0.000ppm.
describe('formatPpm: ppb under 1 ppm, ppm from 1 ppm on', () => {
  it.each<[number | null, string]>([
    [0, '+0.00ppb'],
    [0.000123, '+0.12ppb'],
    [-0.0123, '-12.3ppb'],
    [0.0132, '+13.2ppb'],
    [0.4567, '+457ppb'],
    [0.9999, '+1.00ppm'],
    [1.5, '+1.50ppm'],
    [-12.34, '-12.3ppm'],
    [150, '+150ppm'],
    [-0.0000001, '+0.00ppb'],
    [null, '-'],
    [Number.NaN, '-'],
  ])('%j -> %j', (ppm, text) => {
    expect(formatPpm(ppm)).toBe(text);
  });
});
