import { describe, expect, it } from 'vitest';
import type { Result } from '../../src/api/errors.js';
import type { RawPtpSlave } from '../../src/api/schemas.js';
import { normalizePtp, normalizePtpPort } from '../../src/model/ptp.js';
import { ptpDataSchema } from '../../src/model/snapshot.js';

const slave: RawPtpSlave = {
  portId: 0,
  portNumber: 1,
  syncState: 'STABLE',
  offsetFromMaster: -12,
  meanPathDelay: 850,
  masterOffset: -12,
  stepsRemoved: 1,
  cumulativeRateOffset: 0.125,
  gmPresent: true,
  gmIdentity: '001122.fffe.334455',
  parentPortIdentity: '001122.fffe.334455-1',
  gmClockClass: 6,
  gmClockAccuracy: 33,
  gmOffsetScaledLogVariance: 20061.5,
  gmPriority1: 128,
  gmPriority2: 128,
  lastUpdate: 1795000000,
};

const notFound: Result<RawPtpSlave> = { ok: false, error: { kind: 'device', code: '40004', message: 'no PTP slave port with that id' } };

describe('normalizePtpPort', () => {
  it('normalizes a slave port', () => {
    expect(normalizePtpPort(0, { ok: true, data: slave })).toEqual({
      id: 0,
      ok: true,
      portNumber: 1,
      syncState: 'STABLE',
      offsetFromMasterNs: -12,
      meanPathDelayNs: 850,
      masterOffsetNs: -12,
      stepsRemoved: 1,
      cumulativeRateOffsetPpm: 0.125,
      gmPresent: true,
      gmIdentity: '001122.fffe.334455',
      parentPortIdentity: '001122.fffe.334455-1',
      gmClockClass: 6,
      gmClockAccuracy: 33,
      gmOffsetScaledLogVariance: 20061.5,
      gmPriority1: 128,
      gmPriority2: 128,
      lastUpdate: 1795000000,
    });
  });

  it('keeps a failed port with its error and every field null', () => {
    const port = normalizePtpPort(3, notFound);
    expect(port.id).toBe(3);
    expect(port.ok).toBe(false);
    expect(port.error).toEqual({ kind: 'device', code: '40004', message: 'no PTP slave port with that id' });
    const { id: _id, ok: _ok, error: _error, ...fields } = port;
    expect(Object.values(fields).every((v) => v === null)).toBe(true);
    expect(Object.keys(fields)).toHaveLength(16);
  });

  it.each<[string, RawPtpSlave, Partial<ReturnType<typeof normalizePtpPort>>]>([
    ['empty object', {}, { ok: true, syncState: null, gmPresent: null, offsetFromMasterNs: null }],
    ['hostile identity', { gmIdentity: '00\u202E11.fffe', parentPortIdentity: 'a\x07' }, { gmIdentity: '00\\u{202E}11.fffe', parentPortIdentity: 'a\\x07' }],
    ['unknown sync state passes through', { syncState: 'HOLDOVER' }, { syncState: 'HOLDOVER' }],
    ['non-finite numbers become null', { offsetFromMaster: Number.NaN, meanPathDelay: Number.POSITIVE_INFINITY }, { offsetFromMasterNs: null, meanPathDelayNs: null }],
    ['negative zero becomes zero', { offsetFromMaster: -0 }, { offsetFromMasterNs: 0 }],
  ])('%s', (_name, raw, expected) => {
    const port = normalizePtpPort(1, { ok: true, data: raw });
    expect(port).toMatchObject(expected);
    if (port.offsetFromMasterNs === 0) expect(Object.is(port.offsetFromMasterNs, -0)).toBe(false);
  });

  it('sanitizes the error message', () => {
    const port = normalizePtpPort(0, { ok: false, error: { kind: 'device', message: 'errorMessage=\x1b]0;x\x07' } });
    expect(port.error).toEqual({ kind: 'device', message: 'errorMessage=\\x1b]0;x\\x07' });
  });
});

describe('normalizePtp', () => {
  it('keeps every port in order, failed ones included', () => {
    const data = normalizePtp([
      { id: 0, result: { ok: true, data: slave } },
      { id: 1, result: notFound },
    ]);
    expect(ptpDataSchema.parse(data)).toEqual(data);
    expect(data.ports.map((p) => [p.id, p.ok])).toEqual([
      [0, true],
      [1, false],
    ]);
  });

  it('gives no ports for no results', () => {
    expect(normalizePtp([])).toEqual({ ports: [] });
  });
});
