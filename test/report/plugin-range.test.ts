/** The plugin range syntax `[@][start:][end]`, as a table: text -> range -> which values alert. */
import { describe, expect, it } from 'vitest';
import { formatRange, parsePluginRange, perfNumber, rangeAlerts, upperLimit } from '../../src/report/plugin-range.js';

const inf = Number.POSITIVE_INFINITY;

describe('parsePluginRange', () => {
  const cases: [text: string, start: number, end: number, inside: boolean, alerts: number[], quiet: number[]][] = [
    ['10', 0, 10, false, [-1, 10.5, 11], [0, 5, 10]],
    ['10:', 10, inf, false, [-1, 9.99], [10, 11, 1e9]],
    ['~:10', -inf, 10, false, [10.01, 11], [-1e9, 0, 10]],
    ['10:20', 10, 20, false, [9, 21], [10, 15, 20]],
    ['@10:20', 10, 20, true, [10, 15, 20], [9, 21]],
    ['@10', 0, 10, true, [0, 10], [-1, 11]],
    [':10', 0, 10, false, [-0.5, 11], [0, 10]],
    ['-5:5', -5, 5, false, [-6, 6], [-5, 0, 5]],
    ['0.000001', 0, 1e-6, false, [2e-6], [0, 1e-6, 5e-7]],
    ['1e-6', 0, 1e-6, false, [2e-6], [1e-6]],
    [' 7 ', 0, 7, false, [8], [7]],
    ['~:', -inf, inf, false, [], [-1e9, 0, 1e9]],
  ];
  it.each(cases)('"%s" -> %d..%d inside=%s', (text, start, end, inside, alerts, quiet) => {
    const parsed = parsePluginRange(text);
    expect(parsed).toEqual({ ok: true, range: { start, end, inside } });
    if (!parsed.ok) return;
    for (const v of alerts) expect(rangeAlerts(parsed.range, v), `${v} alerts`).toBe(true);
    for (const v of quiet) expect(rangeAlerts(parsed.range, v), `${v} is quiet`).toBe(false);
  });

  const bad: [text: string, why: string][] = [
    ['', 'empty'],
    ['@', 'nothing follows @'],
    ['abc', 'not a number'],
    ['20:10', 'start is above end'],
    ['1:2:3', 'more than one colon'],
    ['10:x', 'not a number'],
    ['~10', 'not a number'],
    ['1,5', 'not a number'],
  ];
  it.each(bad)('rejects "%s" (%s)', (text, why) => {
    const parsed = parsePluginRange(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain(why);
      expect(parsed.message).toContain('[@][start:][end]');
    }
  });
});

describe('formatRange and perfNumber', () => {
  it.each([
    ['10', '10'],
    ['10:', '10:'],
    ['~:10', '~:10'],
    ['10:20', '10:20'],
    ['@10:20', '@10:20'],
    ['0:10', '10'],
    ['1e-6', '0.000001'],
    ['-0.5:0.5', '-0.5:0.5'],
  ])('"%s" is written back as "%s"', (text, written) => {
    const parsed = parsePluginRange(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(formatRange(parsed.range)).toBe(written);
  });

  it('writes an upper limit as the bare end', () => {
    expect(formatRange(upperLimit(0.01))).toBe('0.01');
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [42, '42'],
    [1.5e-8, '0.000000015'],
    [-1.34e-7, '-0.000000134'],
    [0.1, '0.1'],
    [1e-13, '0'],
    [123456.789, '123456.789'],
    [Number.NaN, 'U'],
  ])('perfNumber(%d) = %s (never an exponent)', (n, text) => {
    expect(perfNumber(n)).toBe(text);
    expect(perfNumber(n)).toMatch(/^(U|-?[0-9.]+)$/);
  });
});
