/**
 * What only successive answers tell. A device whose PTP or GNSS daemon hangs often keeps serving
 * the last values it had: every field looks healthy, one answer alone cannot show it. Seen over
 * time it can: a receiver's UTC that does not advance, a port's lastUpdate that stays put, a
 * servo's offset, path delay and rate offset bit-identical poll after poll, an NTP source whose
 * every field (lastRx included) outlives its poll interval. Also the source that was NTP's sync
 * source and then became Not selectable, which the next answer no longer names as such.
 *
 * A detector without I/O: it is shown each snapshot with the time it was taken and the poll
 * interval, keeps what it needs of earlier answers (bounded by what the latest answers hold), and
 * says what it found (observations the health table turns into findings) and what started or
 * ended (events). The store feeds it, so the live monitor, replay and the exporter's fleet all
 * get it; one-shot modes have a single answer and never see frozen data.
 */
import { decodeLastUpdate } from '../model/decoders.js';
import type { GnssReceiver, NtpSource, PtpPort, SectionName, Snapshot } from '../model/snapshot.js';
import { formatDuration, formatPollInterval } from '../model/units.js';
import type { MonitorEvent } from './events.js';
import { rxName, subjects, type HealthContext, type Observation, type Thresholds } from './health.js';

/**
 * How many answers in a row a value must stay unchanged, besides --frozen-after seconds, before
 * it counts as frozen. A changing timestamp (UTC, lastUpdate, lastRx) needs only a few: it moves
 * every second on a live device. Servo values need more: a real servo repeats an offset now and
 * then, but offset, path delay and rate offset together bit-identical 5 times in a row has odds
 * near 1e-8 per poll even for a quiet hardware-timestamped port (README, "Frozen data").
 */
export const FROZEN_POLLS = { timestamp: 3, servo: 5 } as const;

/** An NTP source is frozen once every field outlived this many of its poll intervals. */
export const NTP_FROZEN_POLL_INTERVALS = 1.5;

interface Track {
  fingerprint: string;
  /** Epoch ms of the first answer that had this value. */
  since: number;
  /** Answers in a row with this value. */
  polls: number;
}

export interface Watched {
  observed: readonly Observation[];
  /** Frozen data starting or ending in this snapshot. */
  events: MonitorEvent[];
  /** The rest of what the verdict needs from the monitor: now, answer times, interval, observations. */
  context: HealthContext;
}

const sectionsWatched: readonly SectionName[] = ['ntp', 'gnss', 'ptp'];

/** "03:12:05 UTC" from epoch ms. */
const utcClock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

export class SuccessiveAnswers {
  /** The section results last looked at: the store rebuilds snapshots from its latest answers after every section, so an answer already seen is the same answer, not a new one. */
  private readonly seen: Partial<Record<SectionName, unknown>> = {};
  private readonly answeredAt: Partial<Record<SectionName, number>> = {};
  /** Per section: tracked values by `aspect|subject`. */
  private readonly tracks: Record<string, Map<string, Track>> = { ntp: new Map(), gnss: new Map(), ptp: new Map() };
  /** Per section: frozen observations by subject, with since when. */
  private readonly frozen: Record<string, Map<string, Frozen>> = { ntp: new Map(), gnss: new Map(), ptp: new Map() };
  /** NTP sources that were the sync source and no longer are. */
  private readonly formerSync = new Set<string>();
  private syncSource: string | null = null;

  /** What the latest answers reveal; the same list until an answer of a watched section comes. */
  private observed: readonly Observation[] | null = null;

  observe(snapshot: Snapshot, at: number, intervalMs: number, thresholds: Thresholds): Watched {
    const events: MonitorEvent[] = [];
    for (const name of [...sectionsWatched, 'alarm' as const]) {
      const section = snapshot[name];
      if (this.seen[name] === section) continue;
      this.seen[name] = section;
      if (name !== 'alarm') this.observed = null;
      if (!section.ok) continue;
      this.answeredAt[name] = at;
      if (name === 'alarm') continue;
      const found = this.track(name, snapshot, at, thresholds);
      events.push(...this.changes(name, found, at));
      if (name === 'ntp') this.followSyncSource(snapshot);
    }
    const observed = (this.observed ??= [...sectionsWatched.flatMap((n) => [...this.frozen[n]!.values()].map((f) => f.observation)), ...this.formerSyncObservations(snapshot)]);
    return { observed, events, context: { now: at, answeredAt: { ...this.answeredAt }, intervalMs, observed } };
  }

  /** Updates the section's tracks with a new answer; returns what is frozen in it now. */
  private track(name: SectionName, s: Snapshot, at: number, t: Thresholds): Map<string, Frozen> {
    const tracks = this.tracks[name]!;
    const next = new Map<string, Track>();
    const step = (key: string, fingerprint: string): Track => {
      const prev = tracks.get(key);
      const tr = prev && prev.fingerprint === fingerprint ? { fingerprint, since: prev.since, polls: prev.polls + 1 } : { fingerprint, since: at, polls: 1 };
      next.set(key, tr);
      return tr;
    };
    const still = (tr: Track, polls: number, spanS: number) => tr.polls >= polls && at - tr.since >= spanS * 1000;
    const found = new Map<string, Frozen>();
    const add: Add = (who, observation, since) => found.set(observation.subject, { who, observation, since });

    if (name === 'ptp' && s.ptp.ok) {
      for (const p of s.ptp.data.ports.filter((x) => x.ok)) this.ptpPort(p, step, still, add, at, t);
    } else if (name === 'gnss' && s.gnss.ok) {
      for (const r of s.gnss.data.receivers) this.receiver(r, step, still, add, at, t);
    } else if (name === 'ntp' && s.ntp.ok) {
      for (const src of s.ntp.data.sources) this.ntpSource(src, step, still, add, at, t);
    }
    this.tracks[name] = next;
    return found;
  }

