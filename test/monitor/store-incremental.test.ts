/**
 * The store derives from an answer only what that answer can change: the sections that are the
 * very same results as before are not diffed again, their items' times in state not looked at
 * again, their rules not run again (FindingsMemo). A store deriving everything from scratch on
 * every result (`fromScratch`, the store as it was) is fed the same results: after every one,
 * both must hold exactly the same events, verdict (findings, first-seen times, staleness), times
 * in state, histories and section states.
 *
 * - Sessions recorded from the simulator's answers (its pure answer functions, through the
 *   normalizers): every scenario, with failures, outages, repeated answers, ports that fail on
 *   their own and whole snapshots at once (replay), over five minutes of device time each.
 * - Over real HTTP: a poller per scenario at once, faults set while they poll.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import type { RawPtpSlave } from '../../src/api/schemas.js';
import type { Result } from '../../src/api/errors.js';
import { normalizeSection } from '../../src/model/build.js';
import { normalizePtp } from '../../src/model/ptp.js';
import type { Section, SectionName, Snapshot } from '../../src/model/snapshot.js';
import { stateKey } from '../../src/monitor/events.js';
import { defaultThresholds } from '../../src/monitor/health.js';
import { seriesKey } from '../../src/monitor/history.js';
import { Poller } from '../../src/monitor/poller.js';
import type { Reachability, SectionState } from '../../src/monitor/state.js';
import { MonitorStore, sectionNames } from '../../src/monitor/store.js';
import { answer, scenarioNames, slavePortIds, type DeviceClock, type ScenarioName } from '../../src/sim/scenarios.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { sleep } from '../wait.js';
import { SIM_WALL, simSnapshot, simSnapshotFast } from './sim-snapshots.js';

/** Every item key and series key a store may hold for what it was fed. */
class Seen {
  readonly items = new Set<string>();
  readonly series = new Set<string>();
  note(name: SectionName, section: Section<unknown>): void {
    if (!section.ok) return;
    const s = { [name]: section } as unknown as Snapshot;
    if (name === 'ntp' && s.ntp.ok) for (const src of s.ntp.data.sources) this.items.add(stateKey.ntp(src.name)).add(seriesKey.ntpOffset(src.name));
    if (name === 'gnss' && s.gnss.ok) {
      for (const r of s.gnss.data.receivers) {
        this.items.add(stateKey.gnss(r.id));
        for (const c of [...Object.keys(r.satellites)]) this.series.add(seriesKey.gnssCount(r.id, c));
        this.series.add(seriesKey.gnssTotal(r.id));
      }
    }
    if (name === 'ptp' && s.ptp.ok) for (const p of s.ptp.data.ports) this.items.add(stateKey.ptp(p.id)).add(seriesKey.ptpOffset(p.id)).add(seriesKey.ptpDelay(p.id));
  }
}

/**
 * What a store derived, as one comparable value: `whole` every event and every history sample;
 * otherwise (after each result, which adds at most a few events and one sample per series) the
 * newest events and each series' length and newest sample, which compared after every result
 * cover the logs whole. Section data is compared by identity: both stores were given the same.
 */
function derived(store: MonitorStore, seen: Seen, whole = false): string {
  const st = store.getState();
  const history = [...seen.series, ...seen.items].map((key) => {
    const ring = st.history.get(key);
    if (!ring) return [key, null];
    const { times, values } = ring.samples();
    return whole ? [key, [...times], ring.values()] : [key, times.length, times.at(-1), values.at(-1)];
  });
  return JSON.stringify({
    sections: sectionNames.map((n) => {
      const sec = st[n] as SectionState<unknown>;
      return { ...sec, data: dataIds.get(sec.data) ?? dataIds.set(sec.data, dataIds.size).size - 1 };
    }),
    lastUpdateAt: st.lastUpdateAt,
    unreachable: st.unreachable,
    version: st.version,
    verdict: st.verdict,
    events: whole ? st.events.newestFirst() : st.events.newestFirst(40),
    eventCount: [st.events.length, st.events.version],
    inState: [...seen.items].map((key) => [key, st.stateClock.get(key) ?? null]),
    history,
  });
}
/** A number per data object: the same object in both stores gets the same number. */
const dataIds = new Map<unknown, number>();

