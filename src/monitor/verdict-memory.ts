/**
 * What the verdict remembers from one poll to the next, beside the rule table (it runs
 * evaluateHealth and never a rule of its own):
 *
 * - The last known data of each section and of each PTP port. When a section (or one port)
 *   cannot be read, the findings of its last known data stay in the verdict, marked stale with
 *   the age of that data: the verdict never gets milder because information disappeared. The
 *   same last known data is the base of the event diff after an outage.
 * - When each finding (rule + subject) was first seen: the findings list's "for", and the order
 *   in time that cause-and-effect merging reads.
 *
 * "Cannot be read" is a network, HTTP, protocol or login failure. A device error (40003 no
 * receiver, 40004 no such port) is an answer: it ends the findings it contradicts.
 */
import { sectionNames, type HealthJson, type PtpPort, type Section, type SectionName, type Snapshot } from '../model/snapshot.js';
import { evaluateHealth, findingKey, severityRank, type Finding, type HealthContext, type Severity, type Thresholds } from './health.js';

export { findingKey };
import type { MonitorEvent } from './events.js';

export interface TrackedFinding extends Finding {
  /** Epoch ms when this finding was first seen. */
  since?: number;
  /** It was already there when first seen (at start, or after a gap): `since` is a lower bound. */
  sinceAtLeast?: boolean;
  /** Epoch ms of the data behind it, when that data can no longer be read (absent: current). */
  staleDataAt?: number;
}

/** The live verdict: the rule table's, with last known findings kept and each one's times. */
export interface LiveVerdict {
  severity: Severity;
  /** Worst first. */
  findings: TrackedFinding[];
}


/** Failures that hide what the device knows; a device error is an answer. */
const unreadable = (s: Section<unknown> | { ok: false; error: { kind: string } }) => !s.ok && s.error.kind !== 'device';
const portUnreadable = (p: PtpPort) => !p.ok && p.error !== undefined && p.error.kind !== 'device';

interface Known<T> {
  value: T;
  at: number;
}

/** A snapshot with last known data in place of what cannot be read, and the times of that data. */
export interface KnownSnapshot {
  snapshot: Snapshot;
  /** Epoch ms of every piece of data put in; empty when nothing was missing. */
  dataAt: number[];
}

/** What VerdictMemory knows of the data, outside it: a check run hands it to the next one. */
export interface LastKnownData {
  sections: { name: SectionName; value: Section<unknown>; at: number }[];
  ports: { value: PtpPort; at: number }[];
}

export class VerdictMemory {
  private readonly sections = new Map<SectionName, Known<Section<unknown>>>();
  private readonly ports = new Map<number, Known<PtpPort>>();
  private readonly seen = new Map<string, { since: number; atLeast: boolean }>();
  /** Sections readable at the previous evaluation (none before the first one). */
  private readableBefore = new Set<SectionName | 'device'>();

  /** Epoch ms each current finding was first seen, by findingKey (for cause-and-effect merging). */
  get firstSeen(): ReadonlyMap<string, number> {
    return new Map([...this.seen].map(([key, v]) => [key, v.since]));
  }

  /**
   * `snapshot` with the last known data in place of every section and PTP port that cannot be
   * read. Call before `evaluate` remembers a newer snapshot when the base of a diff is wanted.
   */
  known(snapshot: Snapshot): KnownSnapshot {
    const out: Snapshot = { ...snapshot };
    const dataAt: number[] = [];
    for (const name of sectionNames) {
      const section = snapshot[name] as Section<unknown>;
      const last = this.sections.get(name);
      if (unreadable(section) && last) {
        (out as Record<SectionName, Section<unknown>>)[name] = last.value;
        dataAt.push(last.at);
      }
    }
    if (snapshot.ptp.ok && snapshot.ptp.data.ports.some(portUnreadable)) {
      const ports = snapshot.ptp.data.ports.map((p) => {
        const last = portUnreadable(p) ? this.ports.get(p.id) : undefined;
        if (!last) return p;
        dataAt.push(last.at);
        return last.value;
      });
      out.ptp = { ok: true, data: { ...snapshot.ptp.data, ports } };
    }
    return { snapshot: out, dataAt };
  }

  /**
   * The verdict of `snapshot` (taken at `at`): the rule table on what can be read, plus the
   * findings of the last known data of what cannot, marked stale; each with its first-seen time.
   */
  evaluate(snapshot: Snapshot, at: number, thresholds?: Thresholds, context: HealthContext = {}): LiveVerdict {
    return this.evaluateWith(snapshot, at, (s) => evaluateHealth(s, thresholds, context));
  }

