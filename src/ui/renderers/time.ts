/** Wall-clock and age texts shared by the header and the panes. */
import { formatAge } from '../../model/units.js';

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
