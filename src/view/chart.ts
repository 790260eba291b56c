/**
 * A time-series chart in text: a y-axis labelled in the series' own units at "nice" steps, the
 * samples as braille dots (2 x 4 per character; ASCII: 1 x 2 with ' . :'), reference lines
 * (zero, thresholds) where they fall on the scale, and clock-time ticks under the plot. Pure:
 * samples and a box in, exactly `height` lines of at most `width` columns out, whatever the
 * series holds (one point, a constant, spikes, gaps).
 *
 * The live monitor draws it only in a zoomed pane, over the whole kept history (an hour at the
 * poll rate): O(samples) per drawing, and the pane caches the drawing until a sample arrives.
 */
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { fitLine } from './fit.js';
import type { Token } from './theme.js';
import { formatDuration, formatOffset } from '../model/units.js';
import { clockTime } from './time.js';

export interface ChartSamples {
  /** Epoch ms, oldest first (NaN: unknown; the samples are then spread evenly). */
  times: ArrayLike<number>;
  /** NaN: missing (a gap in the line). */
  values: ArrayLike<number>;
}

export interface ReferenceLine {
  value: number;
  token: Token;
}

export interface ChartOptions {
  width: number;
  height: number;
  ascii: boolean;
  /** A y-axis label for a value, in the series' units ("+1.00µs", "12"). */
  format: (value: number) => string;
  /** Lines drawn across the plot where they fall within the scale (zero, thresholds). */
  references?: readonly ReferenceLine[];
  /** Values the scale must include (0 for offsets and counts). */
  include?: readonly number[];
  /** Ticks on whole numbers only (counts). */
  integer?: boolean;
  /** The color of the dots in a character, from the most extreme value drawn there. */
  tokenOf?: (value: number) => Token | undefined;
  /** The row of clock times under the plot (default true). */
  timeAxis?: boolean;
}

/** The smallest box that is drawn as a chart; below it one line says the range. */
export const CHART_MIN = { width: 12, height: 2 };

/** Braille dot bits of a 2 x 4 cell, by [row][column]. */
const BRAILLE: readonly (readonly [number, number])[] = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];
const ASCII_DOTS = [' ', "'", '.', ':'];

interface Scale {
  lo: number;
  hi: number;
  step: number;
}

/** 1, 2, 5 times a power of ten: the step of at most `intervals` intervals covering lo..hi. */
export function niceScale(lo: number, hi: number, intervals: number, integer = false): Scale {
  if (!(hi > lo)) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, intervals);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  if (integer) step = Math.max(1, Math.ceil(step));
  // Snap outward to whole steps; the next 1-2-5 step while snapping made too many intervals.
  let a = Math.floor(lo / step) * step;
  let b = Math.ceil(hi / step) * step;
  // (A range across zero snaps to at least two intervals, however large the step.)
  for (let guard = 0; (b - a) / step > Math.max(2, intervals) + 1e-9 && guard < 20; guard++) {
    const m = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
    step *= m < 1.5 ? 2 : m < 3 ? 2.5 : 2;
    a = Math.floor(lo / step) * step;
    b = Math.ceil(hi / step) * step;
  }
  return { lo: a, hi: b === a ? a + step : b, step };
}

