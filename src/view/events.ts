/**
 * Derived events -> one line each: local time, severity symbol (and color), the message; and
 * the one-line summary of the collapsed events pane. Pure.
 */
import type { MonitorEvent } from '../monitor/events.js';
import type { Glyphs } from './theme.js';
import { eventSeverities } from './theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { clockTime } from './time.js';
import { firstWrappedLines, lineWidth, wrapLine } from './fit.js';

/** "• 14:02:11 ! PTP port 0 LOST -> ACQUIRING": the mark only on events not yet seen. */
export function eventLine(event: MonitorEvent, fresh: boolean, glyphs: Glyphs): Line {
  const style = eventSeverities[event.severity];
  return [
    cell(fresh ? `${glyphs.fresh} ` : '  ', 'accent', true),
    cell(`${clockTime(event.at)} `, fresh ? 'text' : 'muted', fresh),
    cell(`${style.symbol} `, style.token, true),
    cell(event.message, event.severity === 'info' ? undefined : style.token, fresh),
  ];
}

/**
 * Event lines for a pane that shows them all and has `spare` lines besides: the newest events
 * that would be cut wrap under their message while lines are left (the last of them holding the
 * rest, cut where it ends, when the lines run out).
 */
export function wrapEventLines(lines: readonly Line[], width: number, spare: number): Line[][] {
  let left = spare;
  return lines.map((line) => {
    if (left <= 0 || lineWidth(line) <= width) return [line];
    const wrapped = wrapLine(line, width, lineWidth(line.slice(0, 3)));
    const shown = firstWrappedLines(wrapped, left + 1);
    left -= shown.length - 1;
    return shown;
  });
}

/** How many of the newest events (newest first) came after `seenAt`. */
export function freshCount(newestFirst: readonly MonitorEvent[], seenAt: number): number {
  let n = 0;
  for (const e of newestFirst) {
    if (e.at <= seenAt) break;
    n++;
  }
  return n;
}

/** "3 new" in the title, when there are any. */
export function freshText(count: number): Line {
  return count > 0 ? [cell(`${count} new`, 'accent', true)] : [];
}

/** The collapsed pane: how many are new, then the latest event. */
export function eventsSummary(newest: MonitorEvent | undefined, fresh: number): Line {
  if (!newest) return [cell('no events yet', 'muted')];
  const style = eventSeverities[newest.severity];
  return [
    cell(fresh > 0 ? `${fresh} new ` : '', 'accent', true),
    cell(`${clockTime(newest.at)} `, 'muted'),
    cell(`${style.symbol} ${newest.message}`, newest.severity === 'info' ? undefined : style.token),
  ];
}
