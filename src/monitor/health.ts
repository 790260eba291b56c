/**
 * The health verdict: OK / WARNING / CRITICAL with reasons, from ONE rule table. The live
 * header, `check` and the exporter's verdict gauge all read it, so they cannot disagree.
 * Where layers explain each other (a GNSS antenna fault starves the reference clock, the PTP
 * grandmaster and the port), the findings merge into one with the likely cause first.
 */
import { leapSecondMismatch } from '../model/decoders.js';
import type { GnssReceiver, PtpPort, SectionName, Snapshot } from '../model/snapshot.js';
import { operations } from '../api/endpoints.js';
import { refusedEverywhere } from '../api/errors.js';
import { lookupTable } from '../model/lookup.js';
import { formatOffset } from '../model/units.js';

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
}

export const defaultThresholds: Thresholds = {
  ptpWarnNs: 1_000,
  ptpCritNs: 100_000,
  ntpWarnNs: 10_000_000,
  ntpCritNs: 100_000_000,
  minSats: 4,
};

/** What a finding is about; used to merge cause and effect. */
export type Topic = 'unreachable' | 'unreadable' | 'ntp-sync' | 'ntp-source' | 'ntp-offset' | 'refclock' | 'gnss-working' | 'gnss-antenna' | 'gnss-pps' | 'gnss-sats' | 'gnss-leap' | 'ptp-state' | 'ptp-offset' | 'ptp-gm-class';

export interface Finding {
  rule: string;
  severity: Exclude<Severity, 'ok'>;
  section: SectionName | 'device';
  topic: Topic;
  message: string;
}

export interface Verdict {
  severity: Severity;
  /** Worst first. */
  findings: Finding[];
}

interface Rule {
  id: string;
  section: SectionName | 'device';
  /** One line for the README and help: what the rule checks. */
  checks: string;
  evaluate: (s: Snapshot, t: Thresholds) => Omit<Finding, 'rule' | 'section'>[];
}

const abs = Math.abs;
const working = (r: GnssReceiver) => r.status === 'working';
const portName = (p: PtpPort) => `PTP port ${p.id}`;
const rxName = (r: GnssReceiver) => `GNSS receiver ${r.id ?? '?'}`;

function overThreshold(value: number | null, warn: number, crit: number): Exclude<Severity, 'ok'> | null {
  if (value === null) return null;
  if (abs(value) > crit) return 'critical';
  if (abs(value) > warn) return 'warning';
  return null;
}

const sections: SectionName[] = ['ntp', 'gnss', 'ptp', 'alarm'];
const allUnreachable = (s: Snapshot) => sections.every((n) => !s[n].ok && s[n].error.kind === 'network');
/** Every operation refused (401/403): not logged in, not four separate permission problems. */
const allRefused = (s: Snapshot) => sections.every((n) => !s[n].ok && s[n].error.kind === 'auth');
/** Every operation HTTP 404: the base URL is wrong (e.g. /api/v1 pasted into it), not four missing pages. */
const allNotFound = (s: Snapshot) => sections.every((n) => !s[n].ok && s[n].error.kind === 'http' && s[n].error.code === '404');

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

