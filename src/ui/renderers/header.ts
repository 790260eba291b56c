/** The header: who, how often, live or paused, last update; the verdict; the outage banner. Pure. */
import { verdictSummary } from '../../monitor/health.js';
import type { MonitorState } from '../../monitor/state.js';
import { formatDuration } from '../../model/units.js';
import type { Glyphs } from '../theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { clockTime } from './time.js';
import { verdictParts } from './verdict.js';

export function statusLine(state: MonitorState, glyphs: Glyphs): Line {
  const sep = cell(` ${glyphs.separator} `, 'muted');
  return [
    cell('synctop ', 'title', true),
    cell(state.device, 'accent'),
    sep,
    cell(`every ${formatDuration(state.intervalMs / 1000)}`, 'muted'),
    sep,
    state.paused ? cell('|| PAUSED', 'warn', true) : cell(`${glyphs.live} LIVE`, 'ok', true),
    sep,
    cell(state.lastUpdateAt === null ? 'no update yet' : `updated ${clockTime(state.lastUpdateAt)}`, 'muted'),
  ];
}

/** "no answer since 14:02:11, retrying in 8s - connection refused ..." */
export function outageBanner(state: MonitorState, nowMs: number, ascii: boolean): Line | null {
  const u = state.unreachable;
  if (!u) return null;
  const wait = Math.ceil((u.retryAt - nowMs) / 1000);
  const retry = state.paused ? 'paused' : wait > 0 ? `retrying in ${formatDuration(wait)}` : 'retrying now';
  return [
    cell(`! no answer since ${clockTime(u.since)}, ${retry}`, 'bad', true),
    cell(` ${ascii ? '-' : '—'} ${u.reason}`, 'bad'),
  ];
}

/**
 * The health verdict's worst finding ("WARNING: PTP port 0 ACQUIRING (+2 more)"), only when
 * there is one: the monitor's health rules, said the same way as by `check` and the exporter.
 * While the device is unreachable the banner says it better.
 */
export function healthLine(state: MonitorState): Line | null {
  const verdict = state.verdict;
  if (!verdict || verdict.severity === 'ok' || verdict.findings.length === 0 || state.unreachable) return null;
  return [cell(verdictSummary(verdict), verdict.severity === 'critical' ? 'bad' : 'warn', true)];
}

export function headerLines(state: MonitorState, nowMs: number, opts: { ascii: boolean; glyphs: Glyphs }): Line[] {
  const extra = outageBanner(state, nowMs, opts.ascii) ?? healthLine(state);
  return [statusLine(state, opts.glyphs), verdictParts(state, opts.glyphs.separator), ...(extra ? [extra] : [])];
}