/** Clock-time tick steps, seconds. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

export function chart(samples: ChartSamples, opts: ChartOptions): Line[] {
  const width = Math.max(0, Math.floor(opts.width));
  const height = Math.max(0, Math.floor(opts.height));
  if (height === 0) return [];
  const withAxis = (opts.timeAxis ?? true) && height >= CHART_MIN.height + 1;
  const plotRows = height - (withAxis ? 1 : 0);
  const n = Math.min(samples.times.length, samples.values.length);

  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = samples.values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  // Exactly `height` lines, none wider than the box.
  const pad = (lines: Line[]) => [...lines, ...Array.from({ length: height - lines.length }, (): Line => [])].slice(0, height).map((l) => fitLine(l, width, '~'));
  if (lo > hi) return pad([[cell('no samples yet: the chart fills as polls arrive', 'muted')]]);
  for (const v of opts.include ?? []) {
    if (!Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const scale = niceScale(lo, hi, Math.max(1, Math.floor(plotRows / 2)), opts.integer);
  if (width < CHART_MIN.width || plotRows < CHART_MIN.height) {
    return pad([fitLine([cell(`${opts.format(scale.lo)} .. ${opts.format(scale.hi)}`, 'muted')], width, '~')]);
  }

  // The y labels: every step that lands on its own row, the top and bottom always.
  const sub = opts.ascii ? 2 : 4;
  const dotRows = plotRows * sub;
  const yDot = (v: number) => Math.round(((scale.hi - v) / (scale.hi - scale.lo)) * (dotRows - 1));
  const labels = new Map<number, string>();
  const steps = Math.round((scale.hi - scale.lo) / scale.step);
  for (let k = steps; k >= 0; k--) {
    const v = scale.lo + k * scale.step;
    const row = Math.floor(yDot(v) / sub);
    if (!labels.has(row)) labels.set(row, opts.format(Math.abs(v) < scale.step * 1e-9 ? 0 : v));
  }
  labels.set(plotRows - 1, opts.format(scale.lo));
  labels.set(0, opts.format(scale.hi));
  const labelWidth = Math.max(...[...labels.values()].map((l) => l.length));
  const plotCols = width - labelWidth - 1;
  if (plotCols < 4) return pad([fitLine([cell(`${opts.format(scale.lo)} .. ${opts.format(scale.hi)}`, 'muted')], width, '~')]);
  const subX = opts.ascii ? 1 : 2;
  const dotCols = plotCols * subX;

  // Where each sample goes across: by time, or evenly when times are unknown.
  const t0 = firstFinite(samples.times, n, 1);
  const t1 = firstFinite(samples.times, n, -1);
  const timed = t0 !== null && t1 !== null && t1 > t0;
  const xDot = (i: number) => {
    if (n <= 1) return dotCols - 1;
    const t = samples.times[i]!;
    const f = timed && Number.isFinite(t) ? (t - t0!) / (t1! - t0!) : i / (n - 1);
    return Math.max(0, Math.min(dotCols - 1, Math.round(f * (dotCols - 1))));
  };
  // Two samples further apart than this are not joined: the device was not answering.
  const joinGap = timed && n > 1 ? (3 * (t1! - t0!)) / (n - 1) : Infinity;

  const bits = new Uint8Array(plotRows * plotCols);
  const extreme = new Float64Array(plotRows * plotCols).fill(Number.NaN);
  const dot = (x: number, y: number, v: number) => {
    const col = Math.floor(x / subX);
    const row = Math.floor(y / sub);
    if (col < 0 || col >= plotCols || row < 0 || row >= plotRows) return;
    const at = row * plotCols + col;
    bits[at]! |= opts.ascii ? (y % sub === 0 ? 1 : 2) : BRAILLE[y % sub]![x % subX]!;
    const was = extreme[at]!;
    if (Number.isNaN(was) || Math.abs(v) > Math.abs(was)) extreme[at] = v;
  };
  let prev: { x: number; y: number; v: number; t: number } | null = null;
  for (let i = 0; i < n; i++) {
    const v = samples.values[i]!;
    if (!Number.isFinite(v)) {
      prev = null;
      continue;
    }
    const x = xDot(i);
    const y = yDot(v);
    const t = samples.times[i]!;
    if (prev && !(t - prev.t > joinGap)) {
      // A straight segment from the previous sample: spikes stay visible, slopes stay joined.
      const steps = Math.max(Math.abs(x - prev.x), Math.abs(y - prev.y));
      for (let s = 1; s < steps; s++) dot(Math.round(prev.x + ((x - prev.x) * s) / steps), Math.round(prev.y + ((y - prev.y) * s) / steps), s * 2 < steps ? prev.v : v);
    }
    dot(x, y, v);
    prev = { x, y, v, t };
  }

  // Reference lines on their rows, behind the samples.
  const refRows = new Map<number, { token: Token; bits: number }>();
  for (const ref of opts.references ?? []) {
    if (!(ref.value >= scale.lo && ref.value <= scale.hi)) continue;
    const y = yDot(ref.value);
    const row = Math.floor(y / sub);
    if (!refRows.has(row) || ref.token !== 'muted') refRows.set(row, { token: ref.token, bits: opts.ascii ? 0 : BRAILLE[y % sub]![0]! | BRAILLE[y % sub]![1]! });
  }

  const lines: Line[] = [];
  const axis = opts.ascii ? { tick: '+', line: '|' } : { tick: '┤', line: '│' };
  for (let row = 0; row < plotRows; row++) {
    const label = labels.get(row);
    const out: Line = [cell((label ?? '').padStart(labelWidth), 'muted'), cell(label === undefined ? axis.line : axis.tick, 'muted')];
    const ref = refRows.get(row);
    let run = '';
    let runToken: Token | undefined;
    const flush = () => {
      if (run) out.push(cell(run, runToken));
      run = '';
    };
    for (let col = 0; col < plotCols; col++) {
      const b = bits[row * plotCols + col]!;
      let ch: string;
      let token: Token | undefined;
      if (b) {
        ch = opts.ascii ? ASCII_DOTS[b]! : String.fromCodePoint(0x2800 + b);
        token = opts.tokenOf?.(extreme[row * plotCols + col]!) ?? 'accent';
      } else if (ref) {
        ch = opts.ascii ? '-' : String.fromCodePoint(0x2800 + ref.bits);
        token = ref.token;
      } else {
        ch = ' ';
        token = undefined;
      }
      if (token !== runToken) flush();
      runToken = token;
      run += ch;
    }
    flush();
    lines.push(out);
  }
  if (withAxis) lines.push(timeAxisLine(t0, t1, labelWidth + 1, plotCols));
  return pad(lines);
}

function firstFinite(values: ArrayLike<number>, n: number, direction: 1 | -1): number | null {
  for (let k = 0; k < n; k++) {
    const v = values[direction === 1 ? k : n - 1 - k]!;
    if (Number.isFinite(v)) return v;
  }
  return null;
}

/** "14:00      14:15      14:30": clock times at a round step under the plot. */
export function timeAxisLine(from: number | null, to: number | null, indent: number, plotCols: number): Line {
  if (from === null || to === null || !(to > from)) return [cell(' '.repeat(indent)), cell(from === null ? 'times unknown' : clockTime(from), 'muted')];
  const spanS = (to - from) / 1000;
  const fine = (s: number) => s < 60;
  const labelWidth = (s: number) => (fine(s) ? 8 : 5);
  const step = TIME_STEPS.find((s) => (spanS / s) * (labelWidth(s) + 2) <= plotCols) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const text = ' '.repeat(plotCols).split('');
  const firstTick = Math.ceil(from / (step * 1000)) * step * 1000;
  let placed = 0;
  for (let t = firstTick; t <= to; t += step * 1000) {
    const label = fine(step) ? clockTime(t) : clockTime(t).slice(0, 5);
    const x = Math.round(((t - from) / (to - from)) * (plotCols - 1));
    const start = Math.min(plotCols - label.length, x);
    if (start < 0 || text.slice(Math.max(0, start - 1), start + label.length + 1).some((c) => c !== ' ')) continue;
    for (let k = 0; k < label.length; k++) text[start + k] = label[k]!;
    placed++;
  }
  // A span shorter than its step (under a second of samples) holds no tick: the axis still says
  // when it starts.
  if (placed === 0) return [cell(' '.repeat(indent)), cell(clockTime(from), 'muted')];
  return [cell(' '.repeat(indent)), cell(text.join('').trimEnd(), 'muted')];
}

