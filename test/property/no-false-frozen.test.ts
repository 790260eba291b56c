/**
 * No false alarms (issue 15): every scenario of a device that does not hang, polled at intervals
 * from 0.5 s to 10 s with the poller's jitter, with the simulator's servo, satellite and chrony
 * noise and a fresh seed per run, never shows a frozen finding or event over 10,000 polls.
 * Each run feeds one detector, as the store does for the live monitor (the health rules turn
 * exactly its observations into frozen findings: test/monitor/successive.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultThresholds } from '../../src/monitor/health.js';
import { SuccessiveAnswers } from '../../src/monitor/successive.js';
import { scenarioNames, type ScenarioName } from '../../src/sim/scenarios.js';
import { SIM_WALL, simSnapshot, simSnapshotFast } from '../monitor/sim-snapshots.js';

const TOTAL_POLLS = 10_000;
const POLLS_PER_RUN = 250;
const notHanging = scenarioNames.filter((n) => !n.startsWith('frozen-')) as ScenarioName[];

const run = fc.record({
  scenario: fc.constantFrom(...notHanging),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  intervalS: fc.constantFrom(0.5, 1, 2, 5, 10),
  startS: fc.integer({ min: 0, max: 86_400 }),
  // The poller's ±5 % jitter, per poll.
  jitter: fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: POLLS_PER_RUN, maxLength: POLLS_PER_RUN }),
});

describe('frozen-data rules: no false alarm', () => {
  it('the fast snapshots are the wire snapshots', () => {
    for (const scenario of notHanging) {
      for (const t of [0, 7.5, 3_601]) {
        const wire = simSnapshot(scenario, t, 7);
        expect(simSnapshotFast(scenario, t, 7, wire), `${scenario} at ${t}s`).toEqual(wire);
      }
    }
  });

  it(`no frozen finding nor event in ${TOTAL_POLLS.toLocaleString('en')} polls of devices that do not hang`, () => {
    let polls = 0;
    fc.assert(
      fc.property(run, ({ scenario, seed, intervalS, startS, jitter }) => {
        const detector = new SuccessiveAnswers();
        const said: string[] = [];
        let t = startS;
        const base = simSnapshot(scenario, t, seed);
        for (const j of jitter) {
          const seen = detector.observe(simSnapshotFast(scenario, t, seed, base), SIM_WALL + t * 1000, intervalS * 1000, defaultThresholds);
          said.push(...seen.observed.filter((o) => o.kind !== 'ntp-former-sync-source').map((o) => `${t}s ${o.message}`), ...seen.events.map((e) => `${t}s event ${e.message}`));
          t += intervalS * (1 + j);
          polls++;
        }
        expect(said, `${scenario} seed ${seed} every ${intervalS}s`).toEqual([]);
      }),
      { numRuns: TOTAL_POLLS / POLLS_PER_RUN },
    );
    expect(polls).toBe(TOTAL_POLLS);
  }, 120_000);
});
