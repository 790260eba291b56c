/**
 * What only successive answers tell: frozen data (issue 15 item 1) and the sync source that was
 * (issue 16 item 7), and the order in time that cause-and-effect merging needs (issue 16 item 2).
 * The simulator's frozen-ptp and frozen-gnss scenarios drive the store through its one entry
 * point; hand-built snapshots pin each rule's edges.
 */
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { defaultThresholds } from '../../src/monitor/health.js';
import { MonitorStore } from '../../src/monitor/store.js';
import { FROZEN_POLLS, NTP_FROZEN_POLL_INTERVALS, SuccessiveAnswers } from '../../src/monitor/successive.js';
import type { ScenarioName } from '../../src/sim/scenarios.js';
import { SIM_WALL, simSnapshot } from './sim-snapshots.js';
import { edited, healthy, port, source } from './snapshots.js';

const ntp = (s: Snapshot) => (s.ntp.ok ? s.ntp.data : null)!;
const gnss = (s: Snapshot) => (s.gnss.ok ? s.gnss.data : null)!;
const ptp = (s: Snapshot) => (s.ptp.ok ? s.ptp.data : null)!;

/** A store polled once a second over the scenario's first `seconds`: per poll the frozen findings and the new events. */
function pollScenario(name: ScenarioName, seconds: number) {
  const store = new MonitorStore('sim', 1000);
  const polls: { t: number; frozen: string[]; events: string[] }[] = [];
  for (let t = 0; t <= seconds; t++) {
    const before = store.getState().events.length;
    store.applySnapshot(simSnapshot(name, t), SIM_WALL + t * 1000);
    const st = store.getState();
    polls.push({ t, frozen: st.verdict.findings.filter((f) => f.topic === 'frozen').map((f) => f.message), events: st.events.newestFirst().slice(0, st.events.length - before).reverse().map((e) => `${e.severity} ${e.message}`) });
  }
  return polls;
}

describe('frozen data in the simulator scenarios (issue 15 item 1)', () => {
  // Both hang 8 s in for 16 s. Frozen: unchanged for --frozen-after (10 s) over 3 polls or more.
  const hangS = 8;
  const recoverS = 24;
  it.each<[ScenarioName, RegExp]>([
    ['frozen-ptp', /^PTP port 0 data frozen: lastUpdate stuck at 14:00:08 UTC for 1\ds$/],
    ['frozen-gnss', /^GNSS receiver 0 time frozen at 14:00:08 UTC for 1\ds$/],
  ])('%s: a warning once frozen for --frozen-after, an event when it starts and when it ends', (name, message) => {
    const polls = pollScenario(name, 30);
    const frozenAt = polls.filter((p) => p.frozen.length > 0).map((p) => p.t);
    expect(frozenAt[0]).toBe(hangS + defaultThresholds.frozenAfterS);
    expect(frozenAt.at(-1)).toBe(recoverS - 1);
    expect(polls.find((p) => p.t === frozenAt[0])!.frozen[0]).toMatch(message);
    const events = polls.flatMap((p) => p.events.map((e) => [p.t, e] as const));
    expect(events.find(([, e]) => / frozen/.test(e))).toEqual([frozenAt[0], expect.stringMatching(/^warning /)]);
    expect(events.find(([, e]) => /moving again/.test(e))).toEqual([recoverS, expect.stringMatching(/^ok .* data moving again after 16s unchanged$/)]);
    // A real hang is never judged OK.
    const store = new MonitorStore('sim', 1000);
    for (let t = 0; t <= hangS + defaultThresholds.frozenAfterS; t++) store.applySnapshot(simSnapshot(name, t), SIM_WALL + t * 1000);
    expect(store.getState().verdict.severity).toBe('warning');
  });

  it('the healthy scenario never looks frozen', () => {
    expect(pollScenario('healthy', 40).flatMap((p) => [...p.frozen, ...p.events.filter((e) => /frozen/.test(e))])).toEqual([]);
  });
});

