/**
 * The header's one-line verdict ("NTP synced to ntp1 · GNSS 1 working, 33 sats · PTP 1/2
 * STABLE"), built from the state alone so every layout, down to the one-screen summary, says
 * the same thing. Pure.
 */
import type { SectionName } from '../model/snapshot.js';
import type { MonitorState } from '../monitor/state.js';
import type { Token } from './theme.js';
import type { Cell, Line } from './cell.js';
import { cell, joinCells, lineText } from './cell.js';

export const GNSS_NO_RECEIVER_CODE = '40003';

function failed(name: string, state: MonitorState, section: SectionName): Cell | null {
  const s = state[section];
  if (s.data !== null) return null;
  if (s.error) return cell(`${name} ${s.error.kind} error`, 'bad');
  return cell(`${name} waiting`, 'muted');
}

export function ntpVerdict(state: MonitorState): Cell {
  const early = failed('NTP', state, 'ntp');
  if (early) return early;
  const data = state.ntp.data!;
  switch (data.overallStatus) {
    case 'Synchronized':
      return cell(data.syncSource ? `NTP synced to ${data.syncSource}` : 'NTP synced', 'ok');
    case 'Not synchronized':
      return cell('NTP not synced', 'bad');
    default:
      return cell(`NTP ${data.overallStatus ?? 'status unknown'}`, 'warn');
  }
}

export function gnssVerdict(state: MonitorState): Cell {
  const err = state.gnss.error;
  if (state.gnss.data === null && err?.kind === 'device' && err.code === GNSS_NO_RECEIVER_CODE) return cell('GNSS none', 'muted');
  const early = failed('GNSS', state, 'gnss');
  if (early) return early;
  const receivers = state.gnss.data!.receivers;
  if (receivers.length === 0) return cell('GNSS no receivers', 'muted');
  const working = receivers.filter((r) => r.status === 'working');
  if (working.length === 0) return cell(`GNSS 0/${receivers.length} working`, 'bad');
  const sats = Math.max(...working.map((r) => r.satellitesTotal ?? 0));
  const trouble = working.some((r) => r.antenna === 'open' || r.antenna === 'short-circuited' || r.ppsValid === false);
  const token: Token = trouble || sats === 0 ? 'warn' : 'ok';
  return cell(`GNSS ${working.length} working, ${sats} sats`, token);
}

export function ptpVerdict(state: MonitorState): Cell {
  const early = failed('PTP', state, 'ptp');
  if (early) return early;
  const ports = state.ptp.data!.ports;
  if (ports.length === 0) return cell('PTP no slave ports', 'muted');
  const stable = ports.filter((p) => p.ok && p.syncState === 'STABLE').length;
  const token: Token = stable === ports.length ? 'ok' : stable === 0 ? 'bad' : 'warn';
  return cell(`PTP ${stable}/${ports.length} STABLE`, token);
}

export function verdictParts(state: MonitorState, separator = '·'): Line {
  return joinCells([[ntpVerdict(state)], [gnssVerdict(state)], [ptpVerdict(state)]], ` ${separator} `);
}

export function verdictLine(state: MonitorState): string {
  return lineText(verdictParts(state));
}
