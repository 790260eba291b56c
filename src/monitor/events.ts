/**
 * Events: the device API has none, so they are derived by diffing each snapshot against the
 * previous one. Each event has a time and a severity; the log is a bounded ring, so a monitor
 * left open for a week holds the same memory as after an hour.
 */
import type { GnssReceiver, NtpSource, PtpPort, SectionName, Snapshot } from '../model/snapshot.js';
import { defaultThresholds, ptpStateSeverity, type Thresholds } from './health.js';
import { lookupTable } from '../model/lookup.js';
import { antennaStates, ntpOverallStates, ntpSourceStates, stateWord } from '../view/theme.js';

export type EventSeverity = 'info' | 'ok' | 'warning' | 'critical';

export interface MonitorEvent {
  at: number;
  severity: EventSeverity;
  section: SectionName | 'device';
  message: string;
}

type Ev = Omit<MonitorEvent, 'at'>;
type Diff = (prev: Snapshot, next: Snapshot, t: Thresholds) => Ev[];

/** Items of a list keyed by identity, so additions/removals and changes can be told apart. */
function pairs<T>(prev: T[], next: T[], key: (x: T) => string): [T, T][] {
  const before = new Map(prev.map((x) => [key(x), x]));
  return next.flatMap((x) => {
    const p = before.get(key(x));
    return p ? [[p, x] as [T, T]] : [];
  });
}

const ntpSources = (s: Snapshot): NtpSource[] => (s.ntp.ok ? s.ntp.data.sources : []);
const receivers = (s: Snapshot): GnssReceiver[] => (s.gnss.ok ? s.gnss.data.receivers : []);
const ports = (s: Snapshot): PtpPort[] => (s.ptp.ok ? s.ptp.data.ports.filter((p) => p.ok) : []);
const rx = (r: GnssReceiver) => `GNSS receiver ${r.id ?? '?'}`;

const ntpStateSeverity = lookupTable<EventSeverity>({
  'Best source': 'ok',
  'Combined with best': 'ok',
  Selectable: 'info',
  'False ticker': 'warning',
  'Too variable': 'warning',
  'Not selectable': 'warning',
});

const antennaSeverity = (a: string | null): EventSeverity => (a === 'normal' ? 'ok' : a === 'open' || a === 'short-circuited' ? 'critical' : 'info');

function band(value: number | null, warn: number, crit: number): 0 | 1 | 2 | null {
  if (value === null) return null;
  const a = Math.abs(value);
  return a > crit ? 2 : a > warn ? 1 : 0;
}
const bandSeverity: EventSeverity[] = ['ok', 'warning', 'critical'];
const bandWord = ['back within', 'over the warning threshold', 'over the critical threshold'];

