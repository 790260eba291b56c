/**
 * PTP slave ports: per-port results -> PtpData. A port whose query failed keeps its place with
 * ok:false and its error, so one refused port does not hide the others.
 */
import type { Result } from '../api/errors.js';
import type { RawPtpSlave } from '../api/schemas.js';
import { sanitizeLabel, toSnapshotError } from './sanitize.js';
import type { PtpData, PtpPort } from './snapshot.js';
import { finiteOrNull } from './units.js';

type PtpFields = Omit<PtpPort, 'id' | 'ok' | 'error'>;

const emptyFields: PtpFields = {
  portNumber: null,
  syncState: null,
  offsetFromMasterNs: null,
  meanPathDelayNs: null,
  masterOffsetNs: null,
  stepsRemoved: null,
  cumulativeRateOffsetPpm: null,
  gmPresent: null,
  gmIdentity: null,
  parentPortIdentity: null,
  gmClockClass: null,
  gmClockAccuracy: null,
  gmOffsetScaledLogVariance: null,
  gmPriority1: null,
  gmPriority2: null,
  lastUpdate: null,
};

function fields(raw: RawPtpSlave): PtpFields {
  return {
    portNumber: finiteOrNull(raw.portNumber),
    syncState: sanitizeLabel(raw.syncState),
    offsetFromMasterNs: finiteOrNull(raw.offsetFromMaster),
    meanPathDelayNs: finiteOrNull(raw.meanPathDelay),
    masterOffsetNs: finiteOrNull(raw.masterOffset),
    stepsRemoved: finiteOrNull(raw.stepsRemoved),
    cumulativeRateOffsetPpm: finiteOrNull(raw.cumulativeRateOffset),
    gmPresent: raw.gmPresent ?? null,
    gmIdentity: sanitizeLabel(raw.gmIdentity),
    parentPortIdentity: sanitizeLabel(raw.parentPortIdentity),
    gmClockClass: finiteOrNull(raw.gmClockClass),
    gmClockAccuracy: finiteOrNull(raw.gmClockAccuracy),
    gmOffsetScaledLogVariance: finiteOrNull(raw.gmOffsetScaledLogVariance),
    gmPriority1: finiteOrNull(raw.gmPriority1),
    gmPriority2: finiteOrNull(raw.gmPriority2),
    lastUpdate: finiteOrNull(raw.lastUpdate),
  };
}

/** `id` is the id the port was asked by, not the portId it reports (which may be missing). */
export function normalizePtpPort(id: number, result: Result<RawPtpSlave>): PtpPort {
  if (!result.ok) return { id, ok: false, error: toSnapshotError(result.error), ...emptyFields };
  return { id, ok: true, ...fields(result.data) };
}

export function normalizePtp(ports: readonly { id: number; result: Result<RawPtpSlave> }[]): PtpData {
  return { ports: ports.map(({ id, result }) => normalizePtpPort(id, result)) };
}
