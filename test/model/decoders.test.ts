import { describe, expect, it } from 'vitest';
import { describeClockAccuracy, describeClockClass, describeReach, describeStepsRemoved, describeVariance, hex2, leapSecondMismatch } from '../../src/model/decoders.js';

describe('decoders', () => {
  it.each([
    [6, 'locked to a primary reference (e.g. GNSS)'],
    [7, 'holdover, within specification'],
    [13, 'locked to an application-specific time source'],
    [52, 'degraded: primary reference lost, out of holdover specification (alternative A)'],
    [187, 'degraded: primary reference lost, may be stepped (alternative B)'],
    [248, 'default: not synchronized to any reference'],
    [255, 'slave-only clock'],
    [100, 'alternate PTP profile'],
    [3, 'reserved'],
    [200, 'reserved'],
    [256, null],
    [null, null],
  ])('clockClass %s', (c, text) => expect(describeClockClass(c)).toBe(text));

  it.each([
    [0x20, 'within 25 ns'],
    [0x21, 'within 100 ns'],
    [0x23, 'within 1 µs'],
    [0x31, 'more than 10 s'],
    [0xfe, 'unknown'],
    [0x10, 'reserved'],
    [-1, null],
  ])('clockAccuracy %s', (c, text) => expect(describeClockAccuracy(c)).toBe(text));

  it.each([
    [0xffff, 'not computed'],
    [0x4e5d, 'deviation about 34 ns'],
    [0x8000, 'deviation about 1 s'.replace('1 s', '1000 ms')],
    [-5, null],
  ])('offsetScaledLogVariance %s', (v, text) => expect(describeVariance(v)).toBe(text));

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

  it.each([
    [18, 4, null],
    [18, 5, 'GPS leap seconds 18 and BDS 5 should differ by 14 (BDS = GPS - 14 s)'],
    [null, 4, null],
  ])('leap seconds %s/%s', (g, b, text) => expect(leapSecondMismatch(g, b)).toBe(text));
});
