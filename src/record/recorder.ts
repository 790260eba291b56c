/**
 * --record FILE: appends every section result to a JSON Lines file as it is applied. A
 * recording is handed to support, so the SMTP password is masked even under --show-secrets, and
 * credentials (tokens, cookies, headers) are never part of what is written: only the snapshot
 * contract is. One file holds one device (the live monitor) or a fleet (the exporter), whose
 * lines then name their device.
 */
import { closeSync, constants, createWriteStream, fstatSync, openSync, type WriteStream } from 'node:fs';
import { UsageError } from '../config.js';
import { maskSecret } from '../model/alarm.js';
import { sanitizePath } from '../model/sanitize.js';
import type { AlarmData, Section } from '../model/snapshot.js';
import type { MonitorStore } from '../monitor/store.js';
import { RECORDING_SCHEMA, type RecordingEntry, type RecordingHeader } from './format.js';

export interface Recorder {
  /** Resolves once every line written so far is on disk; calling it again waits for the same. */
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

/** Why a recording cannot be opened, per error code. */
const openFailures: Record<string, string> = {
  ELOOP: 'it is a symbolic link, which synctop does not follow (give the file itself)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'no such directory',
  ENOTDIR: 'no such directory',
  EISDIR: 'it is a directory',
  EROFS: 'the file system is read-only',
  ENXIO: 'it is not a regular file',
};

/** An open recording file: its descriptor, and what to tell the user about it. */
export interface OpenedFile {
  fd: number;
  warnings: string[];
}

/**
 * Opens FILE to append to, at start (a path that cannot be written is a usage error before the
 * screen opens, not news after quitting): created with mode 0600, never through a symbolic link
 * (O_NOFOLLOW: a link planted in a shared directory cannot redirect the recording), only a
 * regular file (O_NONBLOCK keeps a FIFO without a reader from hanging the open). An existing
 * file keeps its mode; one that others can read gets a warning.
 */
export function openRecordingFile(path: string): OpenedFile {
  const shown = sanitizePath(path);
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`--record ${shown}: ${openFailures[code] ?? `cannot be opened (${code || 'unknown error'})`}`);
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new UsageError(`--record ${shown}: it is not a regular file`);
  }
  const mode = stat.mode & 0o777;
  const warnings = (mode & 0o077) !== 0 ? [`--record ${shown} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); it is left so: chmod 600 it`] : [];
  return { fd, warnings };
}

/**
 * Opens FILE for appending (or takes the descriptor openRecordingFile returned) and writes the
 * header; devices given = a fleet recording. Throws UsageError when FILE cannot be opened.
 */
export function openRecording(path: string, device: string, meta: RecordingMeta, devices?: string[], opened?: OpenedFile): RecordingFile {
  const { fd } = opened ?? openRecordingFile(path);
  const out: WriteStream = createWriteStream('', { fd, flags: 'a' });
  let error: string | null = null;
  let closing: Promise<void> | null = null;
  const detachers = new Set<() => void>();
  out.on('error', (err: NodeJS.ErrnoException) => {
    error = `cannot write the recording ${sanitizePath(path)}: ${err.code === 'ENOSPC' ? 'no space left on the device' : (err.code ?? 'write error')}`;
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
      (closing ??= new Promise<void>((resolve) => {
        for (const d of detachers) d();
        detachers.clear();
        out.end(() => resolve());
      })),
  };
}

/** The live monitor's recording: one device. */
export function startRecording(store: MonitorStore, path: string, meta: RecordingMeta, opened?: OpenedFile): Recorder {
  const file = openRecording(path, store.device, meta, undefined, opened);
  file.attach(store);
  return file;
}

function maskAlarm(result: Section<AlarmData>): Section<AlarmData> {
  if (!result.ok) return result;
  return { ok: true, data: { ...result.data, smtpPassword: maskSecret(result.data.smtpPassword, false) } };
}