/** Feeds a detector the same snapshot, edited per poll, every `stepS` seconds. */
function watch(snaps: ((i: number) => Snapshot), polls: number, stepS = 1) {
  const d = new SuccessiveAnswers();
  let last = d.observe(snaps(0), 0, stepS * 1000, defaultThresholds);
  for (let i = 1; i < polls; i++) last = d.observe(snaps(i), i * stepS * 1000, stepS * 1000, defaultThresholds);
  return last.observed.map((o) => o.message);
}

const moving = (i: number) => port({ lastUpdate: 1_700_000_000 + i, offsetFromMasterNs: 10 + (i % 7) });

describe('SuccessiveAnswers: the edges of each frozen rule (issue 15 item 1)', () => {
  it.each<[string, (i: number) => Snapshot, number, number, RegExp | null]>([
    // ptp4l reports a new servo sample every sync interval; lastUpdate that stands still means the daemon stands still.
    ['PTP lastUpdate stuck over 3 polls and 10 s', (i) => edited((s) => void (ptp(s).ports = [port({ offsetFromMasterNs: 10 + (i % 7) })])), 11, 1, /^PTP port 0 data frozen: lastUpdate stuck at 03:04:05 UTC for 10s$/],
    ['PTP lastUpdate stuck but not yet for 10 s', (i) => edited((s) => void (ptp(s).ports = [port({ offsetFromMasterNs: 10 + (i % 7) })])), 10, 1, null],
    ['PTP lastUpdate stuck for 10 s but in only 2 polls', (i) => edited((s) => void (ptp(s).ports = [port({ offsetFromMasterNs: 10 + i })])), 2, 10, null],
    // Without lastUpdate: offset, path delay and rate offset bit-identical over 5 polls (a real servo's odds ~1e-8).
    ['PTP servo identical over 5 polls, no lastUpdate', () => edited((s) => void (ptp(s).ports = [port({ lastUpdate: null })])), 5, 3, /^PTP port 0 data frozen: offset, path delay and rate offset identical over 5 polls \(12s\) while STABLE$/],
    ['PTP servo identical over 4 polls only', () => edited((s) => void (ptp(s).ports = [port({ lastUpdate: null })])), 4, 4, null],
    ['PTP servo identical but not STABLE (a LOST servo holds its last values)', () => edited((s) => void (ptp(s).ports = [port({ lastUpdate: null, syncState: 'LOST' })])), 8, 3, null],
    ['PTP moving lastUpdate and servo', (i) => edited((s) => void (ptp(s).ports = [moving(i)])), 30, 1, null],
    ['GNSS UTC stands still', () => healthy(), 11, 1, /^GNSS receiver 0 time frozen at 03:04:05 UTC for 10s$/],
    // chrony's lastRx grows between samples; every field identical for 1.5 poll intervals is a hung daemon.
    ['NTP source identical over 1.5 poll intervals', () => edited((s) => void (ntp(s).sources = [source({ pollSeconds: 16 })])), 25, 1, /^NTP source ntp1\.example data frozen: every field identical for 24s \(polled every 16s\)$/],
    ['NTP source identical for less than 1.5 poll intervals', () => edited((s) => void (ntp(s).sources = [source({ pollSeconds: 16 })])), 24, 1, null],
    ['NTP source unreachable (reach 000 legitimately stays put)', () => edited((s) => void (ntp(s).sources = [source({ pollSeconds: 16, reach: '000', reachCount: 0 })])), 60, 1, null],
  ])('%s', (_name, snaps, polls, stepS, expected) => {
    const found = watch((i) => edited((s) => {
      const base = snaps(i);
      // Only the section under test may stand still.
      if (!/GNSS/.test(_name)) gnss(s).receivers = [{ ...gnss(base).receivers[0]!, utc: new Date(Date.parse('2026-11-22T03:04:05Z') + i * stepS * 1000).toISOString() }];
      else gnss(s).receivers = gnss(base).receivers;
      ntp(s).sources = /NTP/.test(_name) ? ntp(base).sources : [source({ lastRxSeconds: i })];
      ptp(s).ports = /PTP/.test(_name) ? ptp(base).ports : [moving(i)];
    }), polls, stepS);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });

  it('counts answers, not snapshots: the store rebuilds the same answer after each section', () => {
    const d = new SuccessiveAnswers();
    const snap = healthy();
    for (let i = 0; i < 20; i++) d.observe(snap, i * 1000, 1000, defaultThresholds);
    // 20 s but one GNSS answer: nothing is known to stand still.
    expect(d.observe(snap, 20_000, 1000, defaultThresholds).observed).toEqual([]);
    expect(FROZEN_POLLS.timestamp).toBeGreaterThanOrEqual(3);
    expect(NTP_FROZEN_POLL_INTERVALS).toBeGreaterThan(1);
  });
});

