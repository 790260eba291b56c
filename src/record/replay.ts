/**
 * `synctop replay FILE [--speed N]`: plays a recording back through the same store the live
 * poller feeds, so the panes, histories, events and verdict are those of the field session.
 * Ages are measured against the recorded clock, not today's. `[` and `]` step one interval.
 */
import { readFileSync } from 'node:fs';
import type { Section, Snapshot } from '../model/snapshot.js';
import type { MonitorController, MonitorState } from '../monitor/state.js';
import { MonitorStore } from '../monitor/store.js';
import { recordingEntrySchema, recordingHeaderSchema, RECORDING_SCHEMA, type RecordingEntry, type RecordingHeader } from './format.js';

export interface Recording {
  header: RecordingHeader;
  entries: (RecordingEntry & { atMs: number })[];
}

export class RecordingError extends Error {}

/** Parses a recording; a bad line is named by its number and what is wrong with it. */
export function parseRecording(text: string, path: string, opts: { device?: string } = {}): Recording {
  const lines = text.split('\n');
  const first = lines[0]?.trim() ?? '';
  let headerJson: unknown;
  try {
    headerJson = JSON.parse(first);
  } catch {
    throw new RecordingError(`${path} is not a synctop recording (its first line is not JSON)`);
  }
  const header = recordingHeaderSchema.safeParse(headerJson);
  if (!header.success) {
    const schema = (headerJson as { schema?: unknown } | null)?.schema;
    throw new RecordingError(
      schema === RECORDING_SCHEMA ? `${path}: the header line is incomplete` : `${path} is not a synctop recording (expected "${RECORDING_SCHEMA}" on its first line)`,
    );
  }
  const entries: Recording['entries'] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${path} line ${i + 2}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new RecordingError(`${where} is not JSON (a truncated or edited recording?)`);
    }
    const entry = recordingEntrySchema.safeParse(json);
    if (!entry.success) {
      const issue = entry.error.issues[0];
      throw new RecordingError(`${where}: ${issue ? `${issue.path.join('.') || 'the line'}: ${issue.message}` : 'not a recorded poll result'}`);
    }
    const atMs = Date.parse(entry.data.at);
    if (Number.isNaN(atMs)) throw new RecordingError(`${where}: "at" is not a time`);
    entries.push({ ...entry.data, atMs });
  });
  const fleet = header.data.devices;
  if (fleet) {
    // A fleet recording (export --record): play one of its devices.
    const device = opts.device ?? fleet[0];
    if (device === undefined || !fleet.includes(device)) {
      throw new RecordingError(`${path} holds no device ${opts.device}; it holds ${fleet.join(', ')} (choose with --device)`);
    }
    const mine = entries.filter((e) => e.device === device);
    if (mine.length === 0) throw new RecordingError(`${path} holds no poll results of ${device}`);
    return { header: { ...header.data, device }, entries: mine };
  }
  if (opts.device !== undefined && opts.device !== header.data.device) {
    throw new RecordingError(`${path} holds only ${header.data.device}`);
  }
  if (entries.length === 0) throw new RecordingError(`${path} holds no poll results`);
  return { header: header.data, entries };
}

export function loadRecording(path: string, opts: { device?: string } = {}): Recording {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RecordingError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')}`);
  }
  return parseRecording(text, path, opts);
}

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

  snapshot = (): Snapshot => this.store.snapshot(this.currentAt());

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
    const entries = this.recording.entries;
    const interval = this.recording.header.intervalMs;
    const stops = [1];
    let p = 1;
    while (p < entries.length) {
      const from = entries[p - 1]!.atMs;
      let q = p + 1;
      while (q < entries.length && entries[q - 1]!.atMs < from + interval) q++;
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
  }

  private freshStore(): MonitorStore {
    return new MonitorStore(this.recording.header.device, this.recording.header.intervalMs);
  }

  private emit = (): void => {
    for (const l of this.listeners) l();
  };

  private currentAt(): number {
    return this.recording.entries[Math.max(0, this.position - 1)]!.atMs;
  }

  private applyNext(): void {
    const entry = this.recording.entries[this.position];
    if (!entry) return;
    this.store.apply(entry.section, entry.result as Section<unknown>, entry.atMs, entry.unreachable);
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
    const total = this.recording.entries.length;
    this.store.update({
      replay: { position: this.position, total, speed: this.speed, at: this.currentAt(), finished: this.position >= total },
    });
  }

  private scheduleNext(): void {
    this.clearTimer();
    if (this.paused || this.position >= this.recording.entries.length) return;
    const next = this.recording.entries[this.position]!;
    const gap = Math.min(MAX_GAP_MS, Math.max(0, next.atMs - this.currentAt()));
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
