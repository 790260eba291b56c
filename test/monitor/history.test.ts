import { describe, expect, it } from 'vitest';
import { HISTORY_LENGTH, HISTORY_MAX_LENGTH, HistoryStore, MAX_SERIES, Ring, historyCapacity } from '../../src/monitor/history.js';

describe('Ring', () => {
  it('keeps the newest `capacity` samples with their times, oldest first', () => {
    const r = new Ring(3);
    for (let i = 1; i <= 5; i++) r.push(i === 4 ? null : i * 10, 1000 * i);
    expect(r.length).toBe(3);
    expect(r.pushes).toBe(5);
    expect(r.values()).toEqual([30, null, 50]);
    const { times, values } = r.samples();
    expect([...times]).toEqual([3000, 4000, 5000]);
    expect([...values].map((v) => (Number.isNaN(v) ? null : v))).toEqual([30, null, 50]);
  });

  it.each([
    { n: 2, want: [null, 50] },
    { n: 0, want: [] },
    { n: 9, want: [30, null, 50] },
  ])('values($n) is the newest window only', ({ n, want }) => {
    const r = new Ring(3);
    for (const v of [10, 20, 30, null, 50]) r.push(v);
    expect(r.values(n)).toEqual(want);
  });

  it('recent(n) skips missing values; NaN and Infinity are missing', () => {
    const r = new Ring(5);
    for (const v of [1, Number.NaN, Number.POSITIVE_INFINITY, 4]) r.push(v);
    expect(r.recent(3)).toEqual([4]);
    expect(r.recent(5)).toEqual([1, 4]);
  });
});

describe('history capacity', () => {
  it.each([
    [2000, 1800],
    [1000, 3600],
    [500, HISTORY_MAX_LENGTH],
    [60_000, HISTORY_LENGTH],
    [0, HISTORY_LENGTH],
    [Number.NaN, HISTORY_LENGTH],
  ])('an interval of %i ms keeps %i samples (an hour, bounded)', (intervalMs, want) => {
    expect(historyCapacity(intervalMs)).toBe(want);
  });

  it('caps the number of series a device can create', () => {
    const h = new HistoryStore(2);
    for (let i = 0; i < MAX_SERIES + 10; i++) h.push(`ntp:${i}`, i);
    expect(h.seriesCount).toBe(MAX_SERIES);
    expect(h.get('ntp:0')).toBeUndefined();
    expect(h.values(`ntp:${MAX_SERIES + 9}`)).toEqual([MAX_SERIES + 9]);
  });
});