describe('the sync source that was (issue 16 item 7; chrony marks it "x"/"?" once it stops being selectable)', () => {
  it('the previous best source going Not selectable is a warning finding until it recovers', () => {
    const store = new MonitorStore('dev', 1000);
    const at = (i: number) => Date.parse('2026-11-22T03:04:05Z') + i * 1000;
    store.applySnapshot(healthy(), at(0));
    const gps = ntp(healthy()).sources.find((s) => s.isSyncSource)!.name;
    const switched = edited((s) => {
      for (const src of ntp(s).sources) {
        src.isSyncSource = src.name !== gps;
        if (src.name === gps) src.state = 'Not selectable';
      }
      ntp(s).sources = ntp(s).sources.filter((src) => src.name === gps || src.isSyncSource).slice(0, 2);
      ntp(s).syncSource = ntp(s).sources.find((src) => src.isSyncSource)?.name ?? null;
    });
    // A reference clock says so by its own rule; make it a server to see this rule alone.
    for (const src of ntp(switched).sources) if (src.name === gps) src.mode = 'Server';
    store.applySnapshot(switched, at(1));
    expect(store.getState().verdict.findings.filter((f) => f.rule === 'ntp-former-sync-source')).toEqual([
      expect.objectContaining({ severity: 'warning', subject: `ntp source ${gps}`, message: `NTP source ${gps}, the sync source before, not selectable` }),
    ]);
    store.applySnapshot(healthy(), at(2));
    expect(store.getState().verdict.findings.filter((f) => f.rule === 'ntp-former-sync-source')).toEqual([]);
  });
});

describe('cause and effect in time order, as the store sees them (issue 16 item 2)', () => {
  const antenna = (s: Snapshot) => Object.assign(gnss(s).receivers[0]!, { antenna: 'open' });
  const refclockGone = (s: Snapshot) => {
    const src = ntp(s).sources.find((x) => x.mode === 'Reference clock')!;
    Object.assign(src, { state: 'Not selectable', isSyncSource: false });
  };
  const messages = (store: MonitorStore) => store.getState().verdict.findings.map((f) => f.message);

  it('an effect that started after the antenna opened is its likely effect', () => {
    const store = new MonitorStore('dev', 1000);
    store.applySnapshot(healthy(), 0);
    store.applySnapshot(edited(antenna), 1000);
    store.applySnapshot(edited((s) => (antenna(s), refclockGone(s))), 2000);
    expect(messages(store)[0]).toMatch(/^GNSS receiver 0 antenna open -> likely cause of: reference clock \S+ not selectable/);
  });

  it('an effect that started before the antenna opened is listed apart', () => {
    const store = new MonitorStore('dev', 1000);
    store.applySnapshot(healthy(), 0);
    store.applySnapshot(edited(refclockGone), 1000);
    store.applySnapshot(edited((s) => (antenna(s), refclockGone(s))), 2000);
    expect(messages(store)).toContain('GNSS receiver 0 antenna open');
    expect(messages(store).some((m) => /->/.test(m))).toBe(false);
  });
});
