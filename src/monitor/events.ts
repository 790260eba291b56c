/**
 * Events: the device API has none, so they are derived by diffing each snapshot against the
 * previous one. Each event has a time and a severity; the log is a bounded ring, so a monitor
 * left open for a week holds the same memory as after an hour.
 */
import type { GnssReceiver, NtpSource, PtpPort, SectionName, Snapshot, SnapshotError } from '../model/snapshot.js';
import { decodeClockClass } from '../model/decoders.js';
import { formatOffset } from '../model/units.js';
import { clockClassSeverity, defaultThresholds, ptpStateSeverity, type Thresholds } from './health.js';
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

/**
 * Items of a list keyed by identity, so additions/removals and changes can be told apart. A key
 * the device repeats (two receivers with id 0) pairs its items in order, the first with the
 * first: an unchanged list gives no change.
 */
function pairs<T>(prev: T[], next: T[], key: (x: T) => string): [T, T][] {
  // Most often the same items in the same order: paired by place, which is by key and rank.
  if (prev.length === next.length && next.every((x, i) => key(x) === key(prev[i]!))) return next.map((x, i) => [prev[i]!, x]);
  const before = new Map<string, T[]>();
  for (const x of prev) {
    const k = key(x);
    const same = before.get(k);
    if (same) same.push(x);
    else before.set(k, [x]);
  }
  const taken = new Map<string, number>();
  return next.flatMap((x) => {
    const k = key(x);
    const rank = taken.get(k) ?? 0;
    taken.set(k, rank + 1);
    const p = before.get(k)?.[rank];
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

/** As the health table has it: a fault on the working receiver is critical, on a standby one a warning. */
const antennaSeverity = (a: string | null, inUse: boolean): EventSeverity =>
  a === 'normal' ? 'ok' : a === 'open' || a === 'short-circuited' ? (inUse ? 'critical' : 'warning') : 'info';

function band(value: number | null, warn: number, crit: number): 0 | 1 | 2 | null {
  if (value === null) return null;
  const a = Math.abs(value);
  return a > crit ? 2 : a > warn ? 1 : 0;
}
const bandSeverity: EventSeverity[] = ['ok', 'warning', 'critical'];
const bandWord = ['back within', 'over the warning threshold', 'over the critical threshold'];

type ItemSection = 'ntp' | 'gnss' | 'ptp';
/**
 * The sections of items (NTP sources, GNSS receivers, PTP ports): their contents give events and
 * time in state; the alarm configuration neither.
 */
const itemSections: readonly ItemSection[] = ['ntp', 'gnss', 'ptp'];

/**
 * The diff rules of each section's contents, one per kind of change. Each reads its own section
 * alone, so a section that is the very same data in both snapshots gives no event.
 */
export const diffs: Record<ItemSection, Diff[]> = {
  ntp: [
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
        // The sync source going silent matters; a backup going silent is worth knowing, no more.
        if (a.reachCount > 0 && b.reachCount === 0) return [{ severity: a.isSyncSource || b.isSyncSource ? ('warning' as const) : ('info' as const), section: 'ntp' as const, message: `source ${b.name} unreachable (reach 000)` }];
        if (a.reachCount === 0 && b.reachCount > 0) return [{ severity: 'ok' as const, section: 'ntp' as const, message: `source ${b.name} reachable again (reach ${b.reach})` }];
        return [];
      }),
  ],
  gnss: [
    (p, n) =>
      pairs(receivers(p), receivers(n), (r) => String(r.id)).flatMap(([a, b]): Ev[] => {
        const out: Ev[] = [];
        if (a.status !== b.status) out.push({ severity: b.status === 'working' ? 'ok' : b.status === 'offline' ? 'critical' : 'info', section: 'gnss', message: `${rx(b)} ${a.status ?? '?'} -> ${b.status ?? '?'}` });
        const inUse = b.status === 'working';
        if (a.antenna !== b.antenna && b.antenna !== null) out.push({ severity: antennaSeverity(b.antenna, inUse), section: 'gnss', message: `${rx(b)} antenna ${stateWord(antennaStates, a.antenna)} -> ${stateWord(antennaStates, b.antenna)}` });
        if (a.ppsValid !== b.ppsValid && b.ppsValid !== null) out.push({ severity: b.ppsValid ? 'ok' : inUse ? 'critical' : 'warning', section: 'gnss', message: `${rx(b)} PPS ${b.ppsValid ? 'valid again' : 'invalid'}` });
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
  ],
  ptp: [
    (p, n, t) =>
      pairs(ports(p), ports(n), (x) => String(x.id)).flatMap(([a, b]): Ev[] => {
        const out: Ev[] = [];
        const port = `PTP port ${b.id}`;
        if (a.syncState !== b.syncState) out.push({ severity: severityOfPtpState(b.syncState), section: 'ptp', message: `${port} ${a.syncState ?? '?'} -> ${b.syncState ?? '?'}` });
        // Without a grandmaster a port reports its own clock (G.8275.1 T-TSC: class 255, its own
        // identity): losing or finding the grandmaster is the event, not a "switchover" to or from itself.
        if (a.gmPresent !== null && b.gmPresent !== null && a.gmPresent !== b.gmPresent) {
          out.push(b.gmPresent ? { severity: 'ok', section: 'ptp', message: `${port} sees a grandmaster again (${b.gmIdentity ?? '?'}, clockClass ${b.gmClockClass ?? '?'})` } : { severity: 'critical', section: 'ptp', message: `${port} lost its grandmaster (gmPresent false)` });
        } else if (a.gmPresent !== false && b.gmPresent !== false) {
          if (a.gmIdentity !== b.gmIdentity && a.gmIdentity !== null && b.gmIdentity !== null) out.push({ severity: 'warning', section: 'ptp', message: `${port} grandmaster changed ${a.gmIdentity} -> ${b.gmIdentity}` });
          if (a.parentPortIdentity !== b.parentPortIdentity && a.parentPortIdentity !== null && b.parentPortIdentity !== null) out.push({ severity: 'warning', section: 'ptp', message: `${port} parent port changed ${a.parentPortIdentity} -> ${b.parentPortIdentity}` });
          if (a.stepsRemoved !== b.stepsRemoved && a.stepsRemoved !== null && b.stepsRemoved !== null) out.push({ severity: 'info', section: 'ptp', message: `${port} steps removed ${a.stepsRemoved} -> ${b.stepsRemoved}` });
          if (a.gmClockClass !== b.gmClockClass && a.gmClockClass !== null && b.gmClockClass !== null) out.push({ severity: clockClassEventSeverity(b.gmClockClass), section: 'ptp', message: `${port} grandmaster clockClass ${a.gmClockClass} -> ${b.gmClockClass}` });
        }
        const ba = band(a.offsetFromMasterNs, t.ptpWarnNs, t.ptpCritNs);
        const bb = band(b.offsetFromMasterNs, t.ptpWarnNs, t.ptpCritNs);
        if (ba !== null && bb !== null && ba !== bb) out.push({ severity: bandSeverity[bb]!, section: 'ptp', message: `${port} offset ${bandWord[bb]}${bb === 0 ? ' thresholds' : ''} (${formatOffset(b.offsetFromMasterNs)})` });
        return out;
      }),
    // PTP ports that discovery adds or drops
    (p, n) => ptpPortsFoundOrGone(p, n),
  ],
};

/**
 * Failures and recoveries, per operation and per PTP port: always against the snapshot just
 * before (the content diffs above may compare with older, last known data).
 */
export const transitionDiffs: Diff[] = [
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
  (p, n) => ptpPortErrors(p, n),
];

/** A port that rediscovery finds, or drops (unless it was already reported failing). */
function ptpPortsFoundOrGone(p: Snapshot, n: Snapshot): Ev[] {
  if (!p.ptp.ok || !n.ptp.ok) return [];
  const before = new Map(p.ptp.data.ports.map((x) => [x.id, x]));
  const after = new Set(n.ptp.data.ports.map((x) => x.id));
  const found = [...after].filter((id) => !before.has(id)).map((id): Ev => ({ severity: 'info', section: 'ptp', message: `PTP port ${id} found` }));
  const gone = [...before.values()]
    .filter((x) => !after.has(x.id) && x.ok)
    .map((x): Ev => ({ severity: 'warning', section: 'ptp', message: `PTP port ${x.id} gone (no longer a slave port)` }));
  return [...found, ...gone];
}

/** A port that stops answering (40004: no longer a slave port) or fails on its own, and back. */
function ptpPortErrors(p: Snapshot, n: Snapshot): Ev[] {
  if (!p.ptp.ok || !n.ptp.ok) return [];
  const before = new Map(p.ptp.data.ports.map((x) => [x.id, x]));
  return n.ptp.data.ports.flatMap((port): Ev[] => {
    const was = before.get(port.id);
    if (!was || was.ok === port.ok) return [];
    if (port.ok) return [{ severity: 'ok', section: 'ptp', message: `PTP port ${port.id} answers again` }];
    return port.error ? [{ severity: 'warning', section: 'ptp', message: `PTP port ${port.id} ${portErrorWords(port.error)}` }] : [];
  });
}

const portErrorWords = (e: SnapshotError) => (e.kind === 'device' && e.code === '40004' ? 'gone (not found: 40004)' : `cannot be read: ${e.message}`);

/** A class change is as bad as the class it changes to (the health table's meaning of it). */
function clockClassEventSeverity(cls: number): EventSeverity {
  const decoded = decodeClockClass(cls);
  const sev = decoded ? clockClassSeverity[decoded.condition] : 'warning';
  return sev === 'ok' ? 'ok' : sev;
}

function severityOfPtpState(state: string | null): EventSeverity {
  return ptpStateSeverity[state ?? 'UNKNOWN'] ?? 'warning';
}

/**
 * The events between two snapshots. `contentBase` is what the contents are compared with: after
 * an outage or a section's failure, the last data known before it (so a port that went LOST ->
 * STABLE while the device could not be read still gives its event), as pause/resume does.
 * `sections`: the only sections whose contents may differ between `contentBase` and `next` (the
 * caller knows the others are the very same data): the others' diffs are not run.
 */
export function diffSnapshots(
  prev: Snapshot,
  next: Snapshot,
  at: number,
  t: Thresholds = defaultThresholds,
  contentBase: Snapshot = prev,
  sections: readonly SectionName[] = itemSections,
): MonitorEvent[] {
  const content = itemSections.filter((n) => sections.includes(n)).flatMap((n) => diffs[n].flatMap((d) => d(contentBase, next, t)));
  return [...content, ...transitionDiffs.flatMap((d) => d(prev, next, t))].map((e) => ({ ...e, at }));
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

export interface InState {
  state: string;
  /** Epoch ms of the first poll that saw this state. */
  since: number;
  /** The state began before `since` (already so at start, or changed unseen during a gap). */
  atLeast?: true;
}

/**
 * Time in state: for every source, receiver and port, since when it has been in its current
 * state, counted from the first poll that saw it so.
 */
export class StateClock {
  private readonly since = new Map<string, InState>();
  /** Sections that answered at the previous observation: a change seen after a gap is dated late. */
  private answered = new Set<SectionName>();

  /**
   * `sections`: the only sections that may differ from the snapshot observed before (the caller
   * knows the others are the very same data): the others' items are left as they are.
   */
  observe(snapshot: Snapshot, at: number, sections: readonly SectionName[] = itemSections): void {
    const seen = new Set<string>();
    const mark = (key: string, state: string | null) => {
      // A key the device repeats (two receivers with id 0) is the first item's.
      if (state === null || seen.has(key)) return;
      seen.add(key);
      const cur = this.since.get(key);
      if (cur && cur.state === state) return;
      // First seen (at start, or a new item), or changed while its section could not be read:
      // the state began before `at`, so the time in it is a lower bound.
      const exact = cur !== undefined && this.answered.has(key.split(':')[0] as SectionName);
      this.since.set(key, exact ? { state, since: at } : { state, since: at, atLeast: true });
    };
    const looked = itemSections.filter((n) => sections.includes(n));
    if (looked.includes('ntp')) for (const s of ntpSources(snapshot)) mark(stateKey.ntp(s.name), s.state);
    if (looked.includes('gnss')) for (const r of receivers(snapshot)) mark(stateKey.gnss(r.id), r.status);
    if (looked.includes('ptp')) for (const p of ports(snapshot)) mark(stateKey.ptp(p.id), p.syncState);
    // Only sections that answered prove an item is gone.
    const proving = looked.filter((n) => snapshot[n].ok);
    if (proving.length > 0) {
      for (const key of this.since.keys()) {
        if (!seen.has(key) && proving.includes(key.slice(0, key.indexOf(':')) as ItemSection)) this.since.delete(key);
      }
    }
    this.answered = new Set(itemSections.filter((n) => snapshot[n].ok));
  }

  /** Epoch ms since when `key` has been in its current state. */
  get(key: string): InState | undefined {
    return this.since.get(key);
  }
}

export const stateKey = {
  ntp: (name: string) => `ntp:${name}`,
  gnss: (id: number | null) => `gnss:${id ?? '?'}`,
  ptp: (id: number) => `ptp:${id}`,
};
