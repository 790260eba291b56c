/**
 * The header: who, how often, live / paused / replay, last update; the health verdict (word,
 * symbol, color) with the per-section summary; the worst finding or the outage banner. Pure.
 */
import type { MonitorState, ReplayPosition } from '../monitor/state.js';
import { formatDuration } from '../model/units.js';
import type { Glyphs } from './theme.js';
import { verdictStyles } from './theme.js';
import type { Cell, Line } from './cell.js';
import { cell } from './cell.js';
import { ageText, clockTime, dateTime } from './time.js';
import { verdictParts } from './verdict.js';
import { fitLine, lineWidth, wrapLine } from './fit.js';

/** "▶ REPLAY 120/5400 x4 2026-11-22 14:02:11": where in the recording, how fast, which moment. */
export function replayText(replay: ReplayPosition, glyphs: Glyphs, paused: boolean): string {
  const end = replay.finished ? ' (end)' : '';
  const skipped = replay.skipped ? `, ${replay.skipped} damaged line${replay.skipped === 1 ? '' : 's'} skipped` : '';
  return `${paused ? '' : `${glyphs.selected} `}REPLAY ${replay.position}/${replay.total} x${replay.speed} ${dateTime(replay.at)}${end}${skipped}`;
}

export function statusLine(state: MonitorState, glyphs: Glyphs): Line {
  const sep = cell(` ${glyphs.separator} `, 'muted');
  const mode: Cell[] = state.replay
    ? [...(state.paused ? [cell('|| PAUSED ', 'warn', true)] : []), cell(replayText(state.replay, glyphs, state.paused), 'accent', true)]
    : [state.paused ? cell('|| PAUSED', 'warn', true) : liveMark(state, glyphs)];
  return [
    cell('synctop ', 'title', true),
    ...(state.profile ? [cell(`@${state.profile} `, 'accent', true)] : []),
    cell(state.device, 'accent'),
    sep,
    cell(`every ${formatDuration(state.intervalMs / 1000)}`, 'muted'),
    sep,
    ...mode,
    ...(state.recording ? [sep, cell(`${glyphs.live} REC`, 'accent', true)] : []),
    sep,
    cell(state.lastUpdateAt === null ? 'no update yet' : `updated ${clockTime(state.lastUpdateAt)}`, 'muted'),
  ];
}

/**
 * "● LIVE" in the verdict's colour (green only when all is well), "! NO ANSWER" while the device
 * does not answer: the status line never looks well while the verdict is not.
 */
export function liveMark(state: Pick<MonitorState, 'unreachable' | 'verdict' | 'ntp' | 'gnss' | 'ptp' | 'alarm'>, glyphs: Glyphs): Cell {
  if (state.unreachable) return cell('! NO ANSWER', 'bad', true);
  return cell(`${glyphs.live} LIVE`, judged(state) ? verdictStyles[state.verdict.severity].token : 'muted', true);
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

/** "! CRITICAL": the health verdict's word, with its symbol so it survives NO_COLOR. */
/** Every section has had its first result: before that there is no verdict, and none is claimed. */
export const judged = (state: Pick<MonitorState, 'ntp' | 'gnss' | 'ptp' | 'alarm'>): boolean =>
  state.ntp.attemptedAt !== null && state.gnss.attemptedAt !== null && state.ptp.attemptedAt !== null && state.alarm.attemptedAt !== null;

export function verdictBadge(state: Pick<MonitorState, 'verdict' | 'ntp' | 'gnss' | 'ptp' | 'alarm'>): Cell {
  if (!judged(state)) return cell('- NO VERDICT YET', 'muted', true);
  const style = verdictStyles[state.verdict?.severity ?? 'ok'];
  return cell(`${style.symbol} ${style.word}`, style.token, true);
}

/**
 * The health verdict's worst finding ("~ PTP port 0 ACQUIRING (+2 more)"), only when there is
 * one: the monitor's health rules, said the same way as by `check` and the exporter. While the
 * device is unreachable the banner says it better.
 */
export function healthLine(state: MonitorState, nowMs?: number, fit?: { width: number; ellipsis: string }): Line | null {
  const verdict = state.verdict;
  const first = verdict?.findings[0];
  if (!verdict || verdict.severity === 'ok' || !first || state.unreachable) return null;
  const style = verdictStyles[first.severity];
  const stale = first.staleDataAt !== undefined && nowMs !== undefined ? ` (stale ${ageText(first.staleDataAt, nowMs)})` : '';
  const more = cell(verdict.findings.length > 1 ? ` (+${verdict.findings.length - 1} more: ${FINDINGS_KEY})` : '', 'muted');
  const finding = [cell(`${style.symbol} ${first.message}`, style.token, true), cell(stale, 'warn')];
  // A long finding is cut, not the hint to the list that holds it whole.
  return [...(fit ? fitLine(finding, fit.width - lineWidth([more]), fit.ellipsis) : finding), more];
}

/** The key that lists every finding (see ui/keys.ts). */
export const FINDINGS_KEY = 'f';

/**
 * `extraLines`: lines the screen has no other use for. The third line (outage banner or worst
 * finding), then the verdict line, take them to show themselves whole, wrapped, instead of cut
 * with "…"; a line that would need more than is left stays one cut line.
 */
export function headerLines(state: MonitorState, nowMs: number, opts: { ascii: boolean; glyphs: Glyphs; width?: number; extraLines?: number }): Line[] {
  const width = opts.width;
  const fit = width === undefined ? undefined : { width, ellipsis: opts.glyphs.ellipsis };
  const sep = cell(` ${opts.glyphs.separator} `, 'muted');
  const status = statusLine(state, opts.glyphs);
  const verdict = [verdictBadge(state), sep, ...verdictParts(state, opts.glyphs.separator, nowMs)];
  const banner = outageBanner(state, nowMs, opts.ascii);
  const extra = banner ?? healthLine(state, nowMs, fit);
  let room = opts.extraLines ?? 0;
  const whole = (line: Line | null, cut: Line | null): Line[] => {
    if (!line) return [];
    if (width !== undefined && room > 0) {
      const wrapped = wrapLine(line, width, 2);
      if (wrapped.length > 1 && wrapped.length - 1 <= room && wrapped.every((l) => lineWidth(l) <= width)) {
        room -= wrapped.length - 1;
        return wrapped;
      }
    }
    return [cut ?? line];
  };
  const third = whole(banner ?? (extra ? healthLine(state, nowMs) : null), extra);
  return [status, ...whole(verdict, verdict), ...third];
}
