import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { Poller } from '../../src/monitor/poller.js';
import { DeviceSwitcher, type DeviceEntry } from '../../src/monitor/switcher.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(p: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!p()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function entry(name: string, sim: Simulator): DeviceEntry & { closed: number } {
  const e = {
    name,
    url: sim.url,
    closed: 0,
    open() {
      const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 400 });
      const poller = new Poller(client, { intervalMs: 100, ptpPorts: [0], showSecrets: false });
      return {
        poller,
        close: () => {
          e.closed++;
          client.destroy();
        },
      };
    },
  };
  return e;
}

describe('DeviceSwitcher', () => {
  it('switches the monitored device and stops polling the old one', async () => {
    const a = await startSimulator({ scenario: 'healthy' });
    const b = await startSimulator({ scenario: 'ntp-unsynced' });
    cleanups.push(() => a.close(), () => b.close());
    const ea = entry('site-a', a);
    const eb = entry('site-b', b);
    const sw = new DeviceSwitcher([ea, eb], 'site-a');
    cleanups.push(() => sw.stop());
    let notified = 0;
    sw.subscribe(() => notified++);
    sw.start();
    await until(() => sw.getState().ntp.data !== null, 'site-a data');
    expect(sw.getState().device).toBe(a.url);
    expect(sw.devices()).toEqual([
      { name: 'site-a', url: a.url, current: true },
      { name: 'site-b', url: b.url, current: false },
    ]);

    sw.switchDevice('site-b');
    expect(ea.closed).toBe(1);
    expect(sw.current).toBe('site-b');
    expect(sw.getState().device).toBe(b.url);
    await until(() => sw.getState().ntp.data?.overallStatus === 'Not synchronized', 'site-b data');
    const frozen = a.stats.requests.ntp;
    await sleep(400);
    expect(a.stats.requests.ntp).toBe(frozen);
    expect(notified).toBeGreaterThan(0);
  });

  it('ignores a switch to the current or an unknown device', async () => {
    const a = await startSimulator({});
    cleanups.push(() => a.close());
    const ea = entry('only', a);
    const sw = new DeviceSwitcher([ea], 'only');
    cleanups.push(() => sw.stop());
    sw.switchDevice('only');
    sw.switchDevice('nope');
    expect(ea.closed).toBe(0);
  });
});
