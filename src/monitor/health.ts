/**
 * The health verdict: OK / WARNING / CRITICAL with reasons, from ONE rule table. The live
 * header, `--once`, `check` and the exporter's verdict gauge all read it, so they cannot disagree.
 *
 * Every finding names its rule and its subject ("ptp port 0", "gnss rx 1", "ntp source GPS",
 * "device"), so a finding can be followed from one poll to the next by rule + subject.
 *
 * Where a local GNSS fault explains trouble downstream on this device (the NTP reference clock it
 * feeds, NTP synchronization), the findings merge, cause first, but only when the topology and
 * the order in time fit: see mergeCauses.
 */
import { cappedNotice } from '../model/capped.js';
import { decodeClockClass, decodeLastUpdate, leapSecondProblem, type ClockClassCondition } from '../model/decoders.js';
import { sectionNames, type GnssReceiver, type NtpSource, type PtpPort, type SectionName, type Snapshot } from '../model/snapshot.js';
import { operations } from '../api/endpoints.js';
import { refusedEverywhere } from '../api/errors.js';
import { lookupTable } from '../model/lookup.js';
import { formatDuration, formatMagnitude, formatOffset, formatPollInterval } from '../model/units.js';
import { ntpOverallStates, ntpSourceStates, stateWord } from '../view/theme.js';

export type Severity = 'ok' | 'warning' | 'critical';
export const severityRank: Record<Severity, number> = { ok: 0, warning: 1, critical: 2 };

export interface Thresholds {
  /** |offsetFromMaster| of a PTP port, ns. */
  ptpWarnNs: number;
  ptpCritNs: number;
  /** |offset| of the NTP sync source, ns. */
  ntpWarnNs: number;
  ntpCritNs: number;
  /** Fewer satellites than this on a working receiver is a warning. */
  minSats: number;
  /** A PTP lastUpdate further than this from this computer's clock is a warning (at least 10 poll intervals). */
  ptpMaxAgeS: number;
  /** A receiver's UTC further than this from this computer's clock is a warning. */
  utcMaxDiffS: number;
  /** Data unchanged for at least this long (and several polls) is frozen. */
  frozenAfterS: number;
}

/**
 * PTP: 100 ns / 1 µs, set for a G.8275.1 slave (the README says why); NTP: 10 ms / 100 ms.
 * The age and difference limits leave room for this computer's own clock error.
 */
export const defaultThresholds: Thresholds = {
  ptpWarnNs: 100,
  ptpCritNs: 1_000,
  ntpWarnNs: 10_000_000,
  ntpCritNs: 100_000_000,
  minSats: 4,
  ptpMaxAgeS: 60,
  utcMaxDiffS: 5,
  frozenAfterS: 10,
};

/** What a finding is about; used to merge cause and effect. */
export type Topic =
  | 'unreachable'
  | 'unreadable'
  | 'list-capped'
  | 'ntp-sync'
  | 'ntp-source'
  | 'ntp-offset'
  | 'ntp-contradiction'
  | 'refclock'
  | 'gnss-working'
  | 'gnss-antenna'
  | 'gnss-pps'
  | 'gnss-sats'
  | 'gnss-leap'
  | 'gnss-flags'
  | 'gnss-standby'
  | 'gnss-time'
  | 'ptp-state'
  | 'ptp-offset'
  | 'ptp-gm-class'
  | 'ptp-gm-absent'
  | 'ptp-delay'
  | 'ptp-time'
  | 'frozen';

export interface Finding {
  rule: string;
  severity: Exclude<Severity, 'ok'>;
  section: SectionName | 'device';
  /** What it is about, stable from poll to poll: "ptp port 0", "gnss rx 1", "ntp source GPS", "device". */
  subject: string;
  topic: Topic;
  message: string;
  /** Findings merged under this one as its effects (it is their likely or possible cause). */
  effects?: Finding[];
}

export interface Verdict {
  severity: Severity;
  /** Worst first. */
  findings: Finding[];
}

/**
 * What only successive answers tell (frozen data, the sync source that was): found by the
 * monitor's SuccessiveAnswers, judged here by the rules that read them.
 */
