/**
 * The fleet view's model: one row per device (name, verdict and worst finding, NTP sync source
 * and offset, GNSS working/satellites, PTP STABLE of total and the worst |offset| with a
 * sparkline, grandmaster identity, age of the last answer), the order of the rows, and the
 * summary line with the grandmaster agreement. Pure: device states in, cells out; the TUI
 * and the tests read the same rows.
 */
import type { MonitorState } from '../monitor/state.js';
import { severityRank, type Severity } from '../monitor/health.js';
import { seriesKey, type Ring } from '../monitor/history.js';
import { sectionNames } from '../monitor/store.js';
import { formatOffset } from '../model/units.js';
import type { Cell, Line } from './cell.js';
import { cell, joinCells } from './cell.js';
import { sparkline } from './sparkline.js';
import type { TableColumn, TableRow } from './table-layout.js';
import type { Glyphs } from './theme.js';
import { verdictStyles } from './theme.js';
import { ageText, clockTime } from './time.js';
import { GNSS_NO_RECEIVER_CODE } from './verdict.js';
import { wrapLine } from './fit.js';

/** One device of the fleet as the view sees it. */
export interface FleetMember {
  name: string;
  state: MonitorState;
}

/** Where a device stands: a verdict, not answering, or no complete poll yet. */
export type FleetStatus = Severity | 'down' | 'waiting';

export type FleetColumnKey = 'name' | 'verdict' | 'finding' | 'age' | 'ptp' | 'ptpOffset' | 'ntp' | 'gnss' | 'spark' | 'gm';

/**
 * The columns, left to right. `drop`: which go first when the terminal is narrow (highest
 * first), so 80 columns keep name, verdict, the worst finding and the age, and wider
 * terminals add PTP, NTP, GNSS, the grandmaster and the sparkline.
 */
export const fleetColumns: readonly TableColumn<FleetColumnKey>[] = [
  { key: 'name', header: 'DEVICE', maxWidth: 22 },
  { key: 'verdict', header: 'STATE' },
  { key: 'finding', header: 'WORST FINDING', flex: true, minWidth: 24, maxWidth: 56 },
  { key: 'age', header: 'AGE', align: 'right', drop: 1 },
  { key: 'ptp', header: 'PTP', drop: 2 },
  { key: 'ptpOffset', header: '|OFFSET|', align: 'right', drop: 3 },
  { key: 'ntp', header: 'NTP SOURCE', maxWidth: 20, drop: 4 },
  { key: 'gnss', header: 'GNSS', drop: 5 },
  { key: 'gm', header: 'GRANDMASTER', drop: 6 },
  { key: 'spark', header: 'PTP TREND', drop: 7 },
];

export const SPARK_WIDTH = 12;

export interface FleetRow {
  name: string;
  status: FleetStatus;
  /** Position on the command line / in the config file: the stable order among equals. */
  index: number;
  cells: TableRow<FleetColumnKey>;
}

export interface FleetViewOptions {
  ascii: boolean;
  glyphs: Glyphs;
}

const statusWords: Record<FleetStatus, { text: string; token: Cell['token'] }> = {
  ok: { text: `${verdictStyles.ok.symbol} OK`, token: 'ok' },
  warning: { text: `${verdictStyles.warning.symbol} WARN`, token: 'warn' },
  critical: { text: `${verdictStyles.critical.symbol} CRIT`, token: 'bad' },
  down: { text: '! DOWN', token: 'bad' },
  waiting: { text: '- wait', token: 'muted' },
};

/** Worst first: not answering, critical, warning, waiting, OK. */
const statusRank: Record<FleetStatus, number> = { down: 4, critical: 3, warning: 2, waiting: 1, ok: 0 };

export function fleetStatus(state: MonitorState): FleetStatus {
  if (state.unreachable) return 'down';
  // The verdict is evaluated once every operation has a result; before that it says nothing.
  if (!sectionNames.every((n) => state[n].attemptedAt !== null)) return 'waiting';
  return state.verdict.severity;
}

/** The grandmaster identity a device follows: that of its ports that see one (the first). */
export function deviceGm(state: MonitorState): string | null {
  for (const p of state.ptp.data?.ports ?? []) if (p.ok && p.gmPresent !== false && p.gmIdentity) return p.gmIdentity;
  return null;
}

