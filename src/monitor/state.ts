/**
 * What the live monitor knows at one moment: per section the last good data and when it came,
 * the current error if the latest poll failed, and the device-level reachability. Views read
 * this; only the poller writes it.
 */
import type { AlarmData, GnssData, NtpData, PtpData, SectionName, Snapshot, SnapshotError } from '../model/snapshot.js';
import { EventLog, StateClock } from './events.js';
import { defaultThresholds, type Thresholds } from './health.js';
import { HistoryStore, historyCapacity } from './history.js';
import type { LiveVerdict } from './verdict-memory.js';

export interface SectionState<T> {
  /** Last good data; kept when later polls fail, so nothing the technician knew is hidden. */
  data: T | null;
  /** Epoch ms of the last good data. */
  receivedAt: number | null;
  /** Error of the latest poll, null when it succeeded. */
  error: SnapshotError | null;
  /** Epoch ms since when the error has persisted. */
  errorSince: number | null;
  /** Epoch ms of the latest completed attempt. */
  attemptedAt: number | null;
}

export interface Reachability {
  /** Epoch ms of the first failed poll of the current outage. */
  since: number;
  /** Epoch ms of the next attempt. */
  retryAt: number;
  /** The network error's sentence. */
  reason: string;
}

export interface MonitorState {
  device: string;
  /** The device profile's name (`synctop @name`), null for a bare URL. */
  profile: string | null;
  intervalMs: number;
  paused: boolean;
  /** Epoch ms of the latest successful poll of any section. */
  lastUpdateAt: number | null;
  /** Non-null while the device does not answer at all (network errors). */
  unreachable: Reachability | null;
  ntp: SectionState<NtpData>;
  gnss: SectionState<GnssData>;
  ptp: SectionState<PtpData>;
  alarm: SectionState<AlarmData>;
  history: HistoryStore;
  /** Derived events, newest last (bounded). */
  events: EventLog;
  /** Since when each source/receiver/port has been in its current state. */
  stateClock: StateClock;
  /** The health verdict of the latest complete snapshot, last known findings kept (stale). */
  verdict: LiveVerdict;
  /** --record is writing this session to a file (the header says REC). */
  recording: boolean;
  thresholds: Thresholds;
  /** Set while a recording is played back instead of a device polled. */
  replay: ReplayPosition | null;
  /** Bumped on every change, for cheap memoization in views. */
  version: number;
}

export interface ReplayPosition {
  /** Entries applied so far, and in all. */
  position: number;
  total: number;
  speed: number;
  /** Epoch ms of the recorded moment now shown. */
  at: number;
  finished: boolean;
  /** Damaged lines of the recording that were skipped (absent when none). */
  skipped?: number;
}

export type SectionStates = Pick<MonitorState, SectionName>;

export function emptySection<T>(): SectionState<T> {
  return { data: null, receivedAt: null, error: null, errorSince: null, attemptedAt: null };
}

export function initialState(device: string, intervalMs: number, thresholds: Thresholds = defaultThresholds): MonitorState {
  return {
    device,
    profile: null,
    intervalMs,
    paused: false,
    lastUpdateAt: null,
    unreachable: null,
    ntp: emptySection(),
    gnss: emptySection(),
    ptp: emptySection(),
    alarm: emptySection(),
    history: new HistoryStore(historyCapacity(intervalMs)),
    events: new EventLog(),
    stateClock: new StateClock(),
    verdict: { severity: 'ok', findings: [] },
    recording: false,
    thresholds,
    replay: null,
    version: 0,
  };
}

/** Data older than three intervals is stale: shown, but marked. */
export const STALE_INTERVALS = 3;

export function isStale(section: SectionState<unknown>, intervalMs: number, now: number): boolean {
  return section.receivedAt !== null && now - section.receivedAt > STALE_INTERVALS * intervalMs;
}

/** How views drive the monitor: a store for useSyncExternalStore plus the user's commands. */
export interface MonitorController {
  getState(): MonitorState;
  subscribe(listener: () => void): () => void;
  /** Polls every operation now (the `r` key), unless paused. */
  pollNow(): void;
  setPaused(paused: boolean): void;
  /** Replay only: step one interval forward (+1) or back (-1). */
  step?(delta: 1 | -1): void;
  /** The clock views measure ages against: the wall clock, or the recorded moment in replay. */
  now?(): number;
  /** The latest result of every section, in the snapshot contract (screendumps). */
  snapshot?(): Snapshot;
  /** Device profiles to switch between (the `d` key); absent when there is only one device. */
  devices?(): DeviceChoice[];
  switchDevice?(name: string): void;
}

export interface DeviceChoice {
  name: string;
  url: string;
  current: boolean;
}