export interface Observation {
  kind: 'ptp-frozen' | 'gnss-frozen' | 'ntp-frozen' | 'ntp-former-sync-source';
  section: SectionName;
  subject: string;
  message: string;
  /** The NTP source it is about, if any. */
  source?: string;
}

/** What a verdict needs besides the snapshot. All optional: one-shot modes have little of it. */
export interface HealthContext {
  /** This computer's clock, epoch ms, when the answers were read; default the snapshot's takenAt. */
  now?: number;
  /** When each section's answer arrived, where it differs from `now` (the live monitor reads them one by one). */
  answeredAt?: Partial<Record<SectionName, number>>;
  /** The poll interval, ms; one-shot modes have none. */
  intervalMs?: number;
  /** What successive answers revealed (live monitor, replay, exporter). */
  observed?: readonly Observation[];
  /**
   * Epoch ms each finding (by findingKey) was first seen; a finding not in the map starts now.
   * Without it (one-shot modes) the order in time is unknown and a cause is only "possibly" one.
   */
  firstSeen?: ReadonlyMap<string, number>;
}

export interface RuleContext {
  thresholds: Thresholds;
  now: number;
  answeredAt: (section: SectionName) => number;
  intervalMs: number | null;
  observed: readonly Observation[];
}

type Draft = Omit<Finding, 'rule' | 'section'>;

export interface Rule {
  id: string;
  section: SectionName | 'device';
  /** One line for the README and help: what the rule checks. */
  checks: string;
  evaluate: (s: Snapshot, c: RuleContext) => Draft[];
}

/** Subjects, as findings name them (lower case, stable): the key a finding is followed by. */
export const subjects = {
  device: 'device',
  section: (n: SectionName) => n,
  ntpSource: (name: string) => `ntp source ${name}`,
  gnssRx: (id: number | null) => `gnss rx ${id ?? '?'}`,
  ptpPort: (id: number) => `ptp port ${id}`,
};

export const findingKey = (f: Pick<Finding, 'rule' | 'subject'>): string => `${f.rule}|${f.subject}`;

const abs = Math.abs;
const working = (r: GnssReceiver) => r.status === 'working';
const portName = (p: PtpPort) => `PTP port ${p.id}`;
export const rxName = (r: Pick<GnssReceiver, 'id'>) => `GNSS receiver ${r.id ?? '?'}`;
const isRefclock = (src: NtpSource) => src.mode === 'Reference clock';
const sourceTopic = (src: NtpSource): Topic => (isRefclock(src) ? 'refclock' : 'ntp-source');

function overThreshold(value: number | null, warn: number, crit: number): Exclude<Severity, 'ok'> | null {
  if (value === null) return null;
  if (abs(value) > crit) return 'critical';
  if (abs(value) > warn) return 'warning';
  return null;
}

/** "11h17m behind this computer": a difference between two clocks, neither taken as the truth. */
export function clockDifference(deviceMs: number, computerMs: number): string {
  const diffS = (deviceMs - computerMs) / 1000;
  const size = formatDuration(Math.abs(diffS) < 10 ? Math.round(Math.abs(diffS) * 10) / 10 : Math.floor(Math.abs(diffS)));
  return `${size} ${diffS < 0 ? 'behind' : 'ahead of'} this computer`;
}

const allUnreachable = (s: Snapshot) => sectionNames.every((n) => !s[n].ok && s[n].error.kind === 'network');
/** Every operation refused (401/403): not logged in, not four separate permission problems. */
const allRefused = (s: Snapshot) => sectionNames.every((n) => !s[n].ok && s[n].error.kind === 'auth');
/** Every operation HTTP 404: the base URL is wrong (e.g. /api/v1 pasted into it), not four missing pages. */
const allNotFound = (s: Snapshot) => sectionNames.every((n) => !s[n].ok && s[n].error.kind === 'http' && s[n].error.code === '404');

/**
 * The one line for a base URL where the API is not: the fix first (a narrow header cuts the end
 * of the line), then the URL tried.
 */
export function apiNotFoundMessage(device: string): string {
  const tried = `${device}${operations.ntp.path}`;
  const pasted = /\/api(\/v\d+)?\/?$/i.exec(device);
  const where = pasted
    ? `try ${device.slice(0, pasted.index)}, without ${pasted[0].replace(/\/$/, '')}`
    : `check the base URL ${device}`;
  return `device API not found: ${where} (HTTP 404 from every operation; tried ${tried})`;
}