/** The diff rules, one per kind of change. */
export const diffs: Diff[] = [
  // NTP
  (p, n) =>
    p.ntp.ok && n.ntp.ok && p.ntp.data.overallStatus !== n.ntp.data.overallStatus
      ? [{ severity: n.ntp.data.overallStatus === 'Synchronized' ? 'ok' : 'critical', section: 'ntp', message: `NTP ${stateWord(ntpOverallStates, p.ntp.data.overallStatus)} -> ${stateWord(ntpOverallStates, n.ntp.data.overallStatus)}` }]
      : [],
  (p, n) =>
    p.ntp.ok && n.ntp.ok && p.ntp.data.syncSource !== n.ntp.data.syncSource
      ? [{ severity: n.ntp.data.syncSource ? 'warning' : 'critical', section: 'ntp', message: `sync source ${p.ntp.data.syncSource ?? 'none'} -> ${n.ntp.data.syncSource ?? 'none'}` }]
      : [],
  (p, n) =>
    pairs(ntpSources(p), ntpSources(n), (s) => s.name).flatMap(([a, b]): Ev[] =>
      a.state !== b.state ? [{ severity: ntpStateSeverity[b.state ?? ''] ?? 'info', section: 'ntp' as const, message: `source ${b.name}: ${stateWord(ntpSourceStates, a.state)} -> ${stateWord(ntpSourceStates, b.state)}` }] : [],
    ),
  (p, n) =>
    pairs(ntpSources(p), ntpSources(n), (s) => s.name).flatMap(([a, b]): Ev[] => {
      if (a.reachCount === null || b.reachCount === null) return [];
      if (a.reachCount > 0 && b.reachCount === 0) return [{ severity: 'critical' as const, section: 'ntp' as const, message: `source ${b.name} unreachable (reach 000)` }];
      if (a.reachCount === 0 && b.reachCount > 0) return [{ severity: 'ok' as const, section: 'ntp' as const, message: `source ${b.name} reachable again (reach ${b.reach})` }];
      return [];
    }),
  // GNSS
  (p, n) =>
    pairs(receivers(p), receivers(n), (r) => String(r.id)).flatMap(([a, b]): Ev[] => {
      const out: Ev[] = [];
      if (a.status !== b.status) out.push({ severity: b.status === 'working' ? 'ok' : b.status === 'offline' ? 'critical' : 'info', section: 'gnss', message: `${rx(b)} ${a.status ?? '?'} -> ${b.status ?? '?'}` });
      if (a.antenna !== b.antenna && b.antenna !== null) out.push({ severity: antennaSeverity(b.antenna), section: 'gnss', message: `${rx(b)} antenna ${stateWord(antennaStates, a.antenna)} -> ${stateWord(antennaStates, b.antenna)}` });
      if (a.ppsValid !== b.ppsValid && b.ppsValid !== null) out.push({ severity: b.ppsValid ? 'ok' : 'warning', section: 'gnss', message: `${rx(b)} PPS ${b.ppsValid ? 'valid again' : 'invalid'}` });
      if (a.gpsLeapSeconds !== null && b.gpsLeapSeconds !== null && a.gpsLeapSeconds !== b.gpsLeapSeconds) out.push({ severity: 'warning', section: 'gnss', message: `${rx(b)} GPS leap seconds ${a.gpsLeapSeconds} -> ${b.gpsLeapSeconds}` });
      if (a.bdsLeapSeconds !== null && b.bdsLeapSeconds !== null && a.bdsLeapSeconds !== b.bdsLeapSeconds) out.push({ severity: 'warning', section: 'gnss', message: `${rx(b)} BDS leap seconds ${a.bdsLeapSeconds} -> ${b.bdsLeapSeconds}` });
      return out;
    }),
  (p, n, t) =>
    pairs(receivers(p), receivers(n), (r) => String(r.id)).flatMap(([a, b]): Ev[] => {
      if (a.satellitesTotal === null || b.satellitesTotal === null) return [];
      if (a.satellitesTotal >= t.minSats && b.satellitesTotal < t.minSats) return [{ severity: 'warning' as const, section: 'gnss' as const, message: `${rx(b)} satellites ${a.satellitesTotal} -> ${b.satellitesTotal} (below ${t.minSats})` }];
      if (a.satellitesTotal < t.minSats && b.satellitesTotal >= t.minSats) return [{ severity: 'ok' as const, section: 'gnss' as const, message: `${rx(b)} satellites back to ${b.satellitesTotal}` }];
      return [];
    }),
  // PTP
  (p, n, t) =>
    pairs(ports(p), ports(n), (x) => String(x.id)).flatMap(([a, b]): Ev[] => {
      const out: Ev[] = [];
      const port = `PTP port ${b.id}`;
      if (a.syncState !== b.syncState) out.push({ severity: severityOfPtpState(b.syncState), section: 'ptp', message: `${port} ${a.syncState ?? '?'} -> ${b.syncState ?? '?'}` });
      if (a.gmIdentity !== b.gmIdentity && a.gmIdentity !== null && b.gmIdentity !== null) out.push({ severity: 'warning', section: 'ptp', message: `${port} grandmaster changed ${a.gmIdentity} -> ${b.gmIdentity}` });
      if (a.gmClockClass !== b.gmClockClass && a.gmClockClass !== null && b.gmClockClass !== null) out.push({ severity: b.gmClockClass === 6 ? 'ok' : 'warning', section: 'ptp', message: `${port} grandmaster clockClass ${a.gmClockClass} -> ${b.gmClockClass}` });
      const ba = band(a.offsetFromMasterNs, t.ptpWarnNs, t.ptpCritNs);
      const bb = band(b.offsetFromMasterNs, t.ptpWarnNs, t.ptpCritNs);
      if (ba !== null && bb !== null && ba !== bb) out.push({ severity: bandSeverity[bb]!, section: 'ptp', message: `${port} offset ${bandWord[bb]}${bb === 0 ? ' thresholds' : ''} (${b.offsetFromMasterNs} ns)` });
      return out;
    }),
  // Reachability and permissions, per operation
  (p, n) =>
    (['ntp', 'gnss', 'ptp', 'alarm'] as const).flatMap((name): Ev[] => {
      const a = p[name];
      const b = n[name];
      const kindA = a.ok ? 'ok' : a.error.kind;
      const kindB = b.ok ? 'ok' : b.error.kind;
      if (kindA === kindB) return [];
      if (b.ok) return [{ severity: 'ok' as const, section: name, message: `${name.toUpperCase()} answers again` }];
      const what = b.error.kind === 'network' ? 'unreachable' : b.error.kind === 'auth' ? 'refused' : 'failing';
      return [{ severity: b.error.kind === 'network' ? ('critical' as const) : ('warning' as const), section: name, message: `${name.toUpperCase()} ${what}: ${b.error.message}` }];
    }),
];

