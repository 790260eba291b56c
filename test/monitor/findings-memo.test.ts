/**
 * What FindingsMemo rests on: a rule of a section reads that section, the observations about it
 * and the time its answer arrived (besides the interval and thresholds), nothing else. Every rule
 * of the table is run on snapshots of every simulator scenario with everything else swapped for
 * another scenario's (other sections, failing ones included, the device, the clock, the other
 * sections' observations and answer times): its findings must not move. Then the memo itself
 * against collectFindings over answers that arrive one section at a time.
 */
import { describe, expect, it } from 'vitest';
import { FindingsMemo } from '../../src/monitor/findings-memo.js';
import { collectFindings, defaultThresholds, ruleContext, ruleFindings, rules, type HealthContext, type Observation } from '../../src/monitor/health.js';
import type { SectionName, Snapshot } from '../../src/model/snapshot.js';
import { scenarioNames } from '../../src/sim/scenarios.js';
import { SIM_WALL, simSnapshot } from './sim-snapshots.js';

const sections: SectionName[] = ['ntp', 'gnss', 'ptp', 'alarm'];
const down = { ok: false as const, error: { kind: 'network' as const, message: 'no answer within 900 ms (timeout)' } };

/** Observations of every kind, about the sources, receivers and ports of `s`. */
function observationsOf(s: Snapshot): Observation[] {
  const names = s.ntp.ok ? s.ntp.data.sources.map((x) => x.name) : ['GPS'];
  return [
    ...names.map((name) => ({ kind: 'ntp-frozen' as const, section: 'ntp' as const, subject: `ntp source ${name}`, source: name, message: `NTP source ${name} data frozen` })),
    ...names.map((name) => ({ kind: 'ntp-former-sync-source' as const, section: 'ntp' as const, subject: `ntp source ${name}`, source: name, message: `NTP source ${name}, the sync source before, not selectable` })),
    { kind: 'gnss-frozen', section: 'gnss', subject: 'gnss rx 0', message: 'GNSS receiver 0 time frozen' },
    { kind: 'ptp-frozen', section: 'ptp', subject: 'ptp port 0', message: 'PTP port 0 data frozen' },
  ];
}

/** Snapshots unlike each other: every scenario at two device times, and the device down or half down. */
function variety(): { s: Snapshot; at: number }[] {
  const out = scenarioNames.flatMap((name) => [3, 20].map((t) => ({ s: simSnapshot(name, t, 5), at: SIM_WALL + t * 1000 })));
  const base = out[0]!;
  out.push({ s: { ...base.s, device: 'https://10.9.9.9/api/v1', ntp: down, gnss: down, ptp: down, alarm: down }, at: base.at + 7_000 });
  out.push({ s: { ...base.s, gnss: down, alarm: { ok: false, error: { kind: 'http', code: '404', message: 'HTTP 404' } } }, at: base.at + 9_000 });
  return out;
}

describe('FindingsMemo', () => {
  it("a rule of a section reads nothing of the other sections, their observations and answer times, nor the clock", () => {
    const snaps = variety();
    let compared = 0;
    for (const [i, a] of snaps.entries()) {
      const b = snaps[(i * 7 + 3) % snaps.length]!;
      for (const rule of rules.filter((r) => r.section !== 'device')) {
        const own = rule.section as SectionName;
        const observed = observationsOf(a.s);
        const context: HealthContext = { now: a.at, answeredAt: { ntp: a.at - 100, gnss: a.at - 200, ptp: a.at - 300, alarm: a.at - 400 }, intervalMs: 2000, observed };
        // Everything the rule must not read comes from `b`; its own section, observations and answer time stay.
        const mixed: Snapshot = { ...b.s, [own]: a.s[own] };
        const mixedContext: HealthContext = {
          now: b.at + 123_456,
          answeredAt: { ...Object.fromEntries(sections.map((n) => [n, b.at - 5])), [own]: context.answeredAt![own] },
          intervalMs: 2000,
          observed: [...observationsOf(b.s).filter((o) => o.section !== own), ...observed.filter((o) => o.section === own)],
        };
        const expected = ruleFindings(rule, a.s, ruleContext(a.s, defaultThresholds, context));
        expect(ruleFindings(rule, mixed, ruleContext(mixed, defaultThresholds, mixedContext)), `${rule.id} on snapshot ${i}`).toEqual(expected);
        compared += expected.length;
      }
    }
    // The snapshots are unlike enough that the rules said something.
    expect(compared).toBeGreaterThan(50);
  });

  it('gives what collectFindings gives, answer after answer, one section at a time', () => {
    const memo = new FindingsMemo();
    const observedAt = new Map<number, Observation[]>();
    let snap = simSnapshot('healthy', 0, 3);
    let at = SIM_WALL;
    const scenarios = ['healthy', 'gnss-antenna-open', 'ptp-acquiring', 'ntp-unsynced', 'no-gnss', 'healthy'] as const;
    for (let k = 0; k < 120; k++) {
      const name = sections[k % 4]!;
      at += 500;
      const t = Math.floor(k / 4);
      // Now a new answer, now the same answer again (a device that repeats itself), now a failure.
      const next = k % 11 === 5 ? down : k % 7 === 3 ? snap[name] : simSnapshot(scenarios[Math.floor(k / 20)]!, t, 3)[name];
      snap = { ...snap, [name]: next, takenAt: new Date(at).toISOString() } as Snapshot;
      // Observations come and go with the section they are about; the same objects while it does not answer.
      if (k % 13 === 0) observedAt.set(k, observationsOf(snap).filter((o) => o.section === name || k % 2 === 0));
      const observed = observedAt.get([...observedAt.keys()].at(-1) ?? -1) ?? [];
      const context: HealthContext = { now: at, answeredAt: { [name]: at, ntp: at - 1500 }, intervalMs: 2000, observed };
      expect(memo.collect(snap, defaultThresholds, context), `answer ${k} (${name})`).toEqual(collectFindings(snap, defaultThresholds, context));
    }
  });
});
