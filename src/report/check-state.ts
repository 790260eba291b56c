/**
 * `check --state-file FILE`: the memory a monitoring plugin keeps between its runs. Each run saves
 * the last known data of every section and PTP port, with its time; the next run hands it to the
 * same VerdictMemory the live monitor uses, so a section that cannot be read keeps its last known
 * findings, marked stale, and the exit code never improves because data disappeared.
 *
 * The file is outside input when read back (another user, a copy, a crafted or damaged file): it
 * is read with a size cap, never through a symbolic link, only when a regular file, validated
 * with the snapshot contract's section schemas, sanitized and capped like a recording. Anything
 * wrong with it costs one warning and the memory of this run, never the check.
 *
 * Written atomically (a 0600 temporary file in the same directory, O_EXCL and O_NOFOLLOW, then
 * renamed over FILE): a run killed mid-write leaves the previous state whole. Only data goes in:
 * the SMTP password masked, no error message, no credential.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { LIST_CAPS } from '../api/list-caps.js';
import { readBoundedFile, readFailure } from '../bounded-read.js';
import { quoteArgument, UsageError } from '../config.js';
import { maskSecret } from '../model/alarm.js';
import { sanitizeDeep, sanitizePath } from '../model/sanitize.js';
import { alarmDataSchema, gnssDataSchema, ntpDataSchema, ptpDataSchema, ptpPortSchema, sectionNames, type AlarmData, type SectionName } from '../model/snapshot.js';
import type { LastKnownData } from '../monitor/verdict-memory.js';
import { capRecorded } from '../record/reader.js';

export const CHECK_STATE_SCHEMA = 'synctop.check-state/1';

/** A state file is a few KiB; anything near this is not one synctop wrote. */
export const MAX_STATE_BYTES = 1024 * 1024;

/** --state-max-age's default: last known data older than this is not kept in the verdict. */
export const DEFAULT_STATE_MAX_AGE_MS = 60 * 60 * 1000;

const known = <T extends z.ZodType>(data: T) => z.object({ at: z.string(), data });

const stateSchema = z.object({
  schema: z.literal(CHECK_STATE_SCHEMA),
  device: z.string(),
  savedAt: z.string(),
  sections: z.object({
    ntp: known(ntpDataSchema).optional(),
    gnss: known(gnssDataSchema).optional(),
    ptp: known(ptpDataSchema).optional(),
    alarm: known(alarmDataSchema).optional(),
  }),
  ports: z.array(z.object({ at: z.string(), port: ptpPortSchema })).max(LIST_CAPS.ptpPorts),
});
type CheckState = z.infer<typeof stateSchema>;


/** --state-max-age 3600, 90s, 30m, 2h: a bare number is seconds. */
const ageUnitsMs: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };

export function parseStateMaxAge(text: string | undefined): number {
  if (text === undefined) return DEFAULT_STATE_MAX_AGE_MS;
  const match = /^(\d{1,9})(s|m|h)?$/.exec(text.trim());
  const ms = match ? Number(match[1]) * ageUnitsMs[match[2] ?? '']! : 0;
  if (ms <= 0) throw new UsageError(`--state-max-age takes a positive time in seconds or with a unit, such as 3600, 30m or 2h (got ${quoteArgument(text)})`);
  return ms;
}

export interface LoadedState {
  /** Empty when there is no usable state. */
  data: LastKnownData;
  /** At most one sentence, for stderr. */
  warnings: string[];
}

const nothing = (): LastKnownData => ({ sections: [], ports: [] });

/**
 * The last known data FILE holds for `device`, no older than `maxAgeMs` at `nowMs`. No file yet
 * (the first run) is no state and no warning; every other problem is one warning and no state.
 */
export function loadCheckState(path: string, device: string, nowMs: number, maxAgeMs: number): LoadedState {
  const ignored = (why: string): LoadedState => ({ data: nothing(), warnings: [`synctop: warning: --state-file ${sanitizePath(path)} ignored: ${why}`] });
  let text: string;
  try {
    text = readBoundedFile(path, MAX_STATE_BYTES, { regularOnly: true, noFollow: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { data: nothing(), warnings: [] };
    return ignored(code === 'ELOOP' ? 'it is a symbolic link, which synctop neither follows nor replaces' : readFailure(err));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return ignored('it is not JSON (damaged)');
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) return ignored(`it is not a synctop check state (${sanitizePath(parsed.error.issues[0]?.path.map(String).join('.') || 'schema')})`);
  const state = sanitizeDeep(parsed.data);
  if (state.device !== device) return ignored(`it holds the state of another device (${sanitizePath(state.device)})`);
  // A time from the future (a clock set back, a crafted file) would never age out: not kept.
  const fresh = (at: string) => {
    const ms = Date.parse(at);
    return Number.isFinite(ms) && ms <= nowMs && nowMs - ms <= maxAgeMs ? ms : null;
  };
  const data = nothing();
  for (const name of sectionNames) {
    const entry = state.sections[name];
    const at = entry ? fresh(entry.at) : null;
    if (entry && at !== null) data.sections.push({ name, value: { ok: true, data: capRecorded(name, entry.data as Record<string, unknown>) }, at });
  }
  for (const p of state.ports) {
    const at = fresh(p.at);
    if (at !== null) data.ports.push({ value: p.port, at });
  }
  const total = sectionNames.filter((n) => state.sections[n]).length + state.ports.length;
  const kept = data.sections.length + data.ports.length;
  const warnings = total > 0 && kept === 0 ? [`synctop: warning: --state-file ${sanitizePath(path)} ignored: its data is older than --state-max-age (${maxAgeMs / 1000} s)`] : [];
  return { data, warnings };
}

/** The state file's text: only data with its time; the SMTP password masked whatever was asked. */
export function checkStateText(data: LastKnownData, device: string, nowMs: number): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const sections: CheckState['sections'] = {};
  for (const s of data.sections) {
    if (!s.value.ok) continue;
    const value = s.name === 'alarm' ? { ...(s.value.data as AlarmData), smtpPassword: maskSecret((s.value.data as AlarmData).smtpPassword, false) } : s.value.data;
    (sections as Record<string, unknown>)[s.name] = { at: iso(s.at), data: value };
  }
  const state: CheckState = {
    schema: CHECK_STATE_SCHEMA,
    device,
    savedAt: iso(nowMs),
    sections,
    ports: data.ports.filter((p) => p.value.ok).map((p) => ({ at: iso(p.at), port: p.value })),
  };
  return `${JSON.stringify(state)}\n`;
}

/** Why the state could not be written, per error code. */
const writeFailures: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'no such directory',
  EACCES: 'permission denied (its directory must be writable)',
  EPERM: 'permission denied (its directory must be writable)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EISDIR: 'it is a directory',
};

/**
 * Writes `text` to FILE atomically; a warning sentence when it could not (the check's result
 * stands either way). FILE itself must be a regular file or absent: a symbolic link or anything
 * else at that path is left alone, as reading never follows one.
 */
export function saveCheckState(path: string, text: string): string | null {
  const shown = sanitizePath(path);
  const failed = (why: string) => `synctop: warning: --state-file ${shown} not saved: ${why}`;
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return failed('it is a symbolic link, which synctop does not follow or replace');
    if (!st.isFile()) return failed('it is not a regular file');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return failed(readFailure(err));
  }
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, path);
    return null;
  } catch (err) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already renamed.
    }
    const code = (err as NodeJS.ErrnoException).code ?? '';
    return failed(Object.hasOwn(writeFailures, code) ? writeFailures[code]! : code || 'write error');
  }
}