function severityOfPtpState(state: string | null): EventSeverity {
  return ptpStateSeverity[state ?? 'UNKNOWN'] ?? 'warning';
}

export function diffSnapshots(prev: Snapshot, next: Snapshot, at: number, t: Thresholds = defaultThresholds): MonitorEvent[] {
  return diffs.flatMap((d) => d(prev, next, t).map((e) => ({ ...e, at })));
}

/** A bounded event log, newest last. */
export class EventLog {
  private readonly items: MonitorEvent[] = [];
  version = 0;
  constructor(readonly capacity = 500) {}

  add(events: MonitorEvent[]): void {
    if (events.length === 0) return;
    this.items.push(...events);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
    this.version++;
  }

  /** Newest first. */
  newestFirst(limit = this.capacity): MonitorEvent[] {
    return this.items.slice(-limit).reverse();
  }

  get length(): number {
    return this.items.length;
  }
}

/**
 * Time in state: for every source, receiver and port, since when it has been in its current
 * state, counted from the first poll that saw it so.
 */
export class StateClock {
  private readonly since = new Map<string, { state: string; since: number }>();

  observe(snapshot: Snapshot, at: number): void {
    const seen = new Set<string>();
    const mark = (key: string, state: string | null) => {
      if (state === null) return;
      seen.add(key);
      const cur = this.since.get(key);
      if (!cur || cur.state !== state) this.since.set(key, { state, since: at });
    };
    for (const s of ntpSources(snapshot)) mark(stateKey.ntp(s.name), s.state);
    for (const r of receivers(snapshot)) mark(stateKey.gnss(r.id), r.status);
    for (const p of ports(snapshot)) mark(stateKey.ptp(p.id), p.syncState);
    // Only sections that answered prove an item is gone.
    for (const key of this.since.keys()) {
      const section = key.split(':')[0] as SectionName;
      if (snapshot[section].ok && !seen.has(key)) this.since.delete(key);
    }
  }

  /** Epoch ms since when `key` has been in its current state. */
  get(key: string): { state: string; since: number } | undefined {
    return this.since.get(key);
  }
}

export const stateKey = {
  ntp: (name: string) => `ntp:${name}`,
  gnss: (id: number | null) => `gnss:${id ?? '?'}`,
  ptp: (id: number) => `ptp:${id}`,
};
