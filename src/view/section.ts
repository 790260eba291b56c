/** What every pane says about its own data: age, STALE, and the current error. Pure. */
import type { SnapshotError } from '../model/snapshot.js';
import type { MonitorState, SectionState } from '../monitor/state.js';
import { isStale } from '../monitor/state.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { firstWrappedLines, wrapLine } from './fit.js';
import { ageText } from './time.js';

/** "4s ago", "STALE 2m ago", "no data yet". */
export function sectionAge(section: SectionState<unknown>, intervalMs: number, nowMs: number): Line {
  if (section.receivedAt === null) return [cell(section.error ? 'no data' : 'no data yet', 'muted')];
  const age = ageText(section.receivedAt, nowMs);
  if (isStale(section, intervalMs, nowMs)) return [cell('STALE', 'warn', true), cell(` ${age} ago`, 'warn')];
  return [cell(`${age} ago`, 'muted')];
}

/**
 * The pane's error line. While the whole device is unreachable the header banner carries the
 * reason, so a pane only says it is showing what it last received.
 */
export function sectionErrorLine(state: Pick<MonitorState, 'unreachable'>, error: SnapshotError): Line {
  if (state.unreachable && error.kind === 'network') return [cell('! no answer', 'bad', true), cell(', showing the last data received', 'muted')];
  return errorLine(error);
}

/** The most lines an error takes in a pane without data (a device's message may be 512 characters). */
export const MAX_ERROR_LINES = 3;

/**
 * A pane's error lines: its error line (`line`: a pane's own wording, else sectionErrorLine),
 * one line beside data, wrapped into the `spare` lines the pane has besides; when the pane has no
 * data the error is all it says, so it wraps rather than being cut. Either way at most
 * MAX_ERROR_LINES (the last one holds the rest and is cut where it ends).
 */
export function sectionErrorLines(
  state: Pick<MonitorState, 'unreachable'>,
  section: Pick<SectionState<unknown>, 'data' | 'error'>,
  width: number,
  line: Line | null = section.error ? sectionErrorLine(state, section.error) : null,
  spare = 0,
): Line[] {
  if (!line) return [];
  const room = section.data === null ? MAX_ERROR_LINES : Math.min(MAX_ERROR_LINES, 1 + Math.max(0, spare));
  return room === 1 ? [line] : firstWrappedLines(wrapLine(line, width, 2), room);
}

/** Lines a pane's error line beside its data takes beyond one when it wraps whole (for a pane's need). */
export function errorWrapLines(
  state: Pick<MonitorState, 'unreachable'>,
  section: Pick<SectionState<unknown>, 'data' | 'error'>,
  width: number,
  line?: Line | null,
): number {
  return sectionErrorLines(state, section, width, line, Number.POSITIVE_INFINITY).length - sectionErrorLines(state, section, width, line).length;
}

/** One line: "! auth error (403): permission refused ...". */
export function errorLine(error: SnapshotError, explain?: string): Line {
  const code = error.code ? ` ${error.code}` : '';
  return [cell(`! ${error.kind} error${code}: `, 'bad', true), cell(explain ?? error.message, 'bad')];
}