/** Where the warning and critical thresholds are drawn, and the colour of an offset. */
export interface ChartLimits {
  warnNs: number;
  critNs: number;
}

/**
 * An offset over time: auto-scaled units on the y-axis, the zero line, the warning and
 * critical thresholds on both sides (where the scale reaches them), dots coloured by threshold.
 */
export function offsetChart(samples: ChartSamples, limits: ChartLimits, box: { width: number; height: number; ascii: boolean }): Line[] {
  const level = (v: number): Token | undefined => (Math.abs(v) > limits.critNs ? 'bad' : Math.abs(v) > limits.warnNs ? 'warn' : undefined);
  return chart(samples, {
    ...box,
    format: (v) => formatOffset(v, { ascii: box.ascii }),
    include: [0],
    // Offsets come in whole nanoseconds: a finer step would print the same label twice.
    integer: true,
    references: [
      { value: 0, token: 'muted' },
      { value: limits.warnNs, token: 'warn' },
      { value: -limits.warnNs, token: 'warn' },
      { value: limits.critNs, token: 'bad' },
      { value: -limits.critNs, token: 'bad' },
    ],
    tokenOf: level,
  });
}

/** A count over time (satellites): whole-number ticks from zero. */
export function countChart(samples: ChartSamples, box: { width: number; height: number; ascii: boolean; timeAxis?: boolean }): Line[] {
  return chart(samples, { ...box, format: (v) => String(Math.round(v)), include: [0], integer: true, references: [{ value: 0, token: 'muted' }] });
}

/** The title line over a chart: what is drawn, and over how long. */
export function chartTitle(what: string, samples: ChartSamples): Line {
  const n = Math.min(samples.times.length, samples.values.length);
  const from = firstFinite(samples.times, n, 1);
  const to = firstFinite(samples.times, n, -1);
  const span = from !== null && to !== null && to > from ? `, last ${formatDuration((to - from) / 1000)}` : '';
  return [cell(what, 'title', true), cell(` (${n} sample${n === 1 ? '' : 's'}${span})`, 'muted')];
}