export const rules: Rule[] = [
  {
    id: 'device-unreachable',
    section: 'device',
    checks: 'the device answers at all',
    evaluate: (s) => {
      if (!allUnreachable(s)) return [];
      const first = s.ntp.ok ? null : s.ntp.error.message;
      return [{ severity: 'critical', topic: 'unreachable', message: `device unreachable: ${first}` }];
    },
  },
  {
    id: 'not-logged-in',
    section: 'device',
    checks: 'the device accepts the login (every operation refused: not logged in, CRITICAL)',
    evaluate: (s) =>
      allRefused(s) && !s.ntp.ok
        ? [{ severity: 'critical', topic: 'unreadable', message: refusedEverywhere(sections.map((n) => (s[n].ok ? '' : (s[n].error.code ?? ''))), s.ntp.error.message) }]
        : [],
  },
  {
    id: 'api-not-found',
    section: 'device',
    checks: 'the device API is at the base URL (every operation HTTP 404: CRITICAL)',
    evaluate: (s) => (allNotFound(s) ? [{ severity: 'critical', topic: 'unreadable', message: apiNotFoundMessage(s.device) }] : []),
  },
  {
    id: 'section-unreadable',
    section: 'device',
    checks: 'each operation can be read (refused login, HTTP or malformed answers warn)',
    evaluate: (s) => {
      if (allUnreachable(s) || allRefused(s) || allNotFound(s)) return [];
      return sections.flatMap((n) => {
        const sec = s[n];
        if (sec.ok || sec.error.kind === 'device') return [];
        return [{ severity: 'warning' as const, topic: 'unreadable' as const, message: `${n.toUpperCase()} cannot be read: ${sec.error.message}` }];
      });
    },
  },
  {
    id: 'ntp-unsynchronized',
    section: 'ntp',
    checks: 'NTP overallStatus is Synchronized (otherwise CRITICAL)',
    evaluate: (s) =>
      s.ntp.ok && s.ntp.data.overallStatus !== 'Synchronized'
        ? [{ severity: 'critical', topic: 'ntp-sync', message: `NTP ${s.ntp.data.overallStatus ?? 'status unknown'}` }]
        : [],
  },
  {
    id: 'ntp-bad-source',
    section: 'ntp',
    checks: 'no source is a False ticker or Too variable (WARNING)',
    evaluate: (s) =>
      s.ntp.ok
        ? s.ntp.data.sources
            .filter((src) => src.state === 'False ticker' || src.state === 'Too variable')
            .map((src) => ({ severity: 'warning' as const, topic: 'ntp-source' as const, message: `NTP source ${src.name} is ${src.state}` }))
        : [],
  },
  {
    id: 'ntp-refclock-unselectable',
    section: 'ntp',
    checks: 'reference clocks are selectable (WARNING)',
    evaluate: (s) =>
      s.ntp.ok
        ? s.ntp.data.sources
            .filter((src) => src.mode === 'Reference clock' && src.state === 'Not selectable')
            .map((src) => ({ severity: 'warning' as const, topic: 'refclock' as const, message: `reference clock ${src.name} not selectable` }))
        : [],
  },
  {
    id: 'ntp-offset',
    section: 'ntp',
    checks: '|offset| of the sync source under --ntp-warn / --ntp-crit',
    evaluate: (s, t) => {
      if (!s.ntp.ok) return [];
      const src = s.ntp.data.sources.find((x) => x.isSyncSource);
      const sev = overThreshold(src?.offsetNs ?? null, t.ntpWarnNs, t.ntpCritNs);
      return sev && src ? [{ severity: sev, topic: 'ntp-offset', message: `NTP offset ${formatOffset(src.offsetNs)} to ${src.name}` }] : [];
    },
  },
  {
    id: 'gnss-none-working',
    section: 'gnss',
    checks: 'at least one GNSS receiver is working (CRITICAL)',
    evaluate: (s) =>
      s.gnss.ok && s.gnss.data.receivers.length > 0 && !s.gnss.data.receivers.some(working)
        ? [{ severity: 'critical', topic: 'gnss-working', message: 'no GNSS receiver working' }]
        : [],
  },
  {
    id: 'gnss-antenna',
    section: 'gnss',
    checks: 'no antenna is open or short-circuited (CRITICAL)',
    evaluate: (s) =>
      s.gnss.ok
        ? s.gnss.data.receivers
            .filter((r) => r.antenna === 'open' || r.antenna === 'short-circuited')
            .map((r) => ({ severity: 'critical' as const, topic: 'gnss-antenna' as const, message: `${rxName(r)} antenna ${r.antenna}` }))
        : [],
  },
  {
    id: 'gnss-pps',
    section: 'gnss',
    checks: 'PPS is valid on working receivers (WARNING)',
    evaluate: (s) =>
      s.gnss.ok
        ? s.gnss.data.receivers
            .filter((r) => working(r) && r.ppsValid === false)
            .map((r) => ({ severity: 'warning' as const, topic: 'gnss-pps' as const, message: `${rxName(r)} PPS invalid` }))
        : [],
  },
  {
    id: 'gnss-satellites',
    section: 'gnss',
    checks: 'working receivers track at least --min-sats satellites (WARNING)',
    evaluate: (s, t) =>
      s.gnss.ok
        ? s.gnss.data.receivers
            .filter((r) => working(r) && r.satellitesTotal !== null && r.satellitesTotal < t.minSats)
            .map((r) => ({ severity: 'warning' as const, topic: 'gnss-sats' as const, message: `${rxName(r)} tracks ${r.satellitesTotal} satellites (< ${t.minSats})` }))
        : [],
  },
  {
    id: 'gnss-leap-seconds',
    section: 'gnss',
    checks: 'GPS and BDS leap seconds agree (BDS = GPS - 14 s; WARNING)',
    evaluate: (s) =>
      s.gnss.ok
        ? s.gnss.data.receivers.flatMap((r) => {
            const m = leapSecondMismatch(r.gpsLeapSeconds, r.bdsLeapSeconds);
            return m ? [{ severity: 'warning' as const, topic: 'gnss-leap' as const, message: `${rxName(r)}: ${m}` }] : [];
          })
        : [],
  },
  {
    id: 'ptp-state',
    section: 'ptp',
    checks: 'PTP ports are STABLE (LOST/NEVER CRITICAL, ACQUIRING/ACQUIRED/UNKNOWN WARNING)',
    evaluate: (s) =>
      s.ptp.ok
        ? s.ptp.data.ports.flatMap((p) => {
            if (!p.ok) return [];
            const sev = ptpStateSeverity[p.syncState ?? 'UNKNOWN'] ?? 'warning';
            return sev === 'ok' ? [] : [{ severity: sev, topic: 'ptp-state' as const, message: `${portName(p)} ${p.syncState ?? 'state unknown'}` }];
          })
        : [],
  },
  {
    id: 'ptp-offset',
    section: 'ptp',
    checks: '|offsetFromMaster| under --ptp-warn / --ptp-crit',
    evaluate: (s, t) =>
      s.ptp.ok
        ? s.ptp.data.ports.flatMap((p) => {
            const sev = p.ok ? overThreshold(p.offsetFromMasterNs, t.ptpWarnNs, t.ptpCritNs) : null;
            return sev ? [{ severity: sev, topic: 'ptp-offset' as const, message: `${portName(p)} offset ${formatOffset(p.offsetFromMasterNs)} from master` }] : [];
          })
        : [],
  },
  {
    id: 'ptp-gm-class',
    section: 'ptp',
    checks: 'the grandmaster is locked to a primary reference (clockClass 6; others WARNING)',
    evaluate: (s) =>
      s.ptp.ok
        ? s.ptp.data.ports.flatMap((p) =>
            p.ok && p.gmClockClass !== null && p.gmClockClass !== 6 && p.gmPresent !== false
              ? [{ severity: 'warning' as const, topic: 'ptp-gm-class' as const, message: `${portName(p)} grandmaster clockClass ${p.gmClockClass}` }]
              : [],
          )
        : [],
  },
];

