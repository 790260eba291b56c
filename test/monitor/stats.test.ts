import { describe, expect, it } from 'vitest';
import { spread, summarize } from '../../src/monitor/stats.js';

describe('summarize', () => {
  it('matches hand-computed values', () => {
    // values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population sd 2, rms sqrt(232/8)
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9])!;
    expect(s).toMatchObject({ count: 8, min: 2, max: 9, mean: 5, stddev: 2 });
    expect(s.rms).toBeCloseTo(Math.sqrt(29), 12);
  });

  it('handles negatives: rms is not the mean', () => {
    const s = summarize([-10, 10])!;
    expect(s.mean).toBe(0);
    expect(s.stddev).toBe(10);
    expect(s.rms).toBe(10);
  });

  it('stays precise with a large mean', () => {
    const s = summarize([1e9 + 1, 1e9 + 2, 1e9 + 3])!;
    expect(s.stddev).toBeCloseTo(Math.sqrt(2 / 3), 6);
  });

  it('empty -> null', () => {
    expect(summarize([])).toBeNull();
    expect(spread([])).toBeNull();
    expect(spread([3, -1, 2])).toBe(4);
  });
});
