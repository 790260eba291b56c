/**
 * The monitor's state and the one way it changes: a section result arrives at a time. Both the
 * live poller and replay feed it, so a replayed session shows the same panes, histories, events
 * and verdict as the live one did.
 *
 * Each result is judged at once (events, time in state, the verdict), from the sections that
 * changed: a result is kept as one object until the next result of its section replaces it, so
 * what is the very same object as before cannot give an event, move a time in state or change
 * its rules' findings, and is not looked at again. With 50 devices the store handles 100
 * results a second; deriving from scratch is kept as the reference (StoreOptions).
 */
import {
  SNAPSHOT_SCHEMA_ID,
  sectionNames,
  type GnssData,
  type NtpData,
  type PtpData,
  type Section,
  type SectionName,
  type Snapshot,
} from '../model/snapshot.js';
import { diffSnapshots } from './events.js';
import { FindingsMemo } from './findings-memo.js';
import { collectFindings, findingKey, judgeFindings, type Finding, type HealthContext, type Thresholds } from './health.js';
import { seriesKey, type HistoryStore } from './history.js';
import { DeviceSamples } from './samples.js';
import { SuccessiveAnswers } from './successive.js';
import { initialState, type MonitorState, type Reachability, type SectionState } from './state.js';
import { findingsAtStart, healthJson, VerdictMemory } from './verdict-memory.js';

export type ResultListener = (name: SectionName, result: Section<unknown>, at: number, unreachable: Reachability | null | undefined) => void;

export { sectionNames };

export interface StoreOptions {
  /**
   * Derive everything from every section on every result (events, time in state, the rule
   * table), as if each result could have changed any section. The store's own way derives only
   * from the sections that changed, which gives the very same state: this is the reference it is
   * tested against (test/monitor/store-incremental.test.ts).
   */
  fromScratch?: boolean;
}

export class MonitorStore {
  private state: MonitorState;
  private readonly listeners = new Set<() => void>();
  /** The latest result of each section, as the snapshot contract has it. */
  private readonly latest: Record<SectionName, Section<unknown> | null> = { ntp: null, gnss: null, ptp: null, alarm: null };
  /** The last snapshot in which every section had a result: the base of the next diff. */
  private previous: Snapshot | null = null;
  private readonly resultListeners = new Set<ResultListener>();
  /** Last known data and first-seen times behind the verdict (and the diff base after a gap). */
  readonly verdictMemory = new VerdictMemory();
  /** Results applied since the last commit: told to the memory after the diff used its base. */
  private arrivals: [SectionName, Section<unknown>][] = [];
  /** What successive answers tell (frozen data, the former sync source). */
  private readonly successive = new SuccessiveAnswers();
  /** Epoch ms each raw finding (rule + subject, effects before merging) was first seen: the order in time of cause and effect. */
  private readonly firstSeen = new Map<string, number>();
  /** Which answers carry a new measurement: the offset and delay series take only those. */
  private readonly samples = new DeviceSamples();
  /** The rule table's findings of what was read and of the last known data, each rule run again only when its inputs changed. */
  private readonly findings = { read: new FindingsMemo(), lastKnown: new FindingsMemo() };
  private readonly fromScratch: boolean;

  constructor(
    readonly device: string,
    intervalMs: number,
    thresholds?: Thresholds,
    options: StoreOptions = {},
  ) {
    this.state = initialState(device, intervalMs, thresholds);
    this.fromScratch = options.fromScratch ?? false;
  }