function worstPtpOffset(state: MonitorState): { id: number; ns: number } | null {
  let worst: { id: number; ns: number } | null = null;
  for (const p of state.ptp.data?.ports ?? []) {
    if (!p.ok || p.offsetFromMasterNs === null) continue;
    const ns = Math.abs(p.offsetFromMasterNs);
    if (!worst || ns > worst.ns) worst = { id: p.id, ns };
  }
  return worst;
}

function findingCell(state: MonitorState, status: FleetStatus, now: number): Cell {
  if (state.unreachable) {
    return cell(`no answer since ${clockTime(state.unreachable.since)} (${ageText(state.unreachable.since, now)}): ${state.unreachable.reason}`, 'bad');
  }
  if (status === 'waiting') return cell('waiting for the first answers', 'muted');
  const worst = state.verdict.findings[0];
  if (!worst) return cell('-', 'muted');
  return cell(worst.message, worst.severity === 'critical' ? 'bad' : 'warn');
}

function ntpCell(state: MonitorState, ascii: boolean): Cell {
  const data = state.ntp.data;
  if (!data) return cell(state.ntp.error ? 'unreadable' : '-', state.ntp.error ? 'bad' : 'muted');
  const best = data.sources.find((s) => s.isSyncSource);
  if (!best) return cell(data.overallStatus === 'Synchronized' ? 'synced' : 'not synced', data.overallStatus === 'Synchronized' ? 'ok' : 'bad');
  return cell(`${best.name} ${fleetOffset(best.offsetNs, ascii)}`);
}

/**
 * An offset at the fleet's precision: two significant digits ("+230ns", "-1.20µs"). A row is a
 * glance at the order of magnitude; the third digit wanders with every answer and would redraw
 * the row each time (the single-device panes show the full figure).
 */
export function fleetOffset(ns: number | null, ascii: boolean): string {
  if (ns === null || !Number.isFinite(ns) || ns === 0) return formatOffset(ns, { ascii });
  return formatOffset(Number(ns.toPrecision(2)), { ascii });
}

/**
 * The age of the last answer. While answers keep coming (younger than two intervals, at least
 * 2 s) it reads "<Ns", which does not change from one second to the next; beyond that, the
 * seconds count as everywhere else, so a device falling behind shows at once.
 */
export function fleetAge(state: MonitorState, now: number): string {
  if (state.lastUpdateAt === null) return '-';
  const fresh = Math.max(2, Math.ceil((2 * state.intervalMs) / 1000));
  if (!state.unreachable && now - state.lastUpdateAt < fresh * 1000) return `<${fresh}s`;
  return ageText(state.lastUpdateAt, now);
}

function gnssCell(state: MonitorState): Cell {
  const data = state.gnss.data;
  const err = state.gnss.error;
  if (!data) {
    if (err?.kind === 'device' && err.code === GNSS_NO_RECEIVER_CODE) return cell('none', 'muted');
    return cell(err ? 'unreadable' : '-', err ? 'bad' : 'muted');
  }
  const working = data.receivers.filter((r) => r.status === 'working');
  const sats = working.length > 0 ? Math.max(...working.map((r) => r.satellitesTotal ?? 0)) : 0;
  const token = working.length === 0 ? 'bad' : sats === 0 ? 'warn' : undefined;
  return cell(`${working.length}/${data.receivers.length} ${sats} sats`, token);
}

function ptpCell(state: MonitorState): Cell {
  const data = state.ptp.data;
  if (!data) return cell(state.ptp.error ? 'unreadable' : '-', state.ptp.error ? 'bad' : 'muted');
  if (data.ports.length === 0) return cell('no ports', 'muted');
  const stable = data.ports.filter((p) => p.ok && p.syncState === 'STABLE').length;
  return cell(`${stable}/${data.ports.length} STABLE`, stable === data.ports.length ? 'ok' : stable === 0 ? 'bad' : 'warn');
}

