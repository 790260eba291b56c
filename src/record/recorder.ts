/**
 * --record FILE: appends every section result to a JSON Lines file as it is applied. A
 * recording is handed to support, so the SMTP password is masked even under --show-secrets, and
 * credentials (tokens, cookies, headers) are never part of what is written: only the snapshot
 * contract is.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { maskSecret } from '../model/alarm.js';
import type { AlarmData, Section } from '../model/snapshot.js';
import type { MonitorStore } from '../monitor/store.js';
import { RECORDING_SCHEMA, type RecordingEntry, type RecordingHeader } from './format.js';

export interface Recorder {
  /** Resolves once every line written so far is on disk. */
  close(): Promise<void>;
  /** Set when the file cannot be written; the monitor goes on without it. */
  readonly error: string | null;
}

export function startRecording(store: MonitorStore, path: string, meta: { intervalMs: number; version: string; now?: () => number }): Recorder {
  const out: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  let error: string | null = null;
  out.on('error', (err: NodeJS.ErrnoException) => {
    error = `cannot write the recording ${path}: ${err.code === 'EACCES' ? 'permission denied' : err.code === 'ENOENT' ? 'no such directory' : err.message}`;
  });
  const write = (value: RecordingHeader | RecordingEntry) => {
    if (error === null) out.write(`${JSON.stringify(value)}\n`);
  };
  write({
    schema: RECORDING_SCHEMA,
    device: store.device,
    intervalMs: meta.intervalMs,
    startedAt: new Date(meta.now?.() ?? Date.now()).toISOString(),
    version: meta.version,
  });
  const stop = store.onResult((section, result, at, unreachable) => {
    const safe = section === 'alarm' ? maskAlarm(result as Section<AlarmData>) : result;
    write({ at: new Date(at).toISOString(), section, result: safe, ...(unreachable !== undefined ? { unreachable } : {}) } as RecordingEntry);
  });
  return {
    get error() {
      return error;
    },
    close: () =>
      new Promise<void>((resolve) => {
        stop();
        out.end(() => resolve());
      }),
  };
}

function maskAlarm(result: Section<AlarmData>): Section<AlarmData> {
  if (!result.ok) return result;
  return { ok: true, data: { ...result.data, smtpPassword: maskSecret(result.data.smtpPassword, false) } };
}
