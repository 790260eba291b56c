/**
 * One poll's worth of device bodies (all four operations, two PTP ports), and the snapshot the
 * client and --once would make of them: shared by the output and TUI properties.
 */
import fc from 'fast-check';
import { decode } from '../../src/api/client.js';
import type { Result } from '../../src/api/errors.js';
import type { RawPtpSlave } from '../../src/api/schemas.js';
import { buildSnapshot } from '../../src/model/build.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { operationBody } from './arbitraries.js';

/** The four operations' bodies for one poll; PTP has two ports, each its own answer. */
export const pollBodies = fc.record({
  ntp: operationBody('ntp'),
  gnss: operationBody('gnss'),
  alarm: operationBody('alarm'),
  ptp0: operationBody('ptp'),
  ptp1: operationBody('ptp'),
  showSecrets: fc.boolean(),
});

export type PollBodies = typeof pollBodies extends fc.Arbitrary<infer T> ? T : never;

export const TAKEN_AT = new Date(Date.UTC(2026, 10, 22, 14, 2, 30));

/** What the poll would make of those bodies: the same decode and build the client and --once use. */
export function snapshotOf(b: PollBodies): Snapshot {
  const ports: { id: number; result: Result<RawPtpSlave> }[] = [
    { id: 0, result: decode('ptp', b.ptp0) },
    { id: 1, result: decode('ptp', b.ptp1) },
  ];
  return buildSnapshot(
    {
      device: 'https://10.20.0.5',
      takenAt: TAKEN_AT,
      ntp: decode('ntp', b.ntp),
      gnss: decode('gnss', b.gnss),
      alarm: decode('alarm', b.alarm),
      ptp: { ok: true, data: ports },
    },
    { showSecrets: b.showSecrets },
  );
}

/** Each section is data, or an error with a non-empty sentence; so is each PTP port. */
export function sectionProblem(snap: Snapshot): string | null {
  for (const name of ['ntp', 'gnss', 'ptp', 'alarm'] as const) {
    const s = snap[name];
    if (s.ok && (s.data === null || s.data === undefined)) return `${name}: ok without data`;
    if (!s.ok && !(typeof s.error.message === 'string' && s.error.message.trim() !== '')) return `${name}: error without a sentence`;
  }
  if (snap.ptp.ok) {
    for (const p of snap.ptp.data.ports) if (!p.ok && !(p.error?.message ?? '').trim()) return `ptp port ${p.id}: error without a sentence`;
  }
  return null;
}
