/** What every pane says about its own data: age, STALE, and the current error. Pure. */
import type { SnapshotError } from '../../model/snapshot.js';
import type { SectionState } from '../../monitor/state.js';
import { isStale } from '../../monitor/state.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { ageText } from './time.js';

/** "4s ago", "STALE 2m ago", "no data yet". */
export function sectionAge(section: SectionState<unknown>, intervalMs: number, nowMs: number): Line {
  if (section.receivedAt === null) return [cell(section.error ? 'no data' : 'no data yet', 'muted')];
  const age = ageText(section.receivedAt, nowMs);
  if (isStale(section, intervalMs, nowMs)) return [cell('STALE', 'warn', true), cell(` ${age} ago`, 'warn')];
  return [cell(`${age} ago`, 'muted')];
}

/** One line: "! auth error (403): permission refused ...". */
export function errorLine(error: SnapshotError, explain?: string): Line {
  const code = error.code ? ` ${error.code}` : '';
  return [cell(`! ${error.kind} error${code}: `, 'bad', true), cell(explain ?? error.message, 'bad')];
}
