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
import type { Severity } from '../monitor/health.js';
import { paneTitles } from '../ui/ui-state.js';
import { ageText } from './time.js';

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
  // An open or shorted antenna is CRITICAL in the rule table: red, not yellow.
  const antenna = working.some((r) => r.antenna === 'open' || r.antenna === 'short-circuited');
  const token: Token = antenna ? 'bad' : working.some((r) => r.ppsValid === false) || sats === 0 ? 'warn' : 'ok';
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

const tokenRank: Partial<Record<Token, number>> = { ok: 1, warn: 2, bad: 3 };
const findingToken: Record<Severity, Token> = { ok: 'ok', warning: 'warn', critical: 'bad' };

/** The redder of two tokens (muted and the like count as green). */
function worse(a: Token | undefined, b: Token): Token {
  return (tokenRank[b] ?? 0) > (tokenRank[a ?? 'text'] ?? 0) ? b : (a ?? b);
}

/**
 * One section's part of the header, never greener than the verdict says about that section.
 * Data kept from before the section failed is no longer the device's word: the part then says
 * only how old it is ("PTP stale 12s"); the findings of that data stay in the verdict.
 */
export function sectionPart(part: Cell, section: SectionName, state: MonitorState, nowMs?: number): Cell {
  const s = state[section];
  const worst = state.verdict.findings.reduce<Token | undefined>((t, f) => (f.section === section ? worse(t, findingToken[f.severity]) : t), undefined);
  if (s.error && s.data !== null && s.receivedAt !== null && nowMs !== undefined) {
    return cell(`${paneTitles[section]} stale ${ageText(s.receivedAt, nowMs)}`, worse(worst, 'warn'));
  }
  return worst ? { ...part, token: worse(part.token, worst) } : part;
}

export function verdictParts(state: MonitorState, separator = '·', nowMs?: number): Line {
  const part = (c: Cell, section: SectionName) => [sectionPart(c, section, state, nowMs)];
  return joinCells([part(ntpVerdict(state), 'ntp'), part(gnssVerdict(state), 'gnss'), part(ptpVerdict(state), 'ptp')], ` ${separator} `);
}

export function verdictLine(state: MonitorState): string {
  return lineText(verdictParts(state));
}