const ntpSources = (s: Snapshot): NtpSource[] => (s.ntp.ok ? s.ntp.data.sources : []);
const receivers = (s: Snapshot): GnssReceiver[] => (s.gnss.ok ? s.gnss.data.receivers : []);
const okPorts = (s: Snapshot): PtpPort[] => (s.ptp.ok ? s.ptp.data.ports.filter((p) => p.ok) : []);
const syncSources = (s: Snapshot): NtpSource[] => ntpSources(s).filter((src) => src.isSyncSource);

/** Severity of the grandmaster's clockClass, by what the class means (decoders.ts). */
export const clockClassSeverity: Record<ClockClassCondition, Severity> = {
  locked: 'ok',
  holdover: 'warning',
  'holdover-out-of-spec': 'critical',
  'free-running': 'critical',
  'slave-only': 'critical',
  'other-profile': 'warning',
  reserved: 'warning',
};

export const ptpStateSeverity = lookupTable<Severity>({
  STABLE: 'ok',
  ACQUIRED: 'warning',
  ACQUIRING: 'warning',
  UNKNOWN: 'warning',
  LOST: 'critical',
  NEVER: 'critical',
});

/** A sync source silent for more polls than this has lost the lower half of its reach register. */
export const SILENT_POLLS = 4;

/** Observations of one kind, as warnings of the rule that reads them, while their section answers. */
function observedAs(kind: Observation['kind'], topic: (s: Snapshot, o: Observation) => Topic) {
  return (s: Snapshot, c: RuleContext): Draft[] =>
    c.observed
      .filter((o) => o.kind === kind && s[o.section].ok)
      .map((o) => ({ severity: 'warning' as const, subject: o.subject, topic: topic(s, o), message: o.message }));
}