/** Feeds both stores and compares them after every result; the first difference fails with both sides. */
class Pair {
  readonly incremental: MonitorStore;
  readonly reference: MonitorStore;
  readonly seen = new Seen();
  compared = 0;
  constructor(intervalMs: number, thresholds = defaultThresholds) {
    this.incremental = new MonitorStore('sim', intervalMs, thresholds);
    this.reference = new MonitorStore('sim', intervalMs, thresholds, { fromScratch: true });
  }
  apply(name: SectionName, result: Section<unknown>, at: number, unreachable?: Reachability | null): void {
    this.seen.note(name, result);
    this.incremental.apply(name, result, at, unreachable);
    this.reference.apply(name, result, at, unreachable);
    this.check(`${name} at ${at - SIM_WALL} ms`);
  }
  applySnapshot(snap: Snapshot, at: number): void {
    for (const n of sectionNames) this.seen.note(n, snap[n] as Section<unknown>);
    this.incremental.applySnapshot(snap, at);
    this.reference.applySnapshot(snap, at);
    this.check(`snapshot at ${at - SIM_WALL} ms`);
  }
  check(what: string, whole = false): void {
    const mine = derived(this.incremental, this.seen, whole);
    const reference = derived(this.reference, this.seen, whole);
    if (mine !== reference) expect(JSON.parse(mine), what).toEqual(JSON.parse(reference));
    this.compared++;
  }
}

/** A small deterministic generator (mulberry32): the same session on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const timeout = (message: string): Section<unknown> => ({ ok: false, error: { kind: 'network', code: 'TIMEOUT', message } });
const failures: Section<unknown>[] = [
  timeout('no complete answer within 1800 ms (timeout)'),
  { ok: false, error: { kind: 'http', code: '500', message: 'HTTP 500 Internal Server Error' } },
  { ok: false, error: { kind: 'protocol', message: 'the answer is not JSON (an empty body)' } },
  { ok: false, error: { kind: 'auth', code: '403', message: 'refused (HTTP 403)' } },
];

/** The PTP section with one port failing on its own (a timeout, or 40004: no longer a slave port). */
function ptpWithFailingPort(scenario: ScenarioName, clock: DeviceClock, failing: number, notFound: boolean): Section<unknown> {
  const portError: Result<RawPtpSlave> = notFound
    ? { ok: false, error: { kind: 'device', code: '40004', message: 'PTP does not exist (40004 ptp.not.found)' } }
    : { ok: false, error: { kind: 'network', code: 'TIMEOUT', message: 'no complete answer within 1800 ms (timeout)' } };
  const ports = slavePortIds(scenario).map((id) => {
    const a = answer(scenario, 'ptp', id, clock);
    const result: Result<RawPtpSlave> = id === failing ? portError : a.ok ? { ok: true, data: a.data as RawPtpSlave } : { ok: false, error: { kind: 'device', code: a.errorCode, message: a.errorCode } };
    return { id, result };
  });
  return normalizeSection({ ok: true, data: ports }, normalizePtp) as Section<unknown>;
}

/**
 * Five minutes of a device polled as the poller does (each section in turn, the interval with
 * its jitter), with failures of one section, outages of all, answers repeated as they were,
 * ports failing alone, and now and then a whole snapshot at once, as replay applies them.
 */
