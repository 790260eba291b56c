/**
 * One NTP source -> one table row (k9s style: a pure function of the data), plus the one-line
 * detail of the selected source and the pane's status line.
 */
import { formatCount } from '../model/capped.js';
import { describeReach } from '../model/decoders.js';
import type { NtpData, NtpSource } from '../model/snapshot.js';
import { spread, STATS_WINDOW } from '../monitor/stats.js';
import { formatDuration, formatMagnitude, formatNumber, formatOffset, formatPollInterval, reachBits, reachCount } from '../model/units.js';
import type { Glyphs, OffsetLimits, Token } from './theme.js';
import { ntpModes, ntpOverallStates, ntpSourceStates, offsetToken, styleOf } from './theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { sparkline } from './sparkline.js';
import { lineWidth } from './fit.js';
import type { TableColumn, TableRow } from './table-layout.js';

export type NtpColumn = 'state' | 'name' | 'word' | 'since' | 'mode' | 'stratum' | 'poll' | 'reach' | 'lastRx' | 'offset' | 'error' | 'trend';

export const SPARK_WIDTH = 12;

export const ntpColumns: readonly TableColumn<NtpColumn>[] = [
  { key: 'state', header: 'S' },
  // An IPv6 literal is up to 41 columns with its brackets: never capped, never cut first.
  { key: 'name', header: 'source', identity: true },
  { key: 'word', header: 'state', drop: 9, maxWidth: 14 },
  { key: 'mode', header: 'mode', drop: 8, maxWidth: 15 },
  { key: 'stratum', header: 'st', align: 'right' },
  { key: 'poll', header: 'poll', align: 'right', drop: 4 },
  { key: 'reach', header: 'reach', drop: 3 },
  { key: 'lastRx', header: 'last', align: 'right', drop: 5 },
  { key: 'offset', header: 'offset', align: 'right' },
  { key: 'error', header: 'error', align: 'right', drop: 6 },
  { key: 'trend', header: 'offset trend', drop: 7 },
];

/**
 * The live table: the state's age ("for 2h14m") after the state word. It is the first column
 * to go when the terminal is narrow: the selected source's detail line says it too.
 */
export const ntpLiveColumns: readonly TableColumn<NtpColumn>[] = ntpColumns.flatMap((c) =>
  c.key === 'word' ? [c, { key: 'since' as const, header: 'for', drop: 10 }] : [c],
);

export interface NtpRenderOptions {
  ascii: boolean;
  glyphs: Glyphs;
  sparkWidth?: number;
  /** Time in the current state, e.g. "2h14m" (live monitor only). */
  inState?: string | null;
  /** Offsets beyond these are colored warn / bad (--ntp-warn, --ntp-crit). */
  limits?: OffsetLimits;
  /** Columns the detail lines have: a sparkline that would be cut there is left out. */
  width?: number;
}

/** chrony's error bound: "±450µs" ("+/-450us" in ASCII); the formatter's sign is dropped. */
export function plusMinus(ns: number | null, ascii: boolean): string {
  if (ns === null) return '-';
  return `${ascii ? '+/-' : '±'}${formatMagnitude(Math.abs(ns), { ascii })}`;
}

/** Eight marks, oldest poll left, newest right, then the octal register as sent. */
export function reachMarks(reach: string | null, glyphs: Glyphs): string {
  const bits = reachBits(reach);
  if (bits === null) return reach ?? '-';
  return `${bits.map((b) => (b ? glyphs.reachOn : glyphs.reachOff)).join('')} ${reach}`;
}

export function reachToken(reach: string | null): Token {
  const n = reachCount(reach);
  if (n === null) return 'muted';
  if (n === 8) return 'ok';
  return n === 0 ? 'bad' : 'warn';
}

export function ntpSourceRow(src: NtpSource, history: readonly (number | null)[], opts: NtpRenderOptions): TableRow<NtpColumn> {
  const style = styleOf(ntpSourceStates, src.state);
  const strong = src.isSyncSource;
  const name = `${strong ? opts.glyphs.inUse : ' '} ${src.name}`;
  const numeric = (text: string) => cell(text, text === '-' ? 'muted' : undefined, strong);
  return {
    state: cell(style.symbol, style.token, true),
    name: cell(name, style.token, strong),
    word: cell(style.word, style.token, strong),
    since: cell(opts.inState ?? '-', 'muted'),
    mode: cell(src.mode === null ? '-' : styleOf(ntpModes, src.mode).word, src.mode ? undefined : 'muted', strong),
    stratum: numeric(formatNumber(src.stratum)),
    poll: numeric(formatPollInterval(src.pollSeconds)),
    reach: cell(reachMarks(src.reach, opts.glyphs), reachToken(src.reach), strong),
    lastRx: numeric(formatDuration(src.lastRxSeconds)),
    offset: cell(formatOffset(src.offsetNs, { ascii: opts.ascii }), src.offsetNs === null ? 'muted' : offsetToken(src.offsetNs, opts.limits), strong),
    error: numeric(plusMinus(src.errorNs, opts.ascii)),
    trend: cell(sparkline(history, opts.sparkWidth ?? SPARK_WIDTH, opts.glyphs.sparkRamp), 'accent'),
  };
}

