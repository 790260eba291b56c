/** The chart of any series stays inside its box and labels its scale. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { chart, countChart, niceScale, offsetChart } from '../../src/view/chart.js';
import { lineText } from '../../src/view/cell.js';

const T0 = Date.UTC(2026, 10, 22, 13, 0, 0);
const limits = { warnNs: 1_000, critNs: 10_000 };

function series(values: number[], stepMs = 2000) {
  return { times: Float64Array.from(values, (_, i) => T0 + i * stepMs), values: Float64Array.from(values) };
}

function inBox(lines: string[], width: number, height: number) {
  expect(lines).toHaveLength(height);
  for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(width);
}

describe('chart', () => {
  it.each<[string, number[]]>([
    ['constant', Array(50).fill(12)],
    ['one point', [-850]],
    ['spikes', [0, 0, 0, 250_000, 0, 0, -90_000, 0, 0]],
    ['NaN gaps', [5, Number.NaN, Number.NaN, 40, 60, Number.NaN, -20]],
    ['all zero', [0, 0, 0]],
  ])('%s: inside its box, scale labelled at top and bottom, times under it', (_, values) => {
    for (const ascii of [false, true]) {
      const lines = offsetChart(series(values), limits, { width: 60, height: 10, ascii }).map(lineText);
      inBox(lines, 60, 10);
      expect(lines[0]).toMatch(/^\s*[+-][\d.]+(ns|µs|us|ms|s)[┤+]/);
      expect(lines[8]).toMatch(/^\s*[+-][\d.]+(ns|µs|us|ms|s)[┤+]/);
      expect(lines[9]).toMatch(/13:00/);
      if (ascii) for (const l of lines) expect(l).toMatch(/^[\x20-\x7e]*$/);
    }
  });

  it('a span under one tick step (samples within a second) still says when it starts', () => {
    // 13:00:00.100 to 13:00:00.900: no whole second falls inside.
    const samples = { times: Float64Array.from([100, 300, 500, 700, 900], (ms) => T0 + ms), values: Float64Array.from([5, 8, 3, 9, 4]) };
    const lines = offsetChart(samples, limits, { width: 60, height: 10, ascii: false }).map(lineText);
    inBox(lines, 60, 10);
    expect(lines[9]).toMatch(/13:00:00/);
  });

  it('draws the zero line and the thresholds the scale reaches', () => {
    const lines = offsetChart(series([0, 500, 1500, 800, -200]), limits, { width: 40, height: 12, ascii: true });
    const warnRow = lines.find((l) => l.some((c) => c.token === 'warn' && c.text.includes('-')));
    expect(warnRow).toBeDefined();
    expect(lines.some((l) => l.some((c) => c.token === 'muted' && /-{5}/.test(c.text)))).toBe(true);
  });

  it('says so when there is nothing to draw yet', () => {
    const lines = chart({ times: [], values: [] }, { width: 40, height: 5, ascii: false, format: String }).map(lineText);
    inBox(lines, 40, 5);
    expect(lines[0]).toContain('no samples yet');
  });

  it('property: any series in any box stays inside and labels its scale', () => {
    const value = fc.oneof(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.constant(Number.NaN), fc.integer({ min: -5, max: 5 }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (values, width, height, ascii) => {
        const lines = offsetChart(series(values), limits, { width, height, ascii }).map(lineText);
        inBox(lines, width, height);
        if (values.some(Number.isFinite) && width >= 12 && height >= 3) expect(lines.join('\n')).toMatch(/[+-][\d.]+(ns|µs|us|ms|s)/);
      }),
      { numRuns: 200 },
    );
  });

  it('counts: whole-number ticks from zero', () => {
    const lines = countChart(series([9, 10, 12, 11]), { width: 30, height: 6, ascii: false }).map(lineText);
    inBox(lines, 30, 6);
    expect(lines.slice(0, 5).join('\n')).not.toMatch(/\d\.\d/);
    expect(lines[4]).toMatch(/^\s*0┤/);
  });

  it.each([
    [0, 13, 4, 0, 15, 5],
    [-3, 7, 5, -5, 10, 5],
    [-3, 7, 6, -4, 8, 2],
    [12, 12, 2, 10, 14, 2],
  ])('niceScale(%d, %d, %d) -> %d..%d step %d', (lo, hi, n, a, b, step) => {
    expect(niceScale(lo, hi, n)).toEqual({ lo: a, hi: b, step });
  });
});

describe('offset chart labels', () => {
  it('never prints the same label twice (steps of whole nanoseconds)', () => {
    for (const values of [[2], [0, 1, 2], [15, 12, 21]]) {
      const labels = offsetChart(series(values), limits, { width: 60, height: 16, ascii: true })
        .map(lineText)
        .map((l) => /^\s*([+-][\d.]+\w+)\+/.exec(l)?.[1])
        .filter((l): l is string => l !== undefined);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });
});
