/**
 * A sparkline of the newest `width` values, scaled between the window's min and max (or from
 * `floor` when given, e.g. 0 for satellite counts). A missing value is a blank, so a gap in
 * the data shows as a gap rather than a made-up level.
 */
export function sparkline(values: readonly (number | null)[], width: number, ramp: string, opts: { floor?: number } = {}): string {
  if (width <= 0) return '';
  const marks = [...ramp];
  const window = values.slice(-width);
  const present = window.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length === 0) return '';
  const lo = opts.floor !== undefined ? Math.min(opts.floor, ...present) : Math.min(...present);
  const hi = Math.max(...present);
  const top = marks.length - 1;
  return window
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' ';
      // A flat series sits in the middle, or at the bottom when it is flat at the floor (no
      // satellites is nothing, not "half"); otherwise scale into the ramp.
      const flat = opts.floor !== undefined ? 0 : Math.floor(top / 2);
      const level = hi === lo ? flat : Math.round(((v - lo) / (hi - lo)) * top);
      return marks[Math.max(0, Math.min(top, level))] ?? ' ';
    })
    .join('');
}
