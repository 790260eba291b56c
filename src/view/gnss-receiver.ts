/** One GNSS receiver -> tab label, fields and satellite lines. Pure. */
import { leapSecondProblem } from '../model/decoders.js';
import type { GnssReceiver } from '../model/snapshot.js';
import { formatNumber } from '../model/units.js';
import type { Glyphs } from './theme.js';
import { antennaStates, flagStyle, gnssStatuses, styleOf } from './theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { lineWidth } from './fit.js';
import type { Field } from './field.js';
import { sparkline } from './sparkline.js';

export const CONSTELLATIONS = ['gps', 'glonass', 'bds', 'galileo'] as const;
export type Constellation = (typeof CONSTELLATIONS)[number];
export const constellationNames: Record<Constellation, string> = { gps: 'GPS', glonass: 'GLONASS', bds: 'BDS', galileo: 'Galileo' };

export interface GnssRenderOptions {
  ascii: boolean;
  glyphs: Glyphs;
  /** Time in the current status, e.g. "2h14m" (live monitor only). */
  inState?: string | null;
}

export function receiverLabel(rx: GnssReceiver, index: number): string {
  return `rx ${rx.id ?? `#${index}`}`;
}

const TAB_GAP = '   ';

/** Each receiver's tab ("▶ rx 0 * working"), the selected one marked. */
function receiverTabGroups(receivers: readonly GnssReceiver[], selected: number, glyphs: Glyphs): Line[] {
  return receivers.map((rx, i) => {
    const style = styleOf(gnssStatuses, rx.status);
    const isSel = i === selected;
    return [
      cell(isSel ? `${glyphs.selected} ` : '  ', 'focus', true),
      cell(`${receiverLabel(rx, i)} `, isSel ? 'text' : 'muted', isSel),
      cell(`${style.symbol} ${style.word}`, style.token, isSel),
    ];
  });
}

/** "   ←/→ switch", after the last tab. */
function switchHint(glyphs: Glyphs): Line {
  return [cell(`${TAB_GAP}${glyphs.left}/${glyphs.right} switch`, 'muted')];
}

/**
 * "▶ rx 0 * working     rx 1 - standby   ←/→ switch": every receiver, the selected one marked, in
 * lines of `width` (Infinity: one line), a tab never split across two, for a pane that has the lines:
 * one line would cut a receiver's status. At most `maxLines`, the last holding the tabs left
 * (cut where it is drawn). The switch hint (also in the help) ends the last line when it fits
 * there and is left out otherwise, never given a line of its own.
 */
export function gnssReceiverTabLines(receivers: readonly GnssReceiver[], selected: number, glyphs: Glyphs, width: number, maxLines = Number.POSITIVE_INFINITY): Line[] {
  const lines: Line[] = [];
  let used = 0;
  for (const group of receiverTabGroups(receivers, selected, glyphs)) {
    const w = lineWidth(group);
    const current = lines[lines.length - 1];
    if (current && (used + TAB_GAP.length + w <= width || lines.length >= maxLines)) {
      current.push(cell(TAB_GAP), ...group);
      used += TAB_GAP.length + w;
    } else {
      lines.push([...group]);
      used = w;
    }
  }
  const hint = switchHint(glyphs);
  if (receivers.length > 1 && used + lineWidth(hint) <= width) lines[lines.length - 1]!.push(...hint);
  return lines;
}

/** Signed decimal degrees, 5 decimals (about 1 m). */
export function degrees(value: number, ascii: boolean): string {
  return `${value >= 0 ? '+' : ''}${formatNumber(value, 5)}${ascii ? '' : '°'}`;
}

