/**
 * `synctop replay FILE [--speed N]`: plays a recording back through the same store the live
 * poller feeds, so the panes, histories, events and verdict are those of the field session.
 * Ages are measured against the recorded clock, not today's. `[` and `]` step one interval.
 */
import type { Section, Snapshot } from '../model/snapshot.js';
import type { MonitorController, MonitorState } from '../monitor/state.js';
import { MonitorStore } from '../monitor/store.js';
import type { Recording } from './reader.js';

export { loadRecording, RecordingError, type Recording } from './reader.js';

/** Longest wait between two entries at speed 1: a long gap in the field is not relived. */
const MAX_GAP_MS = 5000;

/** --speed bounds: slower would wait longer than a timer holds, faster only spins the CPU. */
export const MIN_SPEED = 0.01;
export const MAX_SPEED = 1000;

export class ReplayController implements MonitorController {
  private store: MonitorStore;
  private position = 0;
  private timer: NodeJS.Timeout | null = null;
  private paused = false;
  private readonly listeners = new Set<() => void>();
  private unsubscribe: () => void;

  constructor(
    private readonly recording: Recording,
    private readonly speed = 1,
  ) {
    this.store = this.freshStore();
    this.unsubscribe = this.store.subscribe(this.emit);
  }

  getState = (): MonitorState => this.store.getState();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  now = (): number => this.currentAt();

  pollNow = (): void => undefined;

  snapshot = (): Snapshot => this.store.snapshotWithHealth(this.currentAt());

  setPaused = (paused: boolean): void => {
    this.paused = paused;
    this.clearTimer();
    this.store.update({ paused });
    if (!paused) this.scheduleNext();
  };

  /** One recorded interval forward or back; stepping pauses the playback. */
  step = (delta: 1 | -1): void => {
    if (!this.paused) this.setPaused(true);
    const stops = this.stops();
    const target = delta > 0 ? stops.find((p) => p > this.position) : [...stops].reverse().find((p) => p < this.position);
    if (target === undefined) return;
    if (target > this.position) while (this.position < target) this.applyNext();
    else this.rebuild(target);
    this.publishPosition();
  };

  private stopList: number[] | null = null;

  /**
   * The positions a step lands on: from the first entry, each next position at least one
   * recorded interval later. Computed once, so forward and back land on the same moments.
   */
  private stops(): number[] {
    if (this.stopList) return this.stopList;
    const { count } = this.recording;
    const at = (i: number) => this.recording.atMs(i);
    const interval = this.recording.header.intervalMs;
    const stops = [1];
    let p = 1;
    while (p < count) {
      const from = at(p - 1);
      let q = p + 1;
      while (q < count && at(q - 1) < from + interval) q++;
      stops.push(q);
      p = q;
    }
    this.stopList = stops;
    return stops;
  }

  start(): void {
    this.applyNext();
    this.publishPosition();
    this.scheduleNext();
  }

  stop(): void {
    this.clearTimer();
    this.recording.close();
  }

  private freshStore(): MonitorStore {
    return new MonitorStore(this.recording.header.device, this.recording.header.intervalMs);
  }

  private emit = (): void => {
    for (const l of this.listeners) l();
  };

  private currentAt(): number {
    return this.recording.atMs(Math.max(0, this.position - 1));
  }

  /** The next entry, read from the file again; one that no longer reads is passed over. */
  private applyNext(): void {
    if (this.position >= this.recording.count) return;
    const entry = this.recording.entry(this.position);
    if (entry) this.store.apply(entry.section, entry.result as Section<unknown>, entry.atMs, entry.unreachable);
    this.position++;
  }

  /** Going back means replaying from the start: events and histories must be those of that moment. */
  private rebuild(position: number): void {
    this.unsubscribe();
    this.store = this.freshStore();
    this.unsubscribe = this.store.subscribe(this.emit);
    this.store.update({ paused: this.paused });
    this.position = 0;
    while (this.position < position) this.applyNext();
  }

  private publishPosition(): void {
    const total = this.recording.count;
    const skipped = this.recording.skipped.count;
    this.store.update({
      replay: { position: this.position, total, speed: this.speed, at: this.currentAt(), finished: this.position >= total, ...(skipped > 0 ? { skipped } : {}) },
    });
  }

  private scheduleNext(): void {
    this.clearTimer();
    if (this.paused || this.position >= this.recording.count) return;
    const gap = Math.min(MAX_GAP_MS, Math.max(0, this.recording.atMs(this.position) - this.currentAt()));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.applyNext();
      this.publishPosition();
      this.scheduleNext();
    }, gap / this.speed);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * `replay FILE --once`: the whole recording through a fresh store, at once, for a text report
 * with the history charts a one-poll report cannot have. The result is the state at the last
 * entry and the snapshot as of that moment.
 */
export function playToEnd(recording: Recording): { state: MonitorState; snapshot: Snapshot } {
  const store = new MonitorStore(recording.header.device, recording.header.intervalMs);
  let at = 0;
  for (let i = 0; i < recording.count; i++) {
    const entry = recording.entry(i);
    if (!entry) continue;
    store.apply(entry.section, entry.result as Section<unknown>, entry.atMs, entry.unreachable);
    at = entry.atMs;
  }
  return { state: store.getState(), snapshot: store.snapshotWithHealth(at) };
}