export function fleetRow(member: FleetMember, index: number, now: number, opts: FleetViewOptions): FleetRow {
  const { state } = member;
  const status = fleetStatus(state);
  const worst = worstPtpOffset(state);
  const word = statusWords[status];
  const age = fleetAge(state, now);
  return {
    name: member.name,
    status,
    index,
    cells: {
      name: cell(member.name, 'accent', true),
      verdict: cell(word.text, word.token, status !== 'ok'),
      finding: findingCell(state, status, now),
      age: cell(age, state.unreachable ? 'bad' : 'muted'),
      ptp: ptpCell(state),
      ptpOffset: cell(worst ? fleetOffset(worst.ns, opts.ascii) : '-', worst ? undefined : 'muted'),
      ntp: ntpCell(state, opts.ascii),
      gnss: gnssCell(state),
      spark: cell(worst ? sparkline(trendPoints(state.history.get(seriesKey.ptpOffset(worst.id)), state.intervalMs), SPARK_WIDTH, opts.glyphs.sparkRamp, { floor: 0 }) : '', 'accent'),
      gm: cell(deviceGm(state) ?? '-', deviceGm(state) ? undefined : 'muted'),
    },
  };
}

/** Polls per point of a row's trend. */
export const TREND_STEP = 5;

/**
 * A row's trend: the largest |offset| of each step of TREND_STEP intervals, the steps aligned
 * on the clock (so every row moves on at the same moment), the last SPARK_WIDTH steps. A point
 * per poll would shift the whole sparkline with every answer, most of the fleet view's bytes;
 * this way it shifts once per step and in between only the last point may rise.
 */
export function trendPoints(ring: Ring | undefined, intervalMs: number): (number | null)[] {
  if (!ring) return [];
  const step = Math.max(1, intervalMs) * TREND_STEP;
  const { times, values } = ring.samples();
  const points = new Map<number, number | null>();
  for (let i = 0; i < times.length; i++) {
    const bucket = Math.floor(times[i]! / step);
    if (!Number.isFinite(bucket)) continue;
    const v = Math.abs(values[i]!);
    const was = points.get(bucket) ?? null;
    points.set(bucket, Number.isNaN(v) ? was : Math.max(was ?? 0, v));
  }
  if (points.size === 0) return [];
  const last = Math.max(...points.keys());
  return Array.from({ length: SPARK_WIDTH }, (_, i) => points.get(last - SPARK_WIDTH + 1 + i) ?? null);
}

export type FleetSort = 'severity' | 'name';
export const fleetSorts: readonly FleetSort[] = ['severity', 'name'];

/** Severity: worst first, the given order among equals. Name: alphabetical. */
export function sortFleetRows(rows: readonly FleetRow[], by: FleetSort): FleetRow[] {
  const byIndex = (a: FleetRow, b: FleetRow) => a.index - b.index;
  const compare =
    by === 'name'
      ? (a: FleetRow, b: FleetRow) => a.name.localeCompare(b.name) || byIndex(a, b)
      : (a: FleetRow, b: FleetRow) => statusRank[b.status] - statusRank[a.status] || byIndex(a, b);
  return [...rows].sort(compare);
}

export function fleetRows(members: readonly FleetMember[], now: number, by: FleetSort, opts: FleetViewOptions): FleetRow[] {
  return sortFleetRows(
    members.map((m, i) => fleetRow(m, i, now, opts)),
    by,
  );
}

/**
 * fleetRows that keeps each device's row while its state and the clock's visible effect on it
 * (the age, the outage's "since") are unchanged: the per-second render of fifty rows then
 * rebuilds only the rows whose device answered, and unchanged rows stay the same objects.
 */
export function fleetRowCache(): (members: readonly FleetMember[], now: number, by: FleetSort, opts: FleetViewOptions) => FleetRow[] {
  const kept = new Map<string, { state: MonitorState; index: number; opts: FleetViewOptions; clock: string; row: FleetRow }>();
  return (members, now, by, opts) => {
    const rows = members.map((m, i) => {
      const clock = `${fleetAge(m.state, now)}|${m.state.unreachable ? ageText(m.state.unreachable.since, now) : ''}`;
      const old = kept.get(m.name);
      if (old && old.state === m.state && old.index === i && old.opts === opts && old.clock === clock) return old.row;
      const row = fleetRow(m, i, now, opts);
      kept.set(m.name, { state: m.state, index: i, opts, clock, row });
      return row;
    });
    if (kept.size > members.length) for (const name of kept.keys()) if (!members.some((m) => m.name === name)) kept.delete(name);
    return sortFleetRows(rows, by);
  };
}

