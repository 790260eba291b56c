/**
 * Snapshots of a simulated device at chosen device times, through the same decode and build as
 * the client: what a monitor polling the simulator would see, without waiting for real time.
 */
import { decode } from '../../src/api/client.js';
import type { OperationName } from '../../src/api/endpoints.js';
import type { RawGnssList, RawNtpStatus, RawPtpSlave } from '../../src/api/schemas.js';
import type { Result } from '../../src/api/errors.js';
import { buildSnapshot, normalizeSection } from '../../src/model/build.js';
import { normalizeGnss } from '../../src/model/gnss.js';
import { normalizeNtp } from '../../src/model/ntp.js';
import { normalizePtp } from '../../src/model/ptp.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { errorEnvelope, successEnvelope } from '../../src/sim/faults.js';
import { answer, slavePortIds, type DeviceClock, type ScenarioName } from '../../src/sim/scenarios.js';

export const SIM_WALL = Date.parse('2026-11-22T14:00:00.000Z');

const body = (name: ScenarioName, op: OperationName, id: number | undefined, clock: DeviceClock) => {
  const a = answer(name, op, id, clock);
  return JSON.stringify(a.ok ? successEnvelope(a.data) : errorEnvelope(a.errorCode));
};

/** The device as polled `t` device seconds after the simulator started (warm, first boot); taken at that wall time. */
export function simSnapshot(name: ScenarioName, t: number, seed = 1): Snapshot {
  const clock: DeviceClock = { seed, boot: 0, t, coldStart: false, wallStartMs: SIM_WALL };
  const ports: { id: number; result: Result<RawPtpSlave> }[] = slavePortIds(name).map((id) => ({ id, result: decode('ptp', body(name, 'ptp', id, clock)) }));
  return buildSnapshot(
    {
      device: 'http://127.0.0.1:8080',
      takenAt: new Date(SIM_WALL + t * 1000),
      ntp: decode('ntp', body(name, 'ntp', undefined, clock)),
      gnss: decode('gnss', body(name, 'gnss', undefined, clock)),
      alarm: decode('alarm', body(name, 'alarm', undefined, clock)),
      ptp: { ok: true, data: ports },
    },
    { showSecrets: false },
  );
}

/**
 * The same snapshot without the wire: the scenario's raw answers straight into the normalizers
 * (no JSON, schema check or sanitizing, which change nothing in a simulated answer; the test of
 * this file holds it equal to simSnapshot). The alarm, which never moves, is taken from `base`.
 * For properties that need many thousand polls.
 */
export function simSnapshotFast(name: ScenarioName, t: number, seed: number, base: Snapshot): Snapshot {
  const clock: DeviceClock = { seed, boot: 0, t, coldStart: false, wallStartMs: SIM_WALL };
  const raw = <T>(op: OperationName, id?: number): Result<T> => {
    const a = answer(name, op, id, clock);
    return a.ok ? { ok: true, data: a.data as T } : decode(op, body(name, op, id, clock)) as Result<T>;
  };
  return {
    ...base,
    takenAt: new Date(SIM_WALL + t * 1000).toISOString(),
    ntp: normalizeSection(raw<RawNtpStatus>('ntp'), normalizeNtp),
    gnss: normalizeSection(raw<RawGnssList>('gnss'), normalizeGnss),
    ptp: normalizeSection({ ok: true, data: slavePortIds(name).map((id) => ({ id, result: raw<RawPtpSlave>('ptp', id) })) }, normalizePtp),
  };
}