  getState = (): MonitorState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Called with every section result as it is applied (recording, the exporter's fleet). */
  onResult(listener: ResultListener): () => void {
    this.resultListeners.add(listener);
    return () => this.resultListeners.delete(listener);
  }

  update(patch: Partial<MonitorState>): void {
    this.state = { ...this.state, ...patch, version: this.state.version + 1 };
    for (const l of this.listeners) l();
  }

  /**
   * One section's result at time `at` (epoch ms). `unreachable` is the device-level outage
   * as the poller sees it (undefined: leave as is).
   */
  apply(name: SectionName, result: Section<unknown>, at: number, unreachable?: Reachability | null): void {
    const patch = this.sectionPatch(name, result, at);
    if (unreachable !== undefined) patch.unreachable = unreachable;
    this.commit(patch, at);
    for (const l of this.resultListeners) l(name, result, at, unreachable);
  }

  /** A whole recorded snapshot at once (replay): every section, then one diff. */
  applySnapshot(snap: Snapshot, at: number): void {
    const patch: Partial<MonitorState> = {};
    for (const name of sectionNames) Object.assign(patch, this.sectionPatch(name, snap[name] as Section<unknown>, at));
    this.commit(patch, at);
  }

  private sectionPatch(name: SectionName, result: Section<unknown>, at: number): Partial<MonitorState> {
    const prev = (this.state[name] as SectionState<unknown>);
    let next: SectionState<unknown>;
    if (result.ok) {
      next = { data: result.data, receivedAt: at, error: null, errorSince: null, attemptedAt: at };
      pushHistory(this.state.history, this.samples, name, result.data, at);
    } else {
      next = { ...prev, error: result.error, errorSince: prev.error ? prev.errorSince : at, attemptedAt: at };
    }
    this.latest[name] = result;
    this.arrivals.push([name, result]);
    const patch: Partial<MonitorState> = { [name]: next };
    if (result.ok || result.error.kind !== 'network') patch.lastUpdateAt = at;
    return patch;
  }

  /** Derives events, time in state and the verdict once every section has a result. */
  private commit(patch: Partial<MonitorState>, at: number): void {
    const complete = sectionNames.every((n) => this.latest[n] !== null);
    // Contents compare with the last data known before this result (what failed meanwhile included).
    const base = complete && this.previous ? this.verdictMemory.known(this.previous).snapshot : null;
    for (const [name, result] of this.arrivals.splice(0)) this.verdictMemory.arrived(name, result, at);
    if (complete) {
      const snap = this.snapshot(at);
      const t = this.state.thresholds;
      const changed = this.changedSections(snap, base);
      const watched = this.successive.observe(snap, at, this.state.intervalMs, t);
      if (this.previous && base) this.state.events.add(diffSnapshots(this.previous, snap, at, t, base, changed));
      this.state.events.add(watched.events);
      this.state.stateClock.observe(snap, at, changed);
      const context = { ...watched.context, firstSeen: this.firstSeen };
      // The rule table runs once on what was read (its raw findings also date each finding) and
      // once more on the last known data only when something cannot be read.
      patch.verdict = this.verdictMemory.evaluateWith(snap, at, (s) => {
        const raw = this.collectFindings(s === snap ? 'read' : 'lastKnown', s, t, context);
        if (s === snap) this.noteFirstSeen(raw, at);
        return judgeFindings(raw, s, context);
      });
      if (!this.previous) this.state.events.add(findingsAtStart(patch.verdict, at));
      this.previous = snap;
    }
    this.update(patch);
  }

  /**
   * The sections that may differ from the snapshot derived from before (and from the diff's base
   * of last known data): only their results are not the very same objects. The others cannot
   * give an event or change a time in state; every section when deriving from scratch.
   */
  private changedSections(snap: Snapshot, base: Snapshot | null): readonly SectionName[] {
    const before = this.previous;
    if (this.fromScratch || !before) return sectionNames;
    return sectionNames.filter((n) => snap[n] !== before[n] || (base !== null && snap[n] !== base[n]));
  }

  private collectFindings(of: 'read' | 'lastKnown', s: Snapshot, t: Thresholds, context: HealthContext): Finding[] {
    return this.fromScratch ? collectFindings(s, t, context) : this.findings[of].collect(s, t, context);
  }

  /** The latest results with the live verdict (screendumps): findings with since and staleness. */
  snapshotWithHealth(at: number = Date.now()): Snapshot {
    return { ...this.snapshot(at), health: healthJson(this.state.verdict) };
  }

  /** First-seen times of every finding before causes merge, so a cause is merged only with what came after it. */
  private noteFirstSeen(raw: readonly Finding[], at: number): void {
    const current = new Set(raw.map(findingKey));
    for (const key of this.firstSeen.keys()) if (!current.has(key)) this.firstSeen.delete(key);
    for (const key of current) if (!this.firstSeen.has(key)) this.firstSeen.set(key, at);
  }

  /** The latest result of every section, in the snapshot contract. */
  snapshot(at: number = Date.now()): Snapshot {
    const pending = { ok: false as const, error: { kind: 'network' as const, message: 'not polled yet' } };
    return {
      schema: SNAPSHOT_SCHEMA_ID,
      device: this.device,
      takenAt: new Date(at).toISOString(),
      ntp: (this.latest.ntp ?? pending) as Snapshot['ntp'],
      gnss: (this.latest.gnss ?? pending) as Snapshot['gnss'],
      ptp: (this.latest.ptp ?? pending) as Snapshot['ptp'],
      alarm: (this.latest.alarm ?? pending) as Snapshot['alarm'],
    };
  }
}

/**
 * History series fed by each section: sparklines, statistics and charts read them. NTP offsets
 * and PTP offset and path delay are the device's measurements: a value only when it measured
 * anew (see samples.ts); satellite counts are a state, one value per answer.
 */
function pushHistory(history: HistoryStore, samples: DeviceSamples, name: SectionName, data: unknown, at: number): void {
  if (name === 'ntp') {
    for (const s of samples.newNtpSamples((data as NtpData).sources, at)) history.push(seriesKey.ntpOffset(s.name), s.offsetNs, at);
  } else if (name === 'gnss') {
    for (const r of (data as GnssData).receivers) {
      for (const [c, n] of Object.entries(r.satellites)) history.push(seriesKey.gnssCount(r.id, c), n, at);
      history.push(seriesKey.gnssTotal(r.id), r.satellitesTotal, at);
    }
  } else if (name === 'ptp') {
    for (const p of samples.newPtpSamples((data as PtpData).ports)) {
      history.push(seriesKey.ptpOffset(p.id), p.offsetFromMasterNs, at);
      history.push(seriesKey.ptpDelay(p.id), p.meanPathDelayNs, at);
    }
  }
}
