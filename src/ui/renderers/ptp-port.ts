/** One PTP slave port -> a list row, and -> every field of its detail. Pure. */
import type { PtpPort } from '../../model/snapshot.js';
import { formatNumber, formatOffset, formatPpm } from '../../model/units.js';
import type { Glyphs } from '../theme.js';
import { flagStyle, ptpSyncStates, styleOf } from '../theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import type { Field } from './field.js';
import { sparkline } from './sparkline.js';
import type { TableColumn, TableRow } from '../widgets/table-layout.js';
import { ageText } from './time.js';

export type PtpColumn = 'port' | 'state' | 'offset' | 'delay' | 'gm';

export const ptpColumns: readonly TableColumn<PtpColumn>[] = [
  { key: 'port', header: 'port' },
  { key: 'state', header: 'state' },
  { key: 'offset', header: 'offset', align: 'right' },
  { key: 'delay', header: 'path delay', align: 'right', drop: 2 },
  { key: 'gm', header: 'grandmaster', flex: true, minWidth: 6, drop: 1 },
];

export interface PtpRenderOptions {
  ascii: boolean;
  glyphs: Glyphs;
}

export function ptpPortRow(port: PtpPort, opts: PtpRenderOptions): TableRow<PtpColumn> {
  const off = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  if (!port.ok) {
    return {
      port: cell(String(port.id)),
      state: cell(`! ${port.error?.kind ?? 'unknown'} error`, 'bad', true),
      offset: cell('-', 'muted'),
      delay: cell('-', 'muted'),
      gm: cell(port.error?.message ?? '', 'bad'),
    };
  }
  const style = styleOf(ptpSyncStates, port.syncState);
  return {
    port: cell(String(port.id)),
    state: cell(`${style.symbol} ${style.word}`, style.token, true),
    offset: cell(off(port.offsetFromMasterNs)),
    delay: cell(off(port.meanPathDelayNs)),
    gm: cell(port.gmIdentity ?? '-', port.gmIdentity ? undefined : 'muted'),
  };
}

/** IEEE 1588 clockClass values a technician meets, in words. */
const clockClasses: Record<number, string> = {
  6: 'locked, primary ref',
  7: 'holdover, in spec',
  13: 'locked, app source',
  14: 'holdover, app source',
  52: 'degraded',
  58: 'degraded',
  187: 'degraded, may slave',
  193: 'degraded',
  248: 'default, unlocked',
  255: 'slave-only',
};

/** IEEE 1588 clockAccuracy enumeration (0x20 = within 25 ns ... 0xFE unknown). */
const clockAccuracies: Record<number, string> = {
  0x17: '1 ps', 0x18: '2.5 ps', 0x19: '10 ps', 0x1a: '25 ps', 0x1b: '100 ps', 0x1c: '250 ps', 0x1d: '1 ns', 0x1e: '2.5 ns',
  0x1f: '10 ns', 0x20: '25 ns', 0x21: '100 ns', 0x22: '250 ns', 0x23: '1 us', 0x24: '2.5 us', 0x25: '10 us',
  0x26: '25 us', 0x27: '100 us', 0x28: '250 us', 0x29: '1 ms', 0x2a: '2.5 ms', 0x2b: '10 ms', 0x2c: '25 ms',
  0x2d: '100 ms', 0x2e: '250 ms', 0x2f: '1 s', 0x30: '10 s', 0x31: '>10 s', 0xfe: 'unknown',
};

export function clockClassText(value: number | null): string {
  if (value === null) return '-';
  const meaning = clockClasses[value];
  return meaning ? `${value} (${meaning})` : String(value);
}

export function clockAccuracyText(value: number | null, ascii: boolean): string {
  if (value === null) return '-';
  const meaning = clockAccuracies[value];
  const hex = `0x${value.toString(16).toUpperCase().padStart(2, '0')}`;
  if (!meaning) return String(value);
  const within = meaning === 'unknown' || meaning.startsWith('>') ? meaning : `within ${meaning}`;
  return `${hex} (${ascii ? within : within.replace(' us', ' µs')})`;
}

export function ptpPortDetail(port: PtpPort, history: readonly (number | null)[], nowMs: number, opts: PtpRenderOptions & { sparkWidth: number }): Field[] {
  const off = (ns: number | null) => formatOffset(ns, { ascii: opts.ascii });
  const style = styleOf(ptpSyncStates, port.syncState);
  const num = (n: number | null): Line => [cell(formatNumber(n), n === null ? 'muted' : undefined)];
  const text = (s: string | null): Line => [cell(s ?? '-', s === null ? 'muted' : undefined)];
  const gm = flagStyle(port.gmPresent, ['yes', 'no']);
  const spark = sparkline(history, opts.sparkWidth, opts.glyphs.sparkRamp);
  const updatedAgo = port.lastUpdate === null ? null : ageText(port.lastUpdate * 1000, nowMs);
  return [
    { label: 'port id', value: [cell(String(port.id))] },
    { label: 'sync state', value: [cell(`${style.symbol} ${style.word}`, style.token, true)] },
    { label: 'offset', value: [cell(off(port.offsetFromMasterNs), undefined, true), cell(spark ? ` ${spark}` : '', 'accent')] },
    { label: 'path delay', value: [cell(off(port.meanPathDelayNs))] },
    { label: 'master offset', value: [cell(off(port.masterOffsetNs))] },
    { label: 'steps removed', value: num(port.stepsRemoved) },
    { label: 'rate offset', value: [cell(formatPpm(port.cumulativeRateOffsetPpm))] },
    { label: 'GM present', value: [cell(`${gm.symbol} ${gm.word}`, gm.token)] },
    { label: 'GM identity', value: text(port.gmIdentity) },
    { label: 'parent port', value: text(port.parentPortIdentity) },
    { label: 'GM class', value: [cell(clockClassText(port.gmClockClass))] },
    { label: 'GM accuracy', value: [cell(clockAccuracyText(port.gmClockAccuracy, opts.ascii))] },
    { label: 'GM variance', value: num(port.gmOffsetScaledLogVariance) },
    { label: 'GM priority', value: [cell(`${formatNumber(port.gmPriority1)} / ${formatNumber(port.gmPriority2)}`)] },
    { label: 'updated', value: updatedAgo === null ? text(null) : [cell(`${updatedAgo} ago`)] },
  ];
}
