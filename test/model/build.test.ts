import { describe, expect, it } from 'vitest';
import type { ApiError, Result } from '../../src/api/errors.js';
import type { RawAlarmEmail, RawGnssList, RawNtpStatus, RawPtpSlave } from '../../src/api/schemas.js';
import type { SnapshotInput } from '../../src/model/build.js';
import { buildSnapshot, deviceLabel, normalizeSection, toSnapshotError } from '../../src/model/build.js';
import { hasUnsafeCharacters } from '../../src/model/sanitize.js';
import { snapshotSchema } from '../../src/model/snapshot.js';

const ESC = '\x1b';
const takenAt = new Date('2026-11-22T03:04:05.678Z');

const ntp: RawNtpStatus = {
  overallStatus: 'Synchronized',
  syncSourceName: 'GPS',
  sourceCount: 1,
  sources: [{ nameIp: 'GPS', mode: 'Reference clock', state: 'Best source', isSyncSource: true, stratum: 0, poll: 4, reach: '377', lastRx: '3', lastSample: '+120ns[+130ns] +/- 50ns' }],
};
const gnss: RawGnssList = [{ id: 0, status: 'working', position: { latitude: "22.5'N", longitude: "113.9'E" }, ppsValid: 'valid', signal: [{ type: 'gps', count: 10 }] }];
const alarm: RawAlarmEmail = { alertLevel: 'critical', smtpPassword: 'secret', recipientEmails: ['a@example.org'] };
const slave: RawPtpSlave = { syncState: 'STABLE', offsetFromMaster: 5, gmIdentity: '001122.fffe.334455' };

const ok = <T>(data: T): Result<T> => ({ ok: true, data });
const fail = (error: ApiError): Result<never> => ({ ok: false, error });

function input(overrides: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    device: 'https://clock.example.org',
    takenAt,
    ntp: ok(ntp),
    gnss: ok(gnss),
    alarm: ok(alarm),
    ptp: ok([
      { id: 0, result: ok(slave) },
      { id: 1, result: fail({ kind: 'device', code: '40004', message: 'no PTP slave port with that id' }) },
    ]),
    ...overrides,
  };
}

/** Every string and number anywhere in a JSON value. */
function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...leaves(v)]);
  return [value];
}

