/**
 * The verdict against the simulated device over real HTTP, faults developing at runtime: the
 * outage banner follows the latest answer, findings of what cannot be read stay (live and in
 * the exporter's fleet), changes during an outage become events, a device faulty at start
 * says so in its events, PTP ports that go or come are noticed soon.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { Fleet } from '../../src/monitor/fleet.js';
import { Poller, type PollerOptions } from '../../src/monitor/poller.js';
import { startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';
import { stateKey } from '../../src/monitor/events.js';
import { liveMark } from '../../src/view/header.js';
import { unicodeGlyphs } from '../../src/view/theme.js';
import { timeInState } from '../../src/view/time.js';
import { verdictParts } from '../../src/view/verdict.js';
import { sleep, until } from '../wait.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function device(opts: SimOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ scenario: 'healthy', ...opts });
  cleanups.push(() => sim.close());
  return sim;
}

function poll(url: string, opts: Partial<PollerOptions> = {}): Poller {
  const client = new DeviceClient({ baseUrl: url, timeoutMs: 400 });
  const poller = new Poller(client, { intervalMs: 200, ptpPorts: 'auto', showSecrets: false, ...opts });
  cleanups.push(() => {
    poller.stop();
    client.destroy();
  });
  poller.start();
  return poller;
}

const messages = (p: Poller) => p.getState().events.newestFirst().map((e) => e.message);

describe('the verdict over real HTTP', () => {
  it('the outage banner goes with the first answer, also when `r` asked for it', async () => {
    const sim = await device();
    const port = sim.port;
    // A long interval: the next retry is far off, so only `r` can bring the answer early.
    const poller = poll(sim.url, { intervalMs: 2000, maxBackoffMs: 30_000 });
    await until(() => poller.getState().verdict.severity === 'ok' && poller.getState().alarm.data !== null, 'first data');
    await sim.close();
    poller.pollNow();
    await until(() => poller.getState().unreachable !== null, 'the outage');
    const retryAt = poller.getState().unreachable!.retryAt;
    const back = await startSimulator({ scenario: 'healthy', port });
    cleanups.push(() => back.close());
    const pressed = Date.now();
    poller.pollNow();
    await until(() => poller.getState().unreachable === null, 'the banner to go', 3000);
    expect(Date.now()).toBeLessThan(retryAt);
    expect(Date.now() - pressed).toBeLessThan(2000);
    await until(() => messages(poller).some((m) => /answers again/.test(m)), 'answers again');
    expect(poller.getState().verdict.findings.filter((f) => f.staleDataAt === undefined && f.rule === 'device-unreachable')).toEqual([]);
  });

  it('an open antenna stays CRITICAL (stale) while GNSS cannot be read, live and in the fleet', async () => {
    const sim = await device({ scenario: 'gnss-antenna-open' });
    const fleet = new Fleet([{ baseUrl: sim.url, timeoutMs: 400 }], { intervalMs: 200, ptpPorts: 'auto', spreadMs: 0 });
    cleanups.push(() => fleet.stop());
    fleet.start();
    const d = fleet.devices[0]!;
    await until(() => Fleet.verdict(d)?.severity === 'critical', 'the antenna finding');
    sim.setFault('gnss', { kind: 'http500' });
    await until(() => d.poller.getState().gnss.error !== null, 'GNSS failing');
    const v = d.poller.getState().verdict;
    expect(v.severity).toBe('critical');
    expect(Fleet.verdict(d)?.severity).toBe('critical');
    const antenna = v.findings.find((f) => /antenna open/.test(f.message));
    expect(antenna?.staleDataAt).toBe(d.poller.getState().gnss.receivedAt);
    expect(v.findings.some((f) => /GNSS cannot be read/.test(f.message) && f.staleDataAt === undefined)).toBe(true);
    // The header: the GNSS part says it is stale, red as its finding; LIVE is red too.
    const gnssPart = verdictParts(d.poller.getState(), '·', Date.now()).find((c) => c.text.startsWith('GNSS'));
    expect(gnssPart).toMatchObject({ text: expect.stringMatching(/^GNSS stale \d+s$/), token: 'bad' });
    expect(liveMark(d.poller.getState(), unicodeGlyphs).token).toBe('bad');
    sim.setFault('gnss', null);
    await until(() => d.poller.getState().gnss.error === null, 'GNSS back');
    expect(d.poller.getState().verdict.findings.every((f) => f.staleDataAt === undefined)).toBe(true);
  });

  it('a device faulty at start says what is wrong in its events; findings keep their first-seen time', async () => {
    const sim = await device({ scenario: 'gnss-antenna-open' });
    const poller = poll(sim.url);
    await until(() => poller.getState().verdict.severity === 'critical', 'the verdict');
    const first = poller.getState().verdict.findings[0]!;
    expect(first.sinceAtLeast).toBe(true);
    expect(messages(poller)).toContain(`at start: ${first.message}`);
    const since = first.since;
    await sleep(500);
    expect(poller.getState().verdict.findings[0]!.since).toBe(since);
  });

  it('time in state is a lower bound ("≥") until a change has been seen', async () => {
    const sim = await device({ scenario: 'ptp-acquiring', timeScale: 10 });
    const poller = poll(sim.url);
    const port0 = () => poller.getState().stateClock.get(stateKey.ptp(0));
    await until(() => port0() !== undefined, 'port 0 seen');
    const first = port0()!.state;
    expect(timeInState(poller.getState().stateClock, stateKey.ptp(0), Date.now())).toMatch(/^≥ \d+s$/);
    await until(() => port0()!.state !== first, 'port 0 changing state');
    expect(timeInState(poller.getState().stateClock, stateKey.ptp(0), Date.now())).toMatch(/^\d+s$/);
  });

  it('changes during an outage become events when the device answers again', async () => {
    const sim = await device();
    const poller = poll(sim.url, { maxBackoffMs: 400 });
    await until(() => poller.getState().gnss.data !== null && poller.getState().verdict.severity === 'ok', 'first data');
    sim.setFault('all', { kind: 'refused' });
    await until(() => poller.getState().unreachable !== null, 'the outage');
    sim.setScenario('gnss-antenna-open');
    sim.setFault('all', null);
    await until(() => poller.getState().unreachable === null && poller.getState().gnss.error === null, 'the device back');
    await until(() => messages(poller).includes('GNSS receiver 0 antenna normal -> open'), 'the antenna event');
    expect(messages(poller)).toContain('GNSS answers again');
  });

  it('a PTP port that goes is noticed at once (rediscovery on error), one that comes after an outage', async () => {
    const sim = await device();
    // Periodic rediscovery far off: only the new triggers can find changes in time.
    const poller = poll(sim.url, { rediscoverMs: 600_000, maxBackoffMs: 400 });
    await until(() => poller.getState().ptp.data?.ports.length === 2, 'ports 0 and 1');
    sim.setScenario('no-gnss'); // port 0 only: port 1 answers 40004
    await until(() => poller.getState().ptp.data?.ports.length === 1, 'port 1 dropped', 5000);
    expect(messages(poller)).toContain('PTP port 1 gone (not found: 40004)');
    sim.setFault('all', { kind: 'refused' });
    await until(() => poller.getState().unreachable !== null, 'the outage');
    sim.setScenario('healthy'); // ports 0 and 1
    sim.setFault('all', null);
    await until(() => poller.getState().ptp.data?.ports.length === 2, 'port 1 found after the outage', 5000);
    expect(messages(poller)).toContain('PTP port 1 found');
  });
});
