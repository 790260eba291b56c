/**
 * --record FILE: appends every section result to a JSON Lines file as it is applied. A
 * recording is handed to support, so the SMTP password is masked even under --show-secrets, and
 * credentials (tokens, cookies, headers) are never part of what is written: only the snapshot
 * contract is. One file holds one device (the live monitor) or a fleet (the exporter), whose
 * lines then name their device.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { maskSecret } from '../model/alarm.js';
import type { AlarmData, Section } from '../model/snapshot.js';
import type { MonitorStore } from '../monitor/store.js';
import { RECORDING_SCHEMA, type RecordingEntry, type RecordingHeader } from './format.js';

export interface Recorder {
  /** Resolves once every line written so far is on disk. */
  close(): Promise<void>;
  /** Set when the file cannot be written; monitoring goes on without it. */
  readonly error: string | null;
}

export interface RecordingFile extends Recorder {
  /** Records every result applied to `store`; returns the detach function. */
  attach(store: MonitorStore, device?: string): () => void;
}

interface RecordingMeta {
  intervalMs: number;
  version: string;
  now?: () => number;
}

/** Opens FILE for appending and writes the header; devices given = a fleet recording. */
export function openRecording(path: string, device: string, meta: RecordingMeta, devices?: string[]): RecordingFile {
  const out: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  let error: string | null = null;
  const detachers = new Set<() => void>();
  out.on('error', (err: NodeJS.ErrnoException) => {
    error = `cannot write the recording ${path}: ${err.code === 'EACCES' ? 'permission denied' : err.code === 'ENOENT' ? 'no such directory' : err.message}`;
  });
  const write = (value: RecordingHeader | RecordingEntry) => {
    if (error === null) out.write(`${JSON.stringify(value)}\n`);
  };
  write({
    schema: RECORDING_SCHEMA,
    device,
    ...(devices ? { devices } : {}),
    intervalMs: meta.intervalMs,
    startedAt: new Date(meta.now?.() ?? Date.now()).toISOString(),
    version: meta.version,
  });
  return {
    get error() {
      return error;
    },
    attach(store, entryDevice) {
      const detach = store.onResult((section, result, at, unreachable) => {
        const safe = section === 'alarm' ? maskAlarm(result as Section<AlarmData>) : result;
        write({
          at: new Date(at).toISOString(),
          ...(entryDevice !== undefined ? { device: entryDevice } : {}),
          section,
          result: safe,
          ...(unreachable !== undefined ? { unreachable } : {}),
        } as RecordingEntry);
      });
      detachers.add(detach);
      return () => {
        detach();
        detachers.delete(detach);
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const d of detachers) d();
        detachers.clear();
        out.end(() => resolve());
      }),
  };
}

/** The live monitor's recording: one device. */
export function startRecording(store: MonitorStore, path: string, meta: RecordingMeta): Recorder {
  const file = openRecording(path, store.device, meta);
  file.attach(store);
  return file;
}

function maskAlarm(result: Section<AlarmData>): Section<AlarmData> {
  if (!result.ok) return result;
  return { ok: true, data: { ...result.data, smtpPassword: maskSecret(result.data.smtpPassword, false) } };
}
