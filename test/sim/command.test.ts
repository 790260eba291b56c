/**
 * `synctop simulate` and `--demo`: the URL is the first line of stdout, the device answers at
 * it, and bad choices fail with a sentence listing the valid ones.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { runSimulateCommand, startDemo } from '../../src/sim/command.js';
import { faultKinds } from '../../src/sim/faults.js';
import { scenarioNames } from '../../src/sim/scenarios.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('runSimulateCommand', () => {
  it('prints the URL first, then the scenario, and serves at that URL', async () => {
    const out = capture();
    const sim = await runSimulateCommand({ scenario: 'ntp-unsynced', stdout: out.stream });
    open.push(sim);
    const [first, second] = out.text().split('\n');
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first).toBe(sim.url);
    expect(second).toMatch(/scenario ntp-unsynced: NTP not synchronized/);
    const client = new DeviceClient({ baseUrl: first!, timeoutMs: 2000 });
    open.unshift(client);
    expect(await client.call('ntp')).toMatchObject({ ok: true, data: { overallStatus: 'Not synchronized' } });
  });

  it('defaults to the healthy scenario and applies the faults it is given', async () => {
    const out = capture();
    const sim = await runSimulateCommand({ faults: 'gnss=device:40003', stdout: out.stream });
    open.push(sim);
    expect(out.text()).toMatch(/scenario healthy: .*; faults: gnss=device:40003\n$/);
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 2000 });
    open.unshift(client);
    expect(await client.call('gnss')).toMatchObject({ ok: false, error: { kind: 'device', code: '40003' } });
    expect(await client.call('ntp')).toMatchObject({ ok: true, data: { syncSourceName: 'GPS' } });
  });

  it('refuses an unknown scenario with a sentence listing every scenario', async () => {
    const err = await runSimulateCommand({ scenario: 'sunny', stdout: new PassThrough() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toMatch(/^Unknown scenario "sunny": choose one of .*\.$/);
    for (const name of scenarioNames) expect(message).toContain(name);
  });

  it('refuses a bad fault spec naming the bad part and listing the faults', async () => {
    const err = await runSimulateCommand({ faults: 'ntp=slow', stdout: new PassThrough() }).catch((e: unknown) => e);
    const message = (err as Error).message;
    expect(message).toMatch(/^Cannot use --faults "ntp=slow": bad fault "ntp=slow": unknown fault "slow"/);
    for (const kind of faultKinds) expect(message).toContain(kind);
  });

  it('refuses a port out of range', async () => {
    await expect(runSimulateCommand({ port: 70_000, stdout: new PassThrough() })).rejects.toThrow(/from 0 to 65535/);
  });
});

describe('startDemo', () => {
  it('starts an in-process device on a free loopback port', async () => {
    const sim = await startDemo('ptp-acquiring');
    open.push(sim);
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 2000 });
    open.unshift(client);
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: true, data: { syncState: 'LOST' } });
  });

  it('defaults to healthy and refuses unknown scenarios', async () => {
    const sim = await startDemo();
    open.push(sim);
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 2000 });
    open.unshift(client);
    expect(await client.call('ptp', { id: 1 })).toMatchObject({ ok: true, data: { syncState: 'STABLE' } });
    await expect(startDemo('nope')).rejects.toThrow(/Unknown scenario "nope": choose one of healthy, /);
  });
});
