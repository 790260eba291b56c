/** One PTP slave port -> a list row, and -> every field of its detail. Pure. */
import { decodeLastUpdate, describeClockAccuracy, describeClockClass, describeStepsRemoved, describeVariance, hex2, PLAUSIBLE_RATE_OFFSET_PPM, rateOffsetImplausible } from '../model/decoders.js';
import type { PtpPort } from '../model/snapshot.js';
import { STATS_WINDOW, summarize } from '../monitor/stats.js';
import { formatMagnitude, formatNumber, formatOffset, formatPpm } from '../model/units.js';
import type { Glyphs, OffsetLimits } from './theme.js';
import { flagStyle, offsetToken, ptpSyncStates, styleOf } from './theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import type { Field } from './field.js';
import { sparkline } from './sparkline.js';
import type { TableColumn, TableRow } from './table-layout.js';
import { ageText } from './time.js';

export type PtpColumn = 'port' | 'state' | 'since' | 'offset' | 'delay' | 'gm' | 'parent';

/**
 * The grandmaster and parent port identities are what a technician copies into a ticket: the
 * parent goes whole when space runs out, the grandmaster is cut (in its middle) only when
 * nothing else is left to drop.
 */
export const ptpColumns: readonly TableColumn<PtpColumn>[] = [
  { key: 'port', header: 'port' },
  { key: 'state', header: 'state' },
  { key: 'offset', header: 'offset', align: 'right' },
  { key: 'delay', header: 'path delay', align: 'right', drop: 2 },
  { key: 'gm', header: 'grandmaster', identity: true },
  { key: 'parent', header: 'parent port', identity: true, drop: 3 },
];

/** The live list adds the time in the sync state after the state; it goes first when narrow. */
export const ptpLiveColumns: readonly TableColumn<PtpColumn>[] = ptpColumns.flatMap((c) =>
  c.key === 'state' ? [c, { key: 'since' as const, header: 'for', drop: 4 }] : [c],
);

export interface PtpRenderOptions {
  ascii: boolean;
  glyphs: Glyphs;
  /** Offsets from master beyond these are colored warn / bad (--ptp-warn, --ptp-crit). */
  limits?: OffsetLimits;
}

/** @param inState time in the current sync state, e.g. "2h14m" (live monitor only) */
export function ptpPortRow(port: PtpPort, opts: PtpRenderOptions, inState: string | null = null): TableRow<PtpColumn> {
  const off = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  if (!port.ok) {
    return {
      port: cell(String(port.id)),
      state: cell(`! ${port.error?.kind ?? 'unknown'} error`, 'bad', true),
      since: cell('-', 'muted'),
      offset: cell('-', 'muted'),
      delay: cell('-', 'muted'),
      // The message goes on its own line (the pane's error line, the report's): an identity
      // column would keep a sentence whole and push every other column out.
      gm: cell('-', 'muted'),
      parent: cell('-', 'muted'),
    };
  }
  const style = styleOf(ptpSyncStates, port.syncState);
  return {
    port: cell(String(port.id)),
    state: cell(`${style.symbol} ${style.word}`, style.token, true),
    since: cell(inState ?? '-', 'muted'),
    offset: cell(off(port.offsetFromMasterNs), offsetToken(port.offsetFromMasterNs, opts.limits)),
    delay: cell(formatMagnitude(port.meanPathDelayNs, { ascii: opts.ascii })),
    gm: cell(port.gmIdentity ?? '-', port.gmIdentity ? undefined : 'muted'),
    parent: cell(port.parentPortIdentity ?? '-', port.parentPortIdentity ? undefined : 'muted'),
  };
}

/** Micro signs become "u" on ASCII terminals. */
const asciiSafe = (text: string, ascii: boolean) => (ascii ? text.replace(/µ/g, 'u') : text);

/** "6 (locked to a primary reference (e.g. GNSS))", from the model's decoder. */
export function clockClassText(value: number | null): string {
  if (value === null) return '-';
  const meaning = describeClockClass(value);
  return meaning ? `${value} (${meaning})` : String(value);
}

/** "0x21 (within 100 ns)"; a code outside the enumeration as sent, marked reserved. */
export function clockAccuracyText(value: number | null, ascii: boolean): string {
  if (value === null) return '-';
  const meaning = describeClockAccuracy(value);
  return meaning ? `${hex2(value)} (${asciiSafe(meaning, ascii)})` : String(value);
}

/** "0x4E5D (deviation about 34 ns)": offsetScaledLogVariance as the deviation it stands for. */
export function varianceText(value: number | null, ascii: boolean): string {
  if (value === null) return '-';
  const meaning = describeVariance(value);
  const raw = Number.isInteger(value) ? `0x${value.toString(16).toUpperCase().padStart(4, '0')}` : formatNumber(value);
  return meaning ? `${raw} (${asciiSafe(meaning, ascii)})` : raw;
}

/**
 * "+13.2ppb", auto-scaled; a magnitude no oscillator reaches (over 200 ppm, e.g. a raw 802.1AS
 * cumulativeScaledRateOffset) is shown as sent and flagged, never printed as ppm.
 */
export function rateOffsetLine(ppm: number | null): Line {
  if (!rateOffsetImplausible(ppm)) return [cell(formatPpm(ppm), ppm === null ? 'muted' : undefined)];
  return [cell(formatNumber(ppm)), cell(` (not a rate offset in ppm: over ${PLAUSIBLE_RATE_OFFSET_PPM} ppm, a raw scaled value?)`, 'warn')];
}

/**
 * "3s ago" from lastUpdate, read in the unit its magnitude tells ("3s ago (sent in
 * milliseconds)"); a time ahead of this computer says so rather than "0s ago", and what is no
 * date (0, a count since boot) says that rather than "56y ago".
 */