/**
 * The selected source in full: what the table had to cut (long name, measured offset, time in
 * state), then the reach register in words and how far the offset moved over the window.
 */
export function ntpSourceDetail(src: NtpSource, history: readonly (number | null)[], opts: NtpRenderOptions): Line[] {
  const style = styleOf(ntpSourceStates, src.state);
  const fmt = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  const count = reachCount(src.reach);
  const window = history.slice(-STATS_WINDOW).filter((v): v is number => v !== null);
  const moved = spread(window);
  const reachWords = describeReach(count);
  const spark = sparkline(history, opts.sparkWidth ?? SPARK_WIDTH, opts.glyphs.sparkRamp);
  const reach = cell(`reach ${src.reach ?? '-'}`, reachToken(src.reach));
  const words = cell(reachWords ? ` (${reachWords})` : '', reachToken(src.reach));
  const spreadCell = cell(spreadText(moved, window.length, opts.ascii));
  // Where the line is too narrow, what the table already shows goes first: the sparkline (its
  // trend column), then the reach register in words (its marks); the spread stays whole.
  const reachLines: Line[] = [[reach, words, spreadCell, cell(spark ? ` ${spark}` : '', 'accent')], [reach, words, spreadCell], [reach, spreadCell]];
  const reachLine = reachLines.find((l) => opts.width === undefined || lineWidth(l) <= opts.width) ?? reachLines[reachLines.length - 1]!;
  return [
    [
      cell(`${style.symbol} ${style.word}`, style.token, true),
      cell(opts.inState ? ` for ${opts.inState}` : '', 'muted'),
      cell(`  ${src.name}`, undefined, src.isSyncSource),
      cell(src.isSyncSource ? ' (in use)' : '', 'ok'),
      cell('  adjusted '),
      cell(fmt(src.offsetNs), offsetToken(src.offsetNs, opts.limits)),
      cell(`  measured ${fmt(src.measuredOffsetNs)}`),
      cell(src.errorNs === null ? '' : `  ${plusMinus(src.errorNs, opts.ascii)}`),
    ],
    reachLine,
  ];
}

/**
 * "offset spread 40ns over 5 device polls": a spread needs two of the device's samples; before
 * that it says how many there are rather than "0ns".
 */
function spreadText(moved: number | null, samples: number, ascii: boolean): string {
  const polls = `${samples} device poll${samples === 1 ? '' : 's'}`;
  if (moved === null) return '  offset spread -';
  return samples < 2 ? `  offset spread - (${polls})` : `  offset spread ${formatMagnitude(moved, { ascii })} over ${polls}`;
}

/** "* synchronized  to ntp1.example  · 4 sources"; a cut list says so: "showing 256 of 100,000 sources". */
export function ntpStatusLine(data: NtpData): Line {
  const overall = styleOf(ntpOverallStates, data.overallStatus);
  const count = data.sourceCount ?? data.sources.length;
  const cut = data.capped?.find((c) => c.list === 'NTP sources');
  return [
    cell(`${overall.symbol} ${overall.word}`, overall.token, true),
    data.syncSource === null ? cell('  no sync source', 'warn') : cell(`  to ${data.syncSource}`, 'ok', true),
    cut ? cell(`  showing ${cut.kept} of ${formatCount(cut.sent)} sources`, 'warn') : cell(`  ${count} source${count === 1 ? '' : 's'}`, 'muted'),
  ];
}

/**
 * The pane's key to its marks, as `chronyc sources -v` prints one: the state symbols (from
 * the same table the rows use), the sync source mark, the reach marks and the poll's unit.
 */
export function ntpLegendLine(glyphs: Glyphs): Line {
  const states = Object.values(ntpSourceStates).flatMap((s) => [cell(s.symbol, s.token, true), cell(` ${s.word}  `, 'muted')]);
  return [
    ...states,
    cell(glyphs.inUse, 'ok', true),
    cell(' in use  reach ', 'muted'),
    cell(`${glyphs.reachOn}${glyphs.reachOff}`, 'accent'),
    cell(' answered/missed', 'muted'),
    // chronyc prints the poll interval as log2 (10); the column shows its seconds (1024s).
    cell('  poll in seconds', 'muted'),
  ];
}

/** What the device's API does not report, so no one looks for it here. */
export const NTP_NOT_PROVIDED = 'not in the device API: chrony tracking (frequency, skew, root delay and dispersion, reference time)';

export function ntpNotProvidedLine(): Line {
  return [cell(NTP_NOT_PROVIDED, 'muted')];
}
