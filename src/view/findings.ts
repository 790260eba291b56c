/**
 * The findings list (the `f` overlay): every finding of the health verdict, worst first, with
 * its severity, section and how long it has lasted; a stale one says how old its data is.
 * Messages wrap rather than lose their end. Pure.
 */
import type { SectionName } from '../model/snapshot.js';
import type { TrackedFinding } from '../monitor/verdict-memory.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { wrapLine } from './fit.js';
import { verdictStyles } from './theme.js';
import { ageText, atLeast } from './time.js';

const sectionLabels: Record<SectionName | 'device', string> = { ntp: 'NTP', gnss: 'GNSS', ptp: 'PTP', alarm: 'Alarm', device: 'device' };

/** Widths of the columns before the message. */
const SEVERITY_WIDTH = 10;
const SECTION_WIDTH = 6;
const FOR_WIDTH = 9;
const GAP = 1;
export const FINDING_INDENT = SEVERITY_WIDTH + SECTION_WIDTH + FOR_WIDTH + 3 * GAP;

/** "3m12s", "≥ 3m12s" (already so when first seen), "-" (not tracked). */
export function findingAge(f: TrackedFinding, nowMs: number, ascii: boolean): string {
  if (f.since === undefined) return '-';
  const age = ageText(f.since, nowMs);
  return f.sinceAtLeast ? atLeast(age, ascii) : age;
}

export function findingsHeader(): Line {
  const head = ['severity'.padEnd(SEVERITY_WIDTH), 'where'.padEnd(SECTION_WIDTH), 'for'.padEnd(FOR_WIDTH), 'finding'].join(' ');
  return [cell(head, 'muted', true)];
}

/** One finding: one line, or more when its message wraps under the message column. */
export function findingLines(f: TrackedFinding, width: number, nowMs: number, ascii: boolean): Line[] {
  const style = verdictStyles[f.severity];
  const line: Line = [
    cell(`${style.symbol} ${style.word}`.padEnd(SEVERITY_WIDTH + GAP), style.token, true),
    cell(sectionLabels[f.section].padEnd(SECTION_WIDTH + GAP), 'muted'),
    cell(findingAge(f, nowMs, ascii).padEnd(FOR_WIDTH + GAP), 'muted'),
    cell(f.message, style.token),
    ...(f.staleDataAt !== undefined ? [cell(` (stale: data ${ageText(f.staleDataAt, nowMs)} old, section cannot be read)`, 'warn')] : []),
  ];
  return wrapLine(line, width, FINDING_INDENT);
}

/** "2 critical, 1 warning, 1 stale" for the overlay's title. */
export function findingsCount(findings: readonly TrackedFinding[]): string {
  if (findings.length === 0) return 'none';
  const n = (pred: (f: TrackedFinding) => boolean) => findings.filter(pred).length;
  const parts: [number, string][] = [
    [n((f) => f.severity === 'critical'), 'critical'],
    [n((f) => f.severity === 'warning'), 'warning'],
    [n((f) => f.staleDataAt !== undefined), 'stale'],
  ];
  return parts
    .filter(([count]) => count > 0)
    .map(([count, word]) => `${count} ${word}`)
    .join(', ');
}
