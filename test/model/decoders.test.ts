import { describe, expect, it } from 'vitest';
import {
  decodeClockClass,
  decodeLastUpdate,
  describeClockAccuracy,
  describeClockClass,
  describeReach,
  describeStepsRemoved,
  describeVariance,
  hex2,
  leapSecondProblem,
  rateOffsetImplausible,
} from '../../src/model/decoders.js';

describe('decoders', () => {
  // IEEE 1588-2008 7.6.2.4 Table 5 (1588-2019 Table 4) and ITU-T G.8275.1 6.4 Table 2/3 (G.8275.2 alike).
  it.each([
    [6, 'locked to a primary reference (e.g. GNSS)', 'locked'],
    [7, 'holdover, within specification', 'holdover'],
    [13, 'locked to an application-specific source', 'locked'],
    [14, 'holdover from an application-specific source, within specification', 'holdover'],
    [52, 'holdover out of specification, will not follow another clock (1588 alternative A of 7)', 'holdover-out-of-spec'],
    [58, 'holdover out of specification, will not follow another clock (1588 alternative A of 14)', 'holdover-out-of-spec'],
    [135, 'T-BC in holdover, within specification (G.8275)', 'holdover'],
    [140, 'holdover out of specification, frequency traceable to category 1 (G.8275)', 'holdover-out-of-spec'],
    [150, 'holdover out of specification, frequency traceable to category 2 (G.8275)', 'holdover-out-of-spec'],
    [160, 'holdover out of specification, frequency traceable to category 3 (G.8275)', 'holdover-out-of-spec'],
    [165, 'T-GM or T-BC in holdover, out of specification (G.8275)', 'holdover-out-of-spec'],
    [187, 'holdover out of specification, may follow another clock (1588 alternative B of 7)', 'holdover-out-of-spec'],
    [193, 'holdover out of specification, may follow another clock (1588 alternative B of 14)', 'holdover-out-of-spec'],
    [248, 'free-running: default, not synchronized to any reference', 'free-running'],
    [255, 'slave-only clock', 'slave-only'],
    [100, 'alternate PTP profile', 'other-profile'],
    [3, 'reserved', 'reserved'],
    [200, 'reserved', 'reserved'],
  ] as const)('clockClass %s (IEEE 1588 Table 5, G.8275.1 Table 2)', (c, text, condition) => {
    expect(describeClockClass(c)).toBe(text);
    expect(decodeClockClass(c)?.condition).toBe(condition);
  });

  it.each([256, -1, 6.5, null])('clockClass %s is no class at all', (c) => expect(describeClockClass(c)).toBeNull());

  it.each([
    [0x20, 'within 25 ns'],
    [0x21, 'within 100 ns'],
    [0x23, 'within 1 µs'],
    [0x31, 'more than 10 s'],
    [0xfe, 'unknown'],
    [0x10, 'reserved'],
    [-1, null],
  ])('clockAccuracy %s', (c, text) => expect(describeClockAccuracy(c)).toBe(text));

  // IEEE 1588-2008 7.6.3.3: a UInteger16, log2 of the variance scaled by 2^8, offset 0x8000.
  it.each([
    [0xffff, 'not computed'],
    [0x4e5d, 'deviation about 34 ns'],
    [0x8000, 'deviation about 1000 ms'],
    [0.5, 'not a 1588 value'],
    [-5, 'not a 1588 value'],
    [0x10000, 'not a 1588 value'],
    [null, null],
  ])('offsetScaledLogVariance %s (IEEE 1588 7.6.3.3)', (v, text) => expect(describeVariance(v)).toBe(text));

  // The API documents lastUpdate as seconds; milliseconds and counts since boot occur in firmwares.
  const at = Date.UTC(2026, 10, 22, 3, 4, 5);
  it.each([
    ['seconds', at / 1000, at, null, null],
    ['milliseconds', at, at, 'milliseconds', null],
    ['microseconds', at * 1000, at, 'microseconds', null],
    ['nanoseconds', at * 1e6, at, 'nanoseconds', null],
    ['zero', 0, null, null, '0: never set'],
    ['a count since boot', 3600, null, null, '3600 is no date (a time since boot?)'],
    ['negative', -1, null, null, '-1 is no date'],
    ['missing', null, null, null, null],
  ])('lastUpdate in %s', (_name, value, atMs, unit, problem) => {
    expect(decodeLastUpdate(value)).toEqual({ atMs, unit, problem });
  });

  // IEEE 802.1AS B.1.1: a local clock within +-100 ppm, so two clocks differ by 200 ppm at most.
  it.each([
    [0.0132, false],
    [-150, false],
    [201, true],
    [-29_000, true],
    [null, false],
  ])('rate offset %s ppm implausible: %s (802.1AS B.1.1)', (ppm, implausible) => expect(rateOffsetImplausible(ppm)).toBe(implausible));

  it.each([
    [0, 'this clock is the grandmaster'],
    [1, 'directly attached to the grandmaster'],
    [3, '3 hops from the grandmaster'],
    [null, null],
  ])('stepsRemoved %s', (n, text) => expect(describeStepsRemoved(n)).toBe(text));

  it('reach and hex', () => {
    expect(describeReach(6)).toBe('last 8 polls: 6 ok, 2 lost');
    expect(describeReach(null)).toBeNull();
    expect(hex2(0x21)).toBe('0x21');
    expect(hex2(null)).toBe('-');
  });

  // GPS - UTC 18 s since 2017-01-01 (IS-GPS-200 delta t_LS), BDT - UTC 4 s (BDS-SIS-ICD).
  it.each([
    [18, 4, null],
    [18, 5, 'BDS leap seconds 5 (BDS - UTC is 4 s)'],
    [17, 3, 'GPS leap seconds 17 (GPS - UTC is 18 s since 2017-01-01), BDS leap seconds 3 (BDS - UTC is 4 s)'],
    [null, 4, null],
  ])('leap seconds %s/%s against the current values', (g, b, text) => expect(leapSecondProblem(g, b)).toBe(text));
});