export const ptpStateSeverity = lookupTable<Severity>({
  STABLE: 'ok',
  ACQUIRED: 'warning',
  ACQUIRING: 'warning',
  UNKNOWN: 'warning',
  LOST: 'critical',
  NEVER: 'critical',
});

/** GNSS faults that explain trouble elsewhere, and the trouble they explain. */
const causes: Topic[] = ['gnss-antenna', 'gnss-pps', 'gnss-working'];
const effects: Topic[] = ['refclock', 'ptp-gm-class', 'ptp-state', 'ntp-sync'];

export function evaluateHealth(snapshot: Snapshot, thresholds: Thresholds = defaultThresholds): Verdict {
  let findings = rules.flatMap((rule) => rule.evaluate(snapshot, thresholds).map((f) => ({ ...f, rule: rule.id, section: rule.section })));
  findings = mergeCauses(findings);
  findings.sort((a, b) => severityRank[b.severity] - severityRank[a.severity]);
  const severity = findings[0]?.severity ?? 'ok';
  return { severity, findings };
}

function mergeCauses(findings: Finding[]): Finding[] {
  const cause = findings.find((f) => causes.includes(f.topic));
  if (!cause) return findings;
  const explained = findings.filter((f) => effects.includes(f.topic));
  if (explained.length === 0) return findings;
  const worst = [cause, ...explained].some((f) => f.severity === 'critical') ? 'critical' : 'warning';
  const merged: Finding = {
    ...cause,
    severity: worst,
    message: `${cause.message} -> likely cause of: ${explained.map((f) => f.message).join(', ')}`,
  };
  return [merged, ...findings.filter((f) => f !== cause && !explained.includes(f))];
}

/** "WARNING: PTP port 0 ACQUIRING (+2 more)" — the header's one line. */
export function verdictSummary(v: Verdict): string {
  const word = v.severity.toUpperCase();
  const first = v.findings[0];
  if (!first) return 'OK';
  const more = v.findings.length > 1 ? ` (+${v.findings.length - 1} more)` : '';
  return `${word}: ${first.message}${more}`;
}