export function lastUpdateLine(lastUpdate: number | null, nowMs: number): Line {
  if (lastUpdate === null) return [cell('-', 'muted')];
  const decoded = decodeLastUpdate(lastUpdate);
  // The decoder's sentence starts with the value as sent: "0: never set", "3600 is no date (a time since boot?)".
  if (decoded.atMs === null) return [cell(decoded.problem ?? `${formatNumber(lastUpdate)} is no date`, 'warn')];
  const unit = decoded.unit ? [cell(` (sent in ${decoded.unit})`, 'muted')] : [];
  // Whole seconds ahead, as ageText counts them: under a second is the same second.
  if (decoded.atMs - nowMs >= 1000) return [cell(`${ageText(nowMs, decoded.atMs)} ahead of this computer`, 'warn'), ...unit];
  return [cell(`${ageText(decoded.atMs, nowMs)} ago`), ...unit];
}

/** "1 (directly attached to the grandmaster)". */
export function stepsRemovedText(value: number | null): string {
  if (value === null) return '-';
  const meaning = describeStepsRemoved(value);
  return meaning ? `${value} (${meaning})` : String(value);
}

/** Unsigned magnitude in the offset's units: "31ns". */
const magnitude = (ns: number, ascii: boolean) => formatMagnitude(Math.abs(ns), { ascii });

/** ptp4l's summary of the offset window: "rms 12ns max 31ns mean +2ns sd 11ns (60)". */
export function offsetStatsText(values: readonly number[], ascii: boolean): string | null {
  const s = summarize(values.slice(-STATS_WINDOW));
  if (!s) return null;
  const m = (ns: number) => magnitude(ns, ascii);
  return `rms ${m(s.rms)} max ${m(Math.max(Math.abs(s.min), Math.abs(s.max)))} mean ${formatOffset(s.mean, { ascii })} sd ${m(s.stddev)} (${s.count})`;
}

/** The path delay over the same window: "mean 1.18µs sd 4ns min 1.17µs max 1.19µs". */
export function delayStatsText(values: readonly number[], ascii: boolean): string | null {
  const s = summarize(values.slice(-STATS_WINDOW));
  if (!s) return null;
  const m = (ns: number) => formatMagnitude(ns, { ascii });
  return `mean ${m(s.mean)} sd ${m(s.stddev)} min ${m(s.min)} max ${m(s.max)}`;
}

/** What the live monitor adds to a port's detail; the plain report leaves it out. */
export interface PtpLiveDetail {
  /** Time in the current sync state, e.g. "2h14m". */
  inState?: string | null;
  /** The newest values of the offset and path delay series (present values only). */
  offsets?: readonly number[];
  delays?: readonly number[];
}

/**
 * Every field of a port. The first three (port id, sync state, offset) repeat the list row;
 * the plain report skips them. With `live`, the offset and delay statistics follow the offset.
 */
export function ptpPortDetail(
  port: PtpPort,
  history: readonly (number | null)[],
  nowMs: number,
  opts: PtpRenderOptions & { sparkWidth: number },
  live: PtpLiveDetail = {},
): Field[] {
  const off = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  const style = styleOf(ptpSyncStates, port.syncState);
  const num = (n: number | null): Line => [cell(formatNumber(n), n === null ? 'muted' : undefined)];
  const text = (s: string | null): Line => [cell(s ?? '-', s === null ? 'muted' : undefined)];
  const gm = flagStyle(port.gmPresent, ['yes', 'no']);
  const spark = sparkline(history, opts.sparkWidth, opts.glyphs.sparkRamp);
  const offsetStats = live.offsets ? offsetStatsText(live.offsets, opts.ascii) : null;
  const delayStats = live.delays ? delayStatsText(live.delays, opts.ascii) : null;
  return [
    { label: 'port id', value: [cell(String(port.id))] },
    { label: 'sync state', value: [cell(`${style.symbol} ${style.word}`, style.token, true), cell(live.inState ? ` for ${live.inState}` : '', 'muted')] },
    { label: 'offset', value: [cell(off(port.offsetFromMasterNs), offsetToken(port.offsetFromMasterNs, opts.limits), true), cell(spark ? ` ${spark}` : '', 'accent')] },
    ...(offsetStats ? [{ label: 'offset stats', value: [cell(offsetStats)] }] : []),
    { label: 'path delay', value: [cell(formatMagnitude(port.meanPathDelayNs, { ascii: opts.ascii }))] },
    ...(delayStats ? [{ label: 'delay stats', value: [cell(delayStats)] }] : []),
    { label: 'master offset', value: [cell(off(port.masterOffsetNs))] },
    { label: 'steps removed', value: [cell(stepsRemovedText(port.stepsRemoved), port.stepsRemoved === null ? 'muted' : undefined)] },
    { label: 'rate offset', value: rateOffsetLine(port.cumulativeRateOffsetPpm) },
    { label: 'GM present', value: [cell(`${gm.symbol} ${gm.word}`, gm.token)] },
    { label: 'GM identity', value: text(port.gmIdentity), whole: true },
    { label: 'parent port', value: text(port.parentPortIdentity), whole: true },
    { label: 'GM class', value: [cell(clockClassText(port.gmClockClass))] },
    { label: 'GM accuracy', value: [cell(clockAccuracyText(port.gmClockAccuracy, opts.ascii))] },
    { label: 'GM variance', value: [cell(varianceText(port.gmOffsetScaledLogVariance, opts.ascii), port.gmOffsetScaledLogVariance === null ? 'muted' : undefined)] },
    { label: 'GM priority', value: [cell(`${formatNumber(port.gmPriority1)} / ${formatNumber(port.gmPriority2)}`)] },
    { label: 'updated', value: lastUpdateLine(port.lastUpdate, nowMs) },
  ];
}