  private ptpPort(p: PtpPort, step: Step, still: Still, add: Add, at: number, t: Thresholds): void {
    const subject = subjects.ptpPort(p.id);
    const base = { kind: 'ptp-frozen' as const, section: 'ptp' as const, subject };
    if (p.lastUpdate !== null) {
      const tr = step(`lastUpdate|${subject}`, String(p.lastUpdate));
      if (still(tr, FROZEN_POLLS.timestamp, t.frozenAfterS)) {
        const decoded = decodeLastUpdate(p.lastUpdate);
        const stuckAt = decoded.atMs === null ? String(p.lastUpdate) : utcClock(decoded.atMs);
        add(`PTP port ${p.id}`, { ...base, message: `PTP port ${p.id} data frozen: lastUpdate stuck at ${stuckAt} for ${age(at, tr.since)}` }, tr.since);
        return;
      }
    }
    const servo = [p.offsetFromMasterNs, p.meanPathDelayNs, p.cumulativeRateOffsetPpm];
    // Only a locked servo is expected to move by noise alone; and only what the device sent can be compared.
    if (p.syncState !== 'STABLE' || servo.every((v) => v === null)) return;
    const tr = step(`servo|${subject}`, JSON.stringify(servo));
    if (still(tr, FROZEN_POLLS.servo, t.frozenAfterS)) {
      add(`PTP port ${p.id}`, { ...base, message: `PTP port ${p.id} data frozen: offset, path delay and rate offset identical over ${tr.polls} polls (${age(at, tr.since)}) while STABLE` }, tr.since);
    }
  }

  private receiver(r: GnssReceiver, step: Step, still: Still, add: Add, at: number, t: Thresholds): void {
    if (r.utc === null) return;
    const subject = subjects.gnssRx(r.id);
    const tr = step(`utc|${subject}`, r.utc);
    if (!still(tr, FROZEN_POLLS.timestamp, t.frozenAfterS)) return;
    const stuckAt = `${r.utc.slice(11, 19)} UTC`;
    add(rxName(r), { kind: 'gnss-frozen', section: 'gnss', subject, message: `${rxName(r)} time frozen at ${stuckAt} for ${age(at, tr.since)}` }, tr.since);
  }

  private ntpSource(src: NtpSource, step: Step, still: Still, add: Add, at: number, t: Thresholds): void {
    // An unreachable source legitimately stays the same (reach 000, an old sample, lastRx in hours).
    if (src.reachCount === null || src.reachCount === 0 || src.pollSeconds === null) return;
    const subject = subjects.ntpSource(src.name);
    const tr = step(`source|${subject}`, JSON.stringify(src));
    if (!still(tr, FROZEN_POLLS.timestamp, Math.max(t.frozenAfterS, NTP_FROZEN_POLL_INTERVALS * src.pollSeconds))) return;
    const message = `NTP source ${src.name} data frozen: every field identical for ${age(at, tr.since)} (polled every ${formatPollInterval(src.pollSeconds)})`;
    add(`NTP source ${src.name}`, { kind: 'ntp-frozen', section: 'ntp', subject, source: src.name, message }, tr.since);
  }

  /** Events for frozen data that started or ended with this answer. */
  private changes(name: SectionName, found: Map<string, Frozen>, at: number): MonitorEvent[] {
    const before = this.frozen[name]!;
    const events: MonitorEvent[] = [];
    for (const [subject, f] of found) {
      if (!before.has(subject)) events.push({ at, severity: 'warning', section: name, message: f.observation.message });
    }
    for (const [subject, f] of before) {
      if (!found.has(subject)) events.push({ at, severity: 'ok', section: name, message: `${f.who} data moving again after ${age(at, f.since)} unchanged` });
    }
    this.frozen[name] = found;
    return events;
  }

  /** Remembers the sync source; the one before, once replaced, is watched until it is gone or in use again. */
  private followSyncSource(s: Snapshot): void {
    if (!s.ntp.ok) return;
    const sources = s.ntp.data.sources;
    const current = s.ntp.data.syncSource ?? sources.find((x) => x.isSyncSource)?.name ?? null;
    if (this.syncSource !== null && this.syncSource !== current) this.formerSync.add(this.syncSource);
    if (current !== null) this.syncSource = current;
    for (const name of this.formerSync) {
      const src = sources.find((x) => x.name === name);
      if (!src || src.isSyncSource || name === current) this.formerSync.delete(name);
    }
  }

  private formerSyncObservations(s: Snapshot): Observation[] {
    if (!s.ntp.ok) return [];
    return s.ntp.data.sources
      .filter((src) => this.formerSync.has(src.name) && src.state === 'Not selectable')
      .map((src) => ({
        kind: 'ntp-former-sync-source' as const,
        section: 'ntp' as const,
        subject: subjects.ntpSource(src.name),
        source: src.name,
        message: `NTP source ${src.name}, the sync source before, not selectable`,
      }));
  }
}

interface Frozen {
  /** "PTP port 0": who it is, for the event when it moves again. */
  who: string;
  observation: Observation;
  since: number;
}

type Step = (key: string, fingerprint: string) => Track;
type Still = (tr: Track, polls: number, spanS: number) => boolean;
type Add = (who: string, observation: Observation, since: number) => void;

/** "2m10s" from `since` to `at`, epoch ms. */
const age = (at: number, since: number) => formatDuration(Math.floor((at - since) / 1000));