/** Which grandmaster each device follows; more than one identity in the fleet is a finding. */
export interface GmAgreement {
  /** Identity -> the devices that follow it, in fleet order. */
  groups: { gm: string; devices: string[] }[];
  agree: boolean;
}

export function gmAgreement(members: readonly FleetMember[]): GmAgreement {
  const groups = new Map<string, string[]>();
  for (const m of members) {
    const gm = deviceGm(m.state);
    if (gm === null) continue;
    groups.set(gm, [...(groups.get(gm) ?? []), m.name]);
  }
  const list = [...groups].map(([gm, devices]) => ({ gm, devices })).sort((a, b) => b.devices.length - a.devices.length);
  return { groups: list, agree: list.length <= 1 };
}

/** Counts per status, in the summary's order. */
export function statusCounts(rows: readonly FleetRow[]): Record<FleetStatus, number> {
  const counts: Record<FleetStatus, number> = { ok: 0, warning: 0, critical: 0, down: 0, waiting: 0 };
  for (const r of rows) counts[r.status]++;
  return counts;
}

/** "5 devices · 2 OK · 1 WARNING · 1 CRITICAL · 1 not answering · GM 001122.fffe.334455 on 4" */
export function fleetSummary(rows: readonly FleetRow[], gm: GmAgreement, glyphs: Glyphs): Line {
  const n = statusCounts(rows);
  const count = (k: number, word: string, token: Cell['token']): Line => (k > 0 ? [cell(`${k} ${word}`, token, true)] : []);
  const gmPart: Line =
    gm.groups.length === 0
      ? [cell('no grandmaster seen', 'muted')]
      : gm.agree
        ? [cell(`GM ${gm.groups[0]!.gm} on ${gm.groups[0]!.devices.length}`, 'ok')]
        : [cell(`! ${gm.groups.length} different grandmasters`, 'bad', true)];
  return joinCells(
    [
      [cell(`${rows.length} device${rows.length === 1 ? '' : 's'}`, 'title', true)],
      count(n.ok, 'OK', 'ok'),
      count(n.warning, 'WARNING', 'warn'),
      count(n.critical, 'CRITICAL', 'bad'),
      count(n.down, 'not answering', 'bad'),
      count(n.waiting, 'waiting', 'muted'),
      gmPart,
    ],
    ` ${glyphs.separator} `,
  );
}

/** The finding's own line when the fleet does not agree on a grandmaster, else null. */
export function gmDisagreementLine(gm: GmAgreement): Line | null {
  if (gm.agree) return null;
  // The largest group by its count, the others by their devices' names: those are the odd ones.
  const [most, ...others] = gm.groups;
  return [
    cell('! GM disagreement: ', 'bad', true),
    cell([`${most!.gm} on ${most!.devices.length}`, ...others.map((g) => `${g.gm} on ${g.devices.join(', ')}`)].join('; '), 'bad'),
  ];
}

/**
 * The selected device's findings, each whole (wrapped to `width`), for the lines the rows leave
 * free: the row's worst finding is cut to its column, the technician reads it whole here. At most
 * `lines` lines; the last says how many more there are when they do not all fit.
 */
export function selectedFindingsLines(member: FleetMember | undefined, width: number, lines: number): Line[] {
  if (!member || lines < 2) return [];
  const findings = member.state.verdict.findings;
  const title: Line = [cell(`findings of ${member.name}`, 'title', true), cell(findings.length === 0 ? ': none' : ` (${findings.length}; Enter opens the device)`, 'muted')];
  const blocks = findings.map((f) => {
    const style = verdictStyles[f.severity];
    return wrapLine([cell(`${style.symbol} `, style.token, true), cell(f.message, style.token)], width, 2);
  });
  const out: Line[] = [title];
  for (let i = 0; i < blocks.length; i++) {
    const rest = blocks.length - i;
    const room = lines - out.length - (i + 1 < blocks.length ? 1 : 0);
    if (blocks[i]!.length > room) {
      out.push([cell(`↓ ${rest} more (Enter opens the device)`, 'muted')]);
      break;
    }
    out.push(...blocks[i]!);
  }
  return out.slice(0, lines);
}