function session(pair: Pair, scenario: ScenarioName, seed: number, intervalS: number): void {
  const rnd = random(seed * 7919 + scenarioNames.indexOf(scenario));
  const base = simSnapshot(scenario, 0, seed);
  let t = 0;
  let deviceT = 0;
  let outage: { until: number; since: number } | null = null;
  while (t < 300) {
    const at = (dt: number) => SIM_WALL + Math.round((t + dt) * 1000);
    const r = rnd();
    // A device whose clock stands still repeats its answers (a hung daemon): content-identical results.
    if (r > 0.08) deviceT = t;
    const snap = simSnapshotFast(scenario, deviceT, seed, base);
    if (rnd() < 0.02) {
      pair.applySnapshot(snap, at(0));
    } else {
      if (!outage && rnd() < 0.015) outage = { until: t + intervalS * (2 + Math.floor(rnd() * 6)), since: at(0) };
      sectionNames.forEach((name, i) => {
        const when = at(i * 0.05);
        if (outage) {
          const over = t >= outage.until;
          const down: Reachability = { since: outage.since, retryAt: when + intervalS * 1000, reason: 'no answer' };
          pair.apply(name, over ? (snap[name] as Section<unknown>) : timeout('the device does not answer (connection refused)'), when, over ? null : name === 'ntp' ? down : undefined);
          return;
        }
        const f = rnd();
        let result = snap[name] as Section<unknown>;
        if (f < 0.06) result = failures[Math.floor(rnd() * failures.length)]!;
        else if (name === 'ptp' && f < 0.1) result = ptpWithFailingPort(scenario, { seed, boot: 0, t: deviceT, coldStart: false, wallStartMs: SIM_WALL }, slavePortIds(scenario)[0]!, rnd() < 0.5);
        pair.apply(name, result, when);
      });
      if (outage && t >= outage.until) outage = null;
    }
    t += intervalS * (1 + 0.05 * rnd());
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the store derives only what changed, and exactly what deriving from scratch gives', () => {
  it.each(scenarioNames)('recorded sessions of the %s scenario', (scenario) => {
    // Polled every 2 s (the fleet view's interval) or every second, scenario by scenario.
    const intervalS = scenarioNames.indexOf(scenario) % 2 === 0 ? 2 : 1;
    const pair = new Pair(intervalS * 1000);
    session(pair, scenario, 1, intervalS);
    pair.check('at the end, every event and sample', true);
    // The session gave the comparison something to compare.
    expect(pair.incremental.getState().events.length, 'events').toBeGreaterThan(0);
    expect(pair.compared).toBeGreaterThan(500);
  });

  it('over real HTTP: every scenario polled at once, faults set meanwhile', async () => {
    // Device time runs 10x: the hanging scenarios hang and recover within the test.
    const sims: Simulator[] = await Promise.all(scenarioNames.map((scenario) => startSimulator({ scenario, timeScale: 10 })));
    cleanups.push(() => Promise.all(sims.map((s) => s.close())).then(() => undefined));
    const thresholds = { ...defaultThresholds, frozenAfterS: 0.5 };
    const pairs = sims.map((sim) => {
      const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 300 });
      const poller = new Poller(client, { intervalMs: 100, ptpPorts: 'auto', showSecrets: false, thresholds });
      const reference = new MonitorStore(client.baseUrl, 100, thresholds, { fromScratch: true });
      const seen = new Seen();
      const differences: string[] = [];
      let compared = 0;
      poller.store.onResult((name, result, at, unreachable) => {
        seen.note(name, result);
        reference.apply(name, result, at, unreachable);
        if (derived(poller.store, seen) !== derived(reference, seen)) differences.push(`${name} at ${at}`);
        compared++;
      });
      cleanups.push(() => {
        poller.stop();
        client.destroy();
      });
      poller.start();
      return { sim, poller, reference, seen, differences, compared: () => compared };
    });
    await sleep(1200);
    // Faults while they poll: a stalled operation, a refusal, a device error, the whole device gone.
    pairs[0]!.sim.setFault('ptp', { kind: 'stall-headers' });
    pairs[1]!.sim.setFault('gnss', { kind: 'http500' });
    pairs[2]!.sim.setFault('ntp', { kind: 'device', code: '40007' });
    pairs[3]!.sim.setFault('all', { kind: 'refused' });
    await sleep(1200);
    for (const p of pairs.slice(0, 4)) p.sim.setFault('all', null);
    await sleep(1000);
    // What was compared includes frozen data found and gone, and the failures.
    const said = pairs.flatMap((p) => p.poller.getState().events.newestFirst().map((e) => e.message));
    for (const words of [/ frozen/, /moving again/, /PTP unreachable/, /answers again/]) expect(said.some((m) => words.test(m)), String(words)).toBe(true);
    for (const p of pairs) {
      expect(p.differences, p.sim.url).toEqual([]);
      expect(p.compared(), p.sim.url).toBeGreaterThan(20);
      expect(derived(p.poller.store, p.seen, true)).toBe(derived(p.reference, p.seen, true));
    }
  });
});
