/**
 * The Snapshot from the four raw results: every output (TUI, --once, --json, check, /metrics,
 * record files) reads what this returns.
 */
import type { Result } from '../api/errors.js';
import type { RawAlarmEmail, RawGnssList, RawNtpStatus, RawPtpSlave } from '../api/schemas.js';
import { MASKED_SECRET, normalizeAlarm } from './alarm.js';
import { withCapped } from './capped.js';
import { normalizeGnss } from './gnss.js';
import { normalizeNtp } from './ntp.js';
import { normalizePtp } from './ptp.js';
import { sanitizeDeep, sanitizeText, toSnapshotError } from './sanitize.js';
import type { Section, Snapshot } from './snapshot.js';
import { SNAPSHOT_SCHEMA_ID } from './snapshot.js';

export { toSnapshotError };

export interface SnapshotInput {
  device: string;
  takenAt: Date;
  ntp: Result<RawNtpStatus>;
  gnss: Result<RawGnssList>;
  alarm: Result<RawAlarmEmail>;
  ptp: Result<{ id: number; result: Result<RawPtpSlave> }[]>;
}

export interface SnapshotOptions {
  showSecrets: boolean;
}

/** One section: the data normalized (with the lists that were cut), or the error made safe to print. */
export function normalizeSection<R, T>(result: Result<R>, normalize: (raw: R) => T): Section<T> {
  return result.ok ? { ok: true, data: withCapped(normalize(result.data), result.capped) } : { ok: false, error: toSnapshotError(result.error) };
}

/** The device URL for output: a password in its user-info part is masked like the SMTP one. */
export function deviceLabel(device: string, showSecrets: boolean): string {
  if (showSecrets) return sanitizeText(device);
  try {
    const url = new URL(device);
    if (url.password === '') return sanitizeText(device);
    url.password = MASKED_SECRET;
    return sanitizeText(url.toString());
  } catch {
    return sanitizeText(device);
  }
}

export function buildSnapshot(input: SnapshotInput, opts: SnapshotOptions): Snapshot {
  const snapshot: Snapshot = {
    schema: SNAPSHOT_SCHEMA_ID,
    device: deviceLabel(input.device, opts.showSecrets),
    takenAt: input.takenAt.toISOString(),
    ntp: normalizeSection(input.ntp, normalizeNtp),
    gnss: normalizeSection(input.gnss, normalizeGnss),
    ptp: normalizeSection(input.ptp, normalizePtp),
    alarm: normalizeSection(input.alarm, (raw) => normalizeAlarm(raw, opts)),
  };
  // The normalizers sanitize field by field; this last pass is the guarantee that a field added
  // later cannot slip out unsanitized or as NaN. Sanitizing is idempotent, so it costs no change.
  return sanitizeDeep(snapshot);
}