export const rules: Rule[] = [
  {
    id: 'device-unreachable',
    section: 'device',
    checks: 'the device answers at all (CRITICAL)',
    evaluate: (s) => {
      if (!allUnreachable(s)) return [];
      const first = s.ntp.ok ? null : s.ntp.error.message;
      return [{ severity: 'critical', subject: subjects.device, topic: 'unreachable', message: `device unreachable: ${first}` }];
    },
  },
  {
    id: 'not-logged-in',
    section: 'device',
    checks: 'the device accepts the login (every operation refused: not logged in, CRITICAL)',
    evaluate: (s) =>
      allRefused(s) && !s.ntp.ok
        ? [{ severity: 'critical', subject: subjects.device, topic: 'unreadable', message: refusedEverywhere(sectionNames.map((n) => (s[n].ok ? '' : (s[n].error.code ?? ''))), s.ntp.error.message) }]
        : [],
  },
  {
    id: 'api-not-found',
    section: 'device',
    checks: 'the device API is at the base URL (every operation HTTP 404: CRITICAL)',
    evaluate: (s) => (allNotFound(s) ? [{ severity: 'critical', subject: subjects.device, topic: 'unreadable', message: apiNotFoundMessage(s.device) }] : []),
  },
  {
    id: 'section-unreadable',
    section: 'device',
    checks: 'each operation can be read (refused login, HTTP or malformed answers: WARNING)',
    evaluate: (s) => {
      if (allUnreachable(s) || allRefused(s) || allNotFound(s)) return [];
      return sectionNames.flatMap((n) => {
        const sec = s[n];
        if (sec.ok || sec.error.kind === 'device') return [];
        return [{ severity: 'warning' as const, subject: subjects.section(n), topic: 'unreadable' as const, message: `${n.toUpperCase()} cannot be read: ${sec.error.message}` }];
      });
    },
  },
  // NTP ---------------------------------------------------------------------------------------
  {
    id: 'ntp-unsynchronized',
    section: 'ntp',
    checks: 'NTP overallStatus is Synchronized (CRITICAL)',
    evaluate: (s) =>
      s.ntp.ok && s.ntp.data.overallStatus !== 'Synchronized'
        ? [{ severity: 'critical', subject: subjects.section('ntp'), topic: 'ntp-sync', message: `NTP ${stateWord(ntpOverallStates, s.ntp.data.overallStatus, 'status unknown')}` }]
        : [],
  },
  {
    id: 'ntp-contradiction',
    section: 'ntp',
    checks: 'overallStatus, syncSourceName and isSyncSource agree (WARNING)',
    evaluate: (s) => {
      if (!s.ntp.ok) return [];
      const { overallStatus, syncSource } = s.ntp.data;
      const marked = syncSources(s);
      const says: string[] = [];
      const synced = overallStatus === 'Synchronized';
      if (synced && syncSource === null && marked.length === 0) says.push('Synchronized but names no sync source');
      if (!synced && (syncSource !== null || marked.length > 0)) says.push(`${stateWord(ntpOverallStates, overallStatus, 'status unknown')} yet names sync source ${syncSource ?? marked[0]!.name}`);
      if (marked.length > 1) says.push(`${marked.length} sources marked as the sync source (${marked.map((m) => m.name).join(', ')})`);
      else if (syncSource !== null && marked.length === 1 && marked[0]!.name !== syncSource) says.push(`syncSourceName ${syncSource} but source ${marked[0]!.name} is marked in use`);
      else if (syncSource !== null && marked.length === 0 && !ntpSources(s).some((src) => src.name === syncSource)) says.push(`sync source ${syncSource} is not among the sources`);
      return says.map((what) => ({ severity: 'warning' as const, subject: subjects.section('ntp'), topic: 'ntp-contradiction' as const, message: `NTP contradicts itself: ${what}` }));
    },
  },
  {
    id: 'ntp-sync-source-stratum',
    section: 'ntp',
    checks: 'the sync source is not at stratum 16, unsynchronized (CRITICAL)',
    evaluate: (s) =>
      syncSources(s)
        .filter((src) => src.stratum !== null && src.stratum >= 16)
        .map((src) => ({ severity: 'critical' as const, subject: subjects.ntpSource(src.name), topic: sourceTopic(src), message: `NTP sync source ${src.name} is at stratum ${src.stratum} (unsynchronized)` })),
  },
  {
    id: 'ntp-bad-source',
    section: 'ntp',
    checks: 'no source is a False ticker or Too variable (WARNING)',
    evaluate: (s) =>
      ntpSources(s)
        .filter((src) => src.state === 'False ticker' || src.state === 'Too variable')
        .map((src) => ({ severity: 'warning' as const, subject: subjects.ntpSource(src.name), topic: 'ntp-source' as const, message: `NTP source ${src.name} is ${stateWord(ntpSourceStates, src.state)}` })),
  },
  {
    id: 'ntp-refclock-unselectable',
    section: 'ntp',
    checks: 'reference clocks are selectable (WARNING)',
    evaluate: (s) =>
      ntpSources(s)
        .filter((src) => isRefclock(src) && src.state === 'Not selectable')
        .map((src) => ({
          severity: 'warning' as const,
          subject: subjects.ntpSource(src.name),
          topic: 'refclock' as const,
          message: `reference clock ${src.name} not selectable${src.reachCount === 0 ? ' (unreachable, reach 000)' : ''}`,
        })),
  },
  {
    id: 'ntp-unreachable',
    section: 'ntp',
    checks: 'every source answers some of its last 8 polls: reach 000 is a WARNING, for the sync source too',
    evaluate: (s) =>
      ntpSources(s)
        // An unselectable reference clock says so above, reach included.
        .filter((src) => src.reachCount === 0 && !(isRefclock(src) && src.state === 'Not selectable'))
        .map((src) => ({
          severity: 'warning' as const,
          subject: subjects.ntpSource(src.name),
          topic: sourceTopic(src),
          message: `NTP ${src.isSyncSource ? 'sync source' : 'source'} ${src.name} unreachable (reach 000)`,
        })),
  },
  {
    id: 'ntp-sync-source-silent',
    section: 'ntp',
    checks: `the sync source was heard within ${SILENT_POLLS} of its poll intervals (lastRx; WARNING)`,
    evaluate: (s) =>
      syncSources(s)
        .filter((src) => src.reachCount !== 0 && src.lastRxSeconds !== null && src.pollSeconds !== null && src.lastRxSeconds > SILENT_POLLS * src.pollSeconds)
        .map((src) => ({
          severity: 'warning' as const,
          subject: subjects.ntpSource(src.name),
          topic: sourceTopic(src),
          message: `NTP sync source ${src.name} last heard ${formatDuration(src.lastRxSeconds)} ago (polled every ${formatPollInterval(src.pollSeconds)})`,
        })),
  },
  {
    id: 'ntp-former-sync-source',
    section: 'ntp',
    checks: 'the source that was the sync source did not become Not selectable (seen over successive polls; WARNING)',
    // A reference clock not selectable says so already (ntp-refclock-unselectable).
    evaluate: (s, c) => observedAs('ntp-former-sync-source', () => 'ntp-source')(s, c).filter((f) => !ntpSources(s).some((src) => isRefclock(src) && subjects.ntpSource(src.name) === f.subject)),
  },
  {
    id: 'ntp-offset',
    section: 'ntp',
    checks: '|offset| of the sync source under --ntp-warn / --ntp-crit',
    evaluate: (s, c) => {
      const src = syncSources(s)[0];
      const sev = overThreshold(src?.offsetNs ?? null, c.thresholds.ntpWarnNs, c.thresholds.ntpCritNs);
      return sev && src ? [{ severity: sev, subject: subjects.ntpSource(src.name), topic: 'ntp-offset', message: `NTP offset ${formatOffset(src.offsetNs)} to ${src.name}` }] : [];
    },
  },
  {
    id: 'ntp-frozen',
    section: 'ntp',
    checks: 'a reachable source changes within its poll interval (every field identical longer than 1.5 polls and --frozen-after: WARNING)',
    evaluate: observedAs('ntp-frozen', () => 'frozen'),
  },
  // GNSS --------------------------------------------------------------------------------------
  {
    id: 'gnss-none-working',
    section: 'gnss',
    checks: 'at least one GNSS receiver is working (CRITICAL)',
    evaluate: (s) =>
      s.gnss.ok && s.gnss.data.receivers.length > 0 && !s.gnss.data.receivers.some(working)
        ? [{ severity: 'critical', subject: subjects.section('gnss'), topic: 'gnss-working', message: 'no GNSS receiver working' }]
        : [],
  },
  {
    id: 'gnss-antenna',
    section: 'gnss',
    checks: 'no antenna is open or short-circuited (working receiver CRITICAL, standby WARNING)',
    evaluate: (s) =>
      receivers(s)
        .filter((r) => r.antenna === 'open' || r.antenna === 'short-circuited')
        .map((r) =>
          working(r)
            ? { severity: 'critical' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-antenna' as const, message: `${rxName(r)} antenna ${r.antenna}` }
            : { severity: 'warning' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-standby' as const, message: `${rxName(r)} (${r.status ?? 'not working'}) antenna ${r.antenna}` },
        ),
  },
  {
    id: 'gnss-antenna-pps-contradiction',
    section: 'gnss',
    checks: 'an open or shorted antenna does not come with a valid PPS (one of the two flags is wrong; WARNING)',
    evaluate: (s) =>
      receivers(s)
        .filter((r) => (r.antenna === 'open' || r.antenna === 'short-circuited') && r.ppsValid === true)
        .map((r) => ({ severity: 'warning' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-flags' as const, message: `${rxName(r)} antenna ${r.antenna} yet PPS valid: one of the two flags is wrong` })),
  },
  {
    id: 'gnss-pps',
    section: 'gnss',
    checks: 'PPS is valid on working receivers (CRITICAL)',
    evaluate: (s) =>
      receivers(s)
        .filter((r) => working(r) && r.ppsValid === false)
        .map((r) => ({ severity: 'critical' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-pps' as const, message: `${rxName(r)} PPS invalid` })),
  },
  {
    id: 'gnss-satellites',
    section: 'gnss',
    checks: 'working receivers track at least --min-sats satellites (WARNING)',
    evaluate: (s, c) =>
      receivers(s)
        .filter((r) => working(r) && r.satellitesTotal !== null && r.satellitesTotal < c.thresholds.minSats)
        .map((r) => ({ severity: 'warning' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-sats' as const, message: `${rxName(r)} tracks ${r.satellitesTotal} satellites (< ${c.thresholds.minSats})` })),
  },
  {
    id: 'gnss-leap-seconds',
    section: 'gnss',
    checks: 'leap seconds are the current ones: GPS - UTC 18 s, BDS - UTC 4 s (WARNING)',
    evaluate: (s) =>
      receivers(s).flatMap((r) => {
        const m = leapSecondProblem(r.gpsLeapSeconds, r.bdsLeapSeconds);
        return m ? [{ severity: 'warning' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-leap' as const, message: `${rxName(r)}: ${m}` }] : [];
      }),
  },
  {
    id: 'gnss-frozen',
    section: 'gnss',
    checks: "a receiver's UTC advances between polls (unchanged for --frozen-after over 3 polls: WARNING)",
    evaluate: observedAs('gnss-frozen', () => 'frozen'),
  },
  {
    id: 'gnss-utc-difference',
    section: 'gnss',
    checks: "a receiver's UTC is within --utc-max-diff of this computer's clock (WARNING)",
    evaluate: (s, c) =>
      receivers(s).flatMap((r) => {
        const utcMs = r.utc === null ? Number.NaN : Date.parse(r.utc);
        if (!Number.isFinite(utcMs)) return [];
        const at = c.answeredAt('gnss');
        if (abs(utcMs - at) <= c.thresholds.utcMaxDiffS * 1000) return [];
        return [{ severity: 'warning' as const, subject: subjects.gnssRx(r.id), topic: 'gnss-time' as const, message: `${rxName(r)} UTC is ${clockDifference(utcMs, at)}` }];
      }),
  },
  // PTP ---------------------------------------------------------------------------------------
  {
    id: 'ptp-state',
    section: 'ptp',
    checks: 'PTP ports are STABLE (LOST/NEVER CRITICAL, ACQUIRING/ACQUIRED/UNKNOWN WARNING)',
    evaluate: (s) =>
      okPorts(s).flatMap((p) => {
        const sev = ptpStateSeverity[p.syncState ?? 'UNKNOWN'] ?? 'warning';
        return sev === 'ok' ? [] : [{ severity: sev, subject: subjects.ptpPort(p.id), topic: 'ptp-state' as const, message: `${portName(p)} ${p.syncState ?? 'state unknown'}` }];
      }),
  },
  {
    id: 'ptp-gm-absent',
    section: 'ptp',
    checks: 'every slave port sees a grandmaster (gmPresent false: CRITICAL)',
    evaluate: (s) =>
      okPorts(s)
        .filter((p) => p.gmPresent === false)
        .map((p) => ({ severity: 'critical' as const, subject: subjects.ptpPort(p.id), topic: 'ptp-gm-absent' as const, message: `${portName(p)} has no grandmaster (gmPresent false)` })),
  },
  {
    id: 'ptp-offset',
    section: 'ptp',
    checks: '|offsetFromMaster| under --ptp-warn / --ptp-crit',
    evaluate: (s, c) =>
      okPorts(s).flatMap((p) => {
        const sev = overThreshold(p.offsetFromMasterNs, c.thresholds.ptpWarnNs, c.thresholds.ptpCritNs);
        return sev ? [{ severity: sev, subject: subjects.ptpPort(p.id), topic: 'ptp-offset' as const, message: `${portName(p)} offset ${formatOffset(p.offsetFromMasterNs)} from master` }] : [];
      }),
  },
  {
    id: 'ptp-path-delay',
    section: 'ptp',
    checks: 'meanPathDelay is not negative (timestamps or asymmetry correction wrong; WARNING)',
    evaluate: (s) =>
      okPorts(s)
        .filter((p) => p.meanPathDelayNs !== null && p.meanPathDelayNs < 0)
        .map((p) => ({
          severity: 'warning' as const,
          subject: subjects.ptpPort(p.id),
          topic: 'ptp-delay' as const,
          message: `${portName(p)} mean path delay negative (${formatMagnitude(p.meanPathDelayNs)}): timestamps or asymmetry correction are wrong`,
        })),
  },
  {
    id: 'ptp-gm-class',
    section: 'ptp',
    checks: "the grandmaster's clockClass by meaning: 6/13 ok; 7/14/135 and other profiles' WARNING; out-of-spec holdover, 248, 255 CRITICAL",
    evaluate: (s) =>
      okPorts(s).flatMap((p) => {
        // Without a grandmaster the port reports its own clock's quality: said by ptp-gm-absent.
        const decoded = p.gmPresent === false ? null : decodeClockClass(p.gmClockClass);
        const sev = decoded ? clockClassSeverity[decoded.condition] : 'ok';
        if (!decoded || sev === 'ok') return [];
        return [{ severity: sev, subject: subjects.ptpPort(p.id), topic: 'ptp-gm-class' as const, message: `${portName(p)} grandmaster clockClass ${p.gmClockClass} (${decoded.meaning})` }];
      }),
  },
  {
    id: 'ptp-frozen',
    section: 'ptp',
    checks: 'a port\'s data moves: lastUpdate unchanged for --frozen-after over 3 polls, or offset, path delay and rate offset bit-identical over 5 polls while STABLE (WARNING)',
    evaluate: observedAs('ptp-frozen', () => 'frozen'),
  },
  {
    id: 'ptp-last-update',
    section: 'ptp',
    checks: "lastUpdate is set and within --ptp-max-age (or 10 poll intervals) of this computer's clock (WARNING)",
    evaluate: (s, c) => {
      const limitS = Math.max(c.thresholds.ptpMaxAgeS, c.intervalMs === null ? 0 : (10 * c.intervalMs) / 1000);
      const at = c.answeredAt('ptp');
      return okPorts(s).flatMap((p) => {
        const decoded = decodeLastUpdate(p.lastUpdate);
        const draft = (message: string) => [{ severity: 'warning' as const, subject: subjects.ptpPort(p.id), topic: 'ptp-time' as const, message }];
        if (p.lastUpdate === 0) return draft(`${portName(p)} never updated (lastUpdate 0)`);
        if (decoded.atMs === null || abs(decoded.atMs - at) <= limitS * 1000) return [];
        return draft(`${portName(p)} lastUpdate is ${clockDifference(decoded.atMs, at)}`);
      });
    },
  },
  {
    id: 'device-list-capped',
    section: 'device',
    checks: 'the device sends no list longer than synctop keeps (256 NTP sources, 64 receivers, 64 recipients; WARNING)',
    evaluate: (s) =>
      sectionNames.flatMap((n) => {
        const sec = s[n];
        return sec.ok ? (sec.data.capped ?? []).map((c) => ({ severity: 'warning' as const, subject: `${subjects.section(n)} ${c.list}`, topic: 'list-capped' as const, message: cappedNotice(c) })) : [];
      }),
  },
];

// ---------------------------------------------------------------------------------------------
// Cause and effect
// ---------------------------------------------------------------------------------------------

/**
 * GNSS faults that starve this device's own clock chain, strongest explanation first. A fault
 * on a receiver that is not working (standby, offline) causes nothing: it feeds nothing.
 */
const causeTopics: Topic[] = ['gnss-working', 'gnss-antenna', 'gnss-pps'];

/**
 * What a local GNSS fault can explain: the reference clock it feeds and NTP's synchronization;
 * for an antenna fault also that receiver's PPS and satellite count. Never a PTP slave port: its
 * grandmaster is a remote clock, which a local antenna cannot disturb (and the API does not say
 * whether a grandmaster is this device's own clock).
 */
function canExplain(cause: Finding, effect: Finding): boolean {
  if (effect === cause) return false;
  if (effect.topic === 'refclock' || effect.topic === 'ntp-sync') return true;
  return cause.topic === 'gnss-antenna' && (effect.topic === 'gnss-pps' || effect.topic === 'gnss-sats') && effect.subject === cause.subject;
}

type Link = 'likely' | 'possibly' | null;

/**
 * Whether the order in time fits: an effect that started before its cause is not its effect.
 * Started in the same poll, or without times at all (one-shot), the order is unknown: "possibly".
 */
function linkInTime(cause: Finding, effect: Finding, firstSeen: ReadonlyMap<string, number> | undefined, now: number): Link {
  if (!firstSeen) return 'possibly';
  const causeAt = firstSeen.get(findingKey(cause)) ?? now;
  const effectAt = firstSeen.get(findingKey(effect)) ?? now;
  if (effectAt < causeAt) return null;
  return effectAt > causeAt ? 'likely' : 'possibly';
}

/**
 * Merges a local GNSS fault with the findings it explains, cause first, when topology and time
 * fit; the rest stay apart. `otherReceiverWorks`: another working receiver without a fault, which
 * may be the one feeding the clock, so the fault is then at most a possible cause.
 */
export function mergeCauses(findings: Finding[], opts: { firstSeen?: ReadonlyMap<string, number>; now: number; otherReceiverWorks?: boolean }): Finding[] {
  const cause = causeTopics.map((t) => findings.find((f) => f.topic === t)).find((f) => f !== undefined);
  if (!cause) return findings;
  const likely: Finding[] = [];
  const possibly: Finding[] = [];
  for (const f of findings) {
    if (!canExplain(cause, f)) continue;
    let link = linkInTime(cause, f, opts.firstSeen, opts.now);
    if (link === 'likely' && opts.otherReceiverWorks && cause.topic !== 'gnss-working') link = 'possibly';
    if (link === 'likely') likely.push(f);
    else if (link === 'possibly') possibly.push(f);
  }
  const explained = [...likely, ...possibly];
  if (explained.length === 0) return findings;
  const worst = [cause, ...explained].some((f) => f.severity === 'critical') ? 'critical' : 'warning';
  const list = (fs: Finding[]) => fs.map((f) => f.message).join(', ');
  const parts = [
    ...(likely.length > 0 ? [`likely cause of: ${list(likely)}`] : []),
    ...(possibly.length > 0 ? [`${likely.length > 0 ? 'possibly of' : 'possibly the cause of'}: ${list(possibly)}`] : []),
  ];
  const merged: Finding = { ...cause, severity: worst, message: `${cause.message} -> ${parts.join('; ')}`, effects: explained };
  return [merged, ...findings.filter((f) => f !== cause && !explained.includes(f))];
}

/** What every rule is given besides the snapshot. */
export function ruleContext(snapshot: Snapshot, thresholds: Thresholds, context: HealthContext): RuleContext {
  const now = context.now ?? Date.parse(snapshot.takenAt);
  return {
    thresholds,
    now,
    answeredAt: (section) => context.answeredAt?.[section] ?? now,
    intervalMs: context.intervalMs ?? null,
    observed: context.observed ?? [],
  };
}

/** One rule's findings of `snapshot`. */
export function ruleFindings(rule: Rule, snapshot: Snapshot, c: RuleContext): Finding[] {
  return rule.evaluate(snapshot, c).map((f) => ({ ...f, rule: rule.id, section: rule.section }));
}

/** Every rule's findings, not merged: the findings as they are followed from poll to poll. */
export function collectFindings(snapshot: Snapshot, thresholds: Thresholds = defaultThresholds, context: HealthContext = {}): Finding[] {
  const c = ruleContext(snapshot, thresholds, context);
  return rules.flatMap((rule) => ruleFindings(rule, snapshot, c));
}

export function evaluateHealth(snapshot: Snapshot, thresholds: Thresholds = defaultThresholds, context: HealthContext = {}): Verdict {
  return judgeFindings(collectFindings(snapshot, thresholds, context), snapshot, context);
}

/** The verdict from the rule table's findings of `snapshot` (collectFindings): causes merged, worst first. */
export function judgeFindings(all: Finding[], snapshot: Snapshot, context: HealthContext = {}): Verdict {
  const now = context.now ?? Date.parse(snapshot.takenAt);
  const faulty = new Set(all.filter((f) => causeTopics.includes(f.topic)).map((f) => f.subject));
  const otherReceiverWorks = receivers(snapshot).some((r) => working(r) && !faulty.has(subjects.gnssRx(r.id)));
  const findings = mergeCauses(all, { ...(context.firstSeen ? { firstSeen: context.firstSeen } : {}), now, otherReceiverWorks });
  findings.sort((a, b) => severityRank[b.severity] - severityRank[a.severity]);
  const severity = findings[0]?.severity ?? 'ok';
  return { severity, findings };
}

/** "WARNING: PTP port 0 ACQUIRING (+2 more)" — the header's one line. */
export function verdictSummary(v: Verdict): string {
  const word = v.severity.toUpperCase();
  const first = v.findings[0];
  if (!first) return 'OK';
  const more = v.findings.length > 1 ? ` (+${v.findings.length - 1} more)` : '';
  return `${word}: ${first.message}${more}`;
}
