/**
 * Summary statistics of a history window, like ptp4l's summary line: min, max, mean, standard
 * deviation (population: the window is all we describe) and rms.
 */
export interface Stats {
  count: number;
  min: number;
  max: number;
  mean: number;
  stddev: number;
  rms: number;
}

export const STATS_WINDOW = 60;

export function summarize(values: readonly number[]): Stats | null {
  const n = values.length;
  if (n === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let sumSq = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    sumSq += v * v;
  }
  const mean = sum / n;
  // Two-pass variance: the one-pass form loses precision when the mean is large.
  let dev = 0;
  for (const v of values) dev += (v - mean) ** 2;
  return { count: n, min, max, mean, stddev: Math.sqrt(dev / n), rms: Math.sqrt(sumSq / n) };
}

/** max - min: how far a source's offset moved over the window. */
export function spread(values: readonly number[]): number | null {
  const s = summarize(values);
  return s ? s.max - s.min : null;
}
