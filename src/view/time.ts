/** Wall-clock and age texts shared by the header and the panes. */
import { formatAge } from '../model/units.js';
import type { StateClock } from '../monitor/events.js';

/** HH:MM:SS in the technician's local time. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/**
 * Age in whole seconds, so the once-per-second tick changes the frame at most once a second
 * and an unchanged second renders the identical frame (Ink then writes nothing).
 */
export function ageText(fromMs: number, nowMs: number): string {
  return formatAge(Math.max(0, Math.floor((nowMs - fromMs) / 1000)));
}

/** "2026-11-22 14:02:11" in local time: a recorded moment, which may be another day. */
export function dateTime(epochMs: number): string {
  const d = new Date(epochMs);
  const date = [d.getFullYear(), d.getMonth() + 1, d.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
  return `${date} ${clockTime(epochMs)}`;
}

/**
 * "2h14m": how long a source, receiver or port has been in its current state, or null. "≥ 2s"
 * while no change has been seen: it was so before synctop started (or before a gap in which the
 * device could not be read), so the time is a lower bound.
 */
export function timeInState(clock: StateClock, key: string, nowMs: number, ascii = false): string | null {
  const since = clock.get(key);
  if (!since) return null;
  return since.atLeast ? atLeast(ageText(since.since, nowMs), ascii) : ageText(since.since, nowMs);
}

/** "≥ 2s" (">= 2s" in ASCII): a duration known only from below. */
export function atLeast(age: string, ascii: boolean): string {
  return `${ascii ? '>=' : '≥'} ${age}`;
}