  /**
   * `evaluate` with another judge of one snapshot (check's -w/-c ranges wrap the rule table):
   * the judge runs on what can be read and on the last known data, as the rule table does.
   */
  evaluateWith(snapshot: Snapshot, at: number, judge: (s: Snapshot) => { findings: readonly Finding[] }): LiveVerdict {
    const current = judge(snapshot);
    const known = this.known(snapshot);
    let findings: TrackedFinding[] = [...current.findings];
    if (known.dataAt.length > 0) {
      findings = withLastKnown(current.findings, judge(known.snapshot).findings, Math.min(...known.dataAt));
    }
    this.remember(snapshot, at);
    const tracked = this.track(findings, snapshot, at);
    return { severity: tracked[0]?.severity ?? 'ok', findings: tracked };
  }

  /** One section's result as it arrives (the store tells every one, so data ages are exact). */
  arrived(name: SectionName, section: Section<unknown>, at: number): void {
    if (!section.ok || this.sections.get(name)?.value === section) return;
    this.sections.set(name, { value: section, at });
    if (name === 'ptp') for (const p of (section as Snapshot['ptp'] & { ok: true }).data.ports) if (p.ok) this.ports.set(p.id, { value: p, at });
  }

  /** The last known data of each section and PTP port, with its time (check --state-file saves it). */
  lastKnown(): LastKnownData {
    return {
      sections: [...this.sections].map(([name, k]) => ({ name, value: k.value, at: k.at })),
      ports: [...this.ports.values()].map((k) => ({ value: k.value, at: k.at })),
    };
  }

  /** Takes last known data kept elsewhere (a check's state file) as its own, times included. */
  restore(data: LastKnownData): void {
    for (const s of data.sections) if (s.value.ok) this.sections.set(s.name, { value: s.value, at: s.at });
    for (const p of data.ports) if (p.value.ok) this.ports.set(p.value.id, { value: p.value, at: p.at });
  }

  /**
   * Remembers the readable sections not told by `arrived` (a snapshot evaluated whenever any
   * section's result arrives holds the others' earlier results, the same objects: kept as is).
   */
  private remember(snapshot: Snapshot, at: number): void {
    for (const name of sectionNames) this.arrived(name, snapshot[name] as Section<unknown>, at);
  }

  /** First-seen times: kept while a finding lasts (fresh or stale), forgotten when it ends. */
  private track(findings: TrackedFinding[], snapshot: Snapshot, at: number): TrackedFinding[] {
    const keys = new Set<string>();
    const out = findings.map((f) => {
      const key = findingKey(f);
      keys.add(key);
      let entry = this.seen.get(key);
      if (!entry) {
        // Its section could not be read just before (or this is the start): it began unseen.
        entry = { since: at, atLeast: !this.readableBefore.has(f.section) };
        this.seen.set(key, entry);
      }
      return { ...f, since: entry.since, ...(entry.atLeast ? { sinceAtLeast: true } : {}) };
    });
    for (const key of [...this.seen.keys()]) if (!keys.has(key)) this.seen.delete(key);
    this.readableBefore = new Set(['device', ...sectionNames.filter((n) => !unreadable(snapshot[n] as Section<unknown>))]);
    return out;
  }
}

/**
 * The current findings joined with those of the last known data. A finding of the last known
 * data that the current ones do not say word for word rests on data that cannot be read now:
 * it is kept, stale, in place of a current one of the same key (a cause now merged with fewer
 * effects). Current findings of their own (the device or a section cannot be read) stay.
 */
function withLastKnown(current: readonly Finding[], lastKnown: readonly Finding[], dataAt: number): TrackedFinding[] {
  const exact = new Set(current.map((f) => `${f.rule}\u0000${f.message}`));
  const keys = new Set(lastKnown.map(findingKey));
  const kept: TrackedFinding[] = lastKnown.map((f) => (exact.has(`${f.rule}\u0000${f.message}`) ? f : { ...f, staleDataAt: dataAt }));
  const merged = [...kept, ...current.filter((f) => !keys.has(findingKey(f)))];
  // Stable: the rule table's order within a severity.
  return merged.sort((a, b) => severityRank[b.severity] - severityRank[a.severity]);
}

/** On a device already faulty at start, the events pane begins with what is wrong. */
export function findingsAtStart(verdict: LiveVerdict, at: number): MonitorEvent[] {
  return verdict.findings.map((f) => ({ at, severity: f.severity, section: f.section, message: `at start: ${f.message}` }));
}

/** The verdict as the snapshot JSON carries it (`health`): times as ISO-8601. */
export function healthJson(verdict: LiveVerdict): HealthJson {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    severity: verdict.severity,
    findings: verdict.findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      section: f.section,
      message: f.message,
      ...(f.since !== undefined ? { since: iso(f.since) } : {}),
      ...(f.sinceAtLeast ? { sinceAtLeast: true } : {}),
      ...(f.staleDataAt !== undefined ? { staleDataAt: iso(f.staleDataAt) } : {}),
    })),
  };
}
