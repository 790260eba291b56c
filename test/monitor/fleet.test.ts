/**
 * The fleet's shared cap on requests in flight: devices that stopped answering hold at most
 * half of it and healthy devices are served first, so stalled devices cannot delay the healthy
 * ones' results (the Limiter alone, then a fleet of simulated devices over real HTTP).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Fleet, Limiter } from '../../src/monitor/fleet.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';

interface Held {
  release: () => void;
  started: boolean;
}

/** A task that runs until released, noting when it started. */
function hold(limiter: Limiter, slow: boolean, log: string[], name: string): Held {
  const held: Held = { release: () => undefined, started: false };
  void limiter.run(
    () =>
      new Promise<void>((resolve) => {
        held.started = true;
        log.push(name);
        held.release = resolve;
      }),
    { slow },
  );
  return held;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Limiter', () => {
  it('lets slow tasks hold at most maxSlow slots and serves waiting healthy tasks first', async () => {
    const limiter = new Limiter(4); // maxSlow 2
    const log: string[] = [];
    const s1 = hold(limiter, true, log, 's1');
    const s2 = hold(limiter, true, log, 's2');
    const s3 = hold(limiter, true, log, 's3');
    await tick();
    expect(log).toEqual(['s1', 's2']); // the third slow one waits although 2 slots are free
    const h1 = hold(limiter, false, log, 'h1');
    const h2 = hold(limiter, false, log, 'h2');
    const h3 = hold(limiter, false, log, 'h3');
    await tick();
    expect(log).toEqual(['s1', 's2', 'h1', 'h2']); // healthy ones pass the waiting slow one
    s1.release();
    await tick();
    expect(log.at(-1)).toBe('h3'); // a freed slot goes to the waiting healthy task first
    h1.release();
    await tick();
    expect(log.at(-1)).toBe('s3'); // then to the slow one
    expect(limiter.peak).toBe(4);
    expect(limiter.peakSlow).toBe(2);
    for (const t of [s2, s3, h2, h3]) t.release();
  });

  it.each([
    [1, 1],
    [2, 1],
    [3, 1],
    [32, 16],
  ])('max %i -> at most %i slow', (max, maxSlow) => {
    expect(new Limiter(max).maxSlow).toBe(maxSlow);
  });
});

describe('a fleet with stalled devices', () => {
  const sims: Simulator[] = [];
  let fleet: Fleet | undefined;
  afterEach(async () => {
    fleet?.stop();
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });

  it('gives the healthy devices their complete results while each stalled device has been asked at most twice', async () => {
    const stalled = await Promise.all(Array.from({ length: 4 }, () => startSimulator({ scenario: 'healthy' })));
    for (const s of stalled) s.setFault('all', { kind: 'stall-headers' });
    const healthy = await Promise.all(Array.from({ length: 4 }, () => startSimulator({ scenario: 'healthy' })));
    sims.push(...stalled, ...healthy);
    // Stalled devices first in the list: they take the first slots.
    fleet = new Fleet(
      [...stalled, ...healthy].map((s) => ({ baseUrl: s.url, timeoutMs: 1000 })),
      { intervalMs: 500, ptpPorts: 'auto', maxInFlight: 2, spreadMs: 0 },
    );
    const healthyDevices = fleet.devices.slice(stalled.length);
    fleet.start();
    const asked = () => stalled.map((s) => Object.values(s.stats.requests).reduce((a, b) => a + b, 0));
    const deadline = Date.now() + 15_000;
    while (!healthyDevices.every((d) => Object.values(d.polled).every(Boolean))) {
      if (Date.now() > deadline) throw new Error(`healthy devices still incomplete; stalled devices asked ${asked().join(', ')} times`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // Before, the healthy devices queued behind every stalled request: each stalled device had
    // been asked 4 or more times (a 1 s timeout each) before the last healthy result came in.
    for (const n of asked()) expect(n).toBeLessThanOrEqual(2);
    expect(fleet.limiter.peak).toBeLessThanOrEqual(2);
    expect(fleet.limiter.peakSlow).toBeLessThanOrEqual(1);
    for (const d of healthyDevices) expect(d.snapshot?.ntp.ok).toBe(true);
  });
});