/** "2026-11-22 03:04:05Z" from the model's ISO text. */
export function utcText(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/**
 * The receiver's fields. A working receiver shows every field ("-" where the device sent
 * nothing, which is itself a finding); any other receiver shows only what it has, so a standby
 * receiver is a few honest lines instead of rows of dashes.
 */
export function gnssReceiverFields(rx: GnssReceiver, opts: GnssRenderOptions): Field[] {
  const status = styleOf(gnssStatuses, rx.status);
  const antenna = styleOf(antennaStates, rx.antenna);
  const pps = flagStyle(rx.ppsValid, ['valid', 'invalid']);
  const full = rx.status === 'working';
  const fields: Field[] = [
    { label: 'status', value: [cell(`${status.symbol} ${status.word}`, status.token, true), cell(opts.inState ? ` for ${opts.inState}` : '', 'muted')] },
  ];
  const add = (label: string, present: boolean, value: Line) => {
    if (present || full) fields.push({ label, value });
  };
  add('antenna', rx.antenna !== null, [cell(`${antenna.symbol} ${antenna.word}`, antenna.token)]);
  add('PPS', rx.ppsValid !== null, [cell(`${pps.symbol} ${pps.word}`, pps.token)]);
  // A receiver without a fix (standby, offline) fills position fields with 0: not a place on Earth.
  const reported = (v: number | null): v is number => v !== null && (full || v !== 0);
  const lat = reported(rx.latitudeDeg) || reported(rx.longitudeDeg) ? rx.latitudeDeg : null;
  const lon = lat === null ? null : rx.longitudeDeg;
  add('position', lat !== null || lon !== null, [
    cell(lat === null ? '-' : degrees(lat, opts.ascii)),
    cell(' '),
    cell(lon === null ? '-' : degrees(lon, opts.ascii)),
  ]);
  const alt = reported(rx.altitudeM) ? rx.altitudeM : null;
  add('altitude', alt !== null, [cell(alt === null ? '-' : `${formatNumber(alt, 1)} m`)]);
  const dops: [string, number | null][] = [['H', rx.hdop], ['V', rx.vdop], ['P', rx.pdop]];
  add('DOP', dops.some(([, v]) => v !== null), [cell(dops.map(([k, v]) => `${k} ${formatNumber(v)}`).join('  '))]);
  add('UTC', rx.utc !== null, [cell(rx.utc === null ? '-' : utcText(rx.utc))]);
  add('leap seconds', rx.gpsLeapSeconds !== null || rx.bdsLeapSeconds !== null, [
    cell(`GPS ${formatNumber(rx.gpsLeapSeconds)}  BDS ${formatNumber(rx.bdsLeapSeconds)}`),
  ]);
  return fields;
}

/** "~ GPS leap seconds 17 (GPS - UTC is 18 s since 2017-01-01)": a receiver with the wrong leap seconds. */
export function leapSecondWarning(rx: GnssReceiver): Line | null {
  const text = leapSecondProblem(rx.gpsLeapSeconds, rx.bdsLeapSeconds);
  return text ? [cell(`~ ${text}`, 'warn')] : null;
}

export function hasSatelliteCounts(rx: GnssReceiver): boolean {
  return rx.satellitesTotal !== null || CONSTELLATIONS.some((c) => rx.satellites[c] !== null);
}

/** One line per constellation: name, count, count history; then the total. */
export function gnssSatelliteLines(
  rx: GnssReceiver,
  history: (key: Constellation | 'total') => readonly (number | null)[],
  opts: GnssRenderOptions & { sparkWidth: number },
): Line[] {
  if (!hasSatelliteCounts(rx)) return [[cell('no satellite counts', 'muted')]];
  const row = (name: string, count: number | null, series: readonly (number | null)[], bold = false): Line => [
    cell(`${name.padEnd(8)}`, 'muted', bold),
    cell(formatNumber(count).padStart(3), count === null ? 'muted' : count === 0 ? 'warn' : undefined, bold),
    cell(' '),
    cell(sparkline(series, opts.sparkWidth, opts.glyphs.sparkRamp, { floor: 0 }), 'accent'),
  ];
  return [
    ...CONSTELLATIONS.map((c) => row(constellationNames[c], rx.satellites[c], history(c))),
    row('total', rx.satellitesTotal, history('total'), true),
  ];
}