describe('buildSnapshot', () => {
  it('builds a snapshot that validates against the contract', () => {
    const snapshot = buildSnapshot(input(), { showSecrets: false });
    expect(snapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.schema).toBe('synctop.snapshot/1');
    expect(snapshot.device).toBe('https://clock.example.org');
    expect(snapshot.takenAt).toBe('2026-11-22T03:04:05.678Z');
    expect(snapshot.ntp).toMatchObject({ ok: true, data: { syncSource: 'GPS', sources: [{ offsetNs: 120, reachCount: 8, pollSeconds: 16 }] } });
    expect(snapshot.gnss).toMatchObject({ ok: true, data: { receivers: [{ latitudeDeg: 22.5, satellitesTotal: 10, ppsValid: true }] } });
    expect(snapshot.alarm).toMatchObject({ ok: true, data: { smtpPassword: '***' } });
    expect(snapshot.ptp).toMatchObject({ ok: true, data: { ports: [{ id: 0, ok: true, offsetFromMasterNs: 5 }, { id: 1, ok: false, error: { code: '40004' } }] } });
  });

  it('shows secrets only when asked', () => {
    const snapshot = buildSnapshot(input(), { showSecrets: true });
    expect(snapshot.alarm).toMatchObject({ ok: true, data: { smtpPassword: 'secret' } });
  });

  it('keeps the other sections when one operation failed', () => {
    const snapshot = buildSnapshot(
      input({
        gnss: fail({ kind: 'device', code: '40003', message: 'no GNSS receiver, or no permission to see it' }),
        alarm: fail({ kind: 'auth', code: '403', message: 'permission refused (HTTP 403)' }),
        ptp: fail({ kind: 'network', code: 'TIMEOUT', message: 'timeout' }),
      }),
      { showSecrets: false },
    );
    expect(snapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.ntp.ok).toBe(true);
    expect(snapshot.gnss).toEqual({ ok: false, error: { kind: 'device', code: '40003', message: 'no GNSS receiver, or no permission to see it' } });
    expect(snapshot.alarm.ok).toBe(false);
    expect(snapshot.ptp).toEqual({ ok: false, error: { kind: 'network', code: 'TIMEOUT', message: 'timeout' } });
  });

  it('sanitizes every string and leaves no NaN or Infinity, whatever the device sends', () => {
    const hostile = `${ESC}]0;owned\x07${ESC}[2J\u202E\u200B\x9b`;
    const snapshot = buildSnapshot(
      input({
        device: `https://clock.example.org/${hostile}`,
        ntp: ok({
          overallStatus: hostile,
          syncSourceName: hostile,
          sourceCount: Number.NaN,
          sources: [{ nameIp: hostile, mode: hostile, state: hostile, reach: hostile, lastRx: hostile, lastSample: hostile, stratum: Number.POSITIVE_INFINITY, poll: Number.NaN }],
        }),
        gnss: ok([{ status: hostile, antStatus: hostile, utcDate: hostile, utcTime: hostile, position: { latitude: hostile, longitude: hostile, altitude: Number.NaN }, signal: [{ type: hostile, count: Number.NaN }] }]),
        alarm: ok({ senderName: hostile, recipientEmails: [hostile], smtpPassword: hostile, smtpPort: Number.NEGATIVE_INFINITY }),
        ptp: ok([
          { id: 0, result: ok({ syncState: hostile, gmIdentity: hostile, parentPortIdentity: hostile, offsetFromMaster: Number.NaN }) },
          { id: 1, result: fail({ kind: 'device', message: `the device reported an error it does not document (errorMessage=${hostile})` }) },
        ]),
      }),
      { showSecrets: true },
    );
    expect(snapshotSchema.parse(snapshot)).toEqual(snapshot);
    for (const leaf of leaves(snapshot)) {
      if (typeof leaf === 'string') expect(hasUnsafeCharacters(leaf), leaf).toBe(false);
      if (typeof leaf === 'number') expect(Number.isFinite(leaf)).toBe(true);
    }
    expect(JSON.stringify(snapshot)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it('masks a password in the device URL unless secrets are shown', () => {
    expect(buildSnapshot(input({ device: 'https://admin:pw@clock.example.org/' }), { showSecrets: false }).device).toBe('https://admin:***@clock.example.org/');
    expect(buildSnapshot(input({ device: 'https://admin:pw@clock.example.org/' }), { showSecrets: true }).device).toBe('https://admin:pw@clock.example.org/');
  });
});

describe('deviceLabel', () => {
  it.each<[string, string]>([
    ['https://clock.example.org', 'https://clock.example.org'],
    ['http://user@10.0.0.1:8080', 'http://user@10.0.0.1:8080'],
    ['http://u:p@10.0.0.1:8080/x', 'http://u:***@10.0.0.1:8080/x'],
    ['demo', 'demo'],
    [`not a url ${ESC}[2J`, 'not a url \\x1b[2J'],
  ])('%j -> %j', (device, expected) => {
    expect(deviceLabel(device, false)).toBe(expected);
  });
});

describe('toSnapshotError', () => {
  it.each<[ApiError, ReturnType<typeof toSnapshotError>]>([
    [{ kind: 'device', code: '40004', message: 'no PTP slave port with that id' }, { kind: 'device', code: '40004', message: 'no PTP slave port with that id' }],
    [{ kind: 'network', message: 'refused' }, { kind: 'network', message: 'refused' }],
    [{ kind: 'http', code: '502', message: `an HTML page titled "${ESC}]0;x\x07"` }, { kind: 'http', code: '502', message: 'an HTML page titled "\\x1b]0;x\\x07"' }],
    [{ kind: 'device', code: `4\u202E0`, message: 'm' }, { kind: 'device', code: '4\\u{202E}0', message: 'm' }],
  ])('%j', (error, expected) => {
    const out = toSnapshotError(error);
    expect(out).toEqual(expected);
    expect('code' in out).toBe(expected.code !== undefined);
  });

  it('drops fields that are not part of the contract', () => {
    const error = { kind: 'network', message: 'x', cause: new Error('inner') } as ApiError;
    expect(toSnapshotError(error)).toEqual({ kind: 'network', message: 'x' });
  });
});

describe('normalizeSection', () => {
  it('maps data and converts errors', () => {
    expect(normalizeSection(ok(2), (n: number) => n * 2)).toEqual({ ok: true, data: 4 });
    expect(normalizeSection(fail({ kind: 'protocol', message: 'bad\x07' }), (n: number) => n)).toEqual({ ok: false, error: { kind: 'protocol', message: 'bad\\x07' } });
  });
});
