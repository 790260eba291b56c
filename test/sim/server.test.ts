/**
 * The simulated device's HTTP behaviour: request validation like the device (40000, 40003,
 * 40004), methods and paths, keep-alive reuse, authentication, statistics, reboot and close.
 * Raw bodies go through undici's request; operations through the real DeviceClient.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { operationNames, operations, type OperationName } from '../../src/api/endpoints.js';
import { requestParams, startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function start(opts: SimOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(opts);
  open.push(sim);
  return sim;
}

function clientOf(sim: Simulator, extra: { timeoutMs?: number; headers?: Record<string, string> } = {}): DeviceClient {
  const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: extra.timeoutMs ?? 2000, headers: extra.headers });
  open.unshift(client); // clients close before the simulator
  return client;
}

async function raw(sim: Simulator, path: string, body?: string, method = 'POST') {
  const res = await request(sim.url + path, { method: method as 'POST', body, headers: { 'content-type': 'application/json' } });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const blank = { success: false, errorCode: '40000', errorMessage: 'no.blank.params', showType: 4 };

describe('request validation like the device', () => {
  it.each(operationNames)('%s: a missing, blank or non-JSON body gets 40000 no.blank.params', async (op) => {
    const sim = await start();
    for (const body of [undefined, '', '   ', 'hello', '[]', 'null', '{"id":']) {
      const res = await raw(sim, operations[op].path, body);
      expect(res.status, `body ${String(body)}`).toBe(200);
      expect(res.json()).toEqual(blank);
    }
  });

  it.each([
    ['ntp', '{}', {}],
    ['ntp', '{"id":"whatever"}', {}],
    ['gnss', '{}', {}],
    ['gnss', '{"id":1}', { id: 1 }],
    ['gnss', '{"id":"1"}', undefined],
    ['gnss', '{"id":-1}', undefined],
    ['alarm', '{}', {}],
    ['ptp', '{"id":0}', { id: 0 }],
    ['ptp', '{}', undefined],
    ['ptp', '{"id":1.5}', undefined],
    ['ptp', '', undefined],
  ] as Array<[OperationName, string, { id?: number } | undefined]>)('%s with %s reads as %j', (op, body, expected) => {
    expect(requestParams(op, body)).toEqual(expected);
  });

  it('device_status_list with an id returns that receiver as a one-element array, 40003 when none', async () => {
    const sim = await start();
    const one = await raw(sim, operations.gnss.path, '{"id":1}');
    expect(one.json()).toMatchObject({ success: true, data: [{ id: 1, status: 'standby' }] });
    expect((one.json().data as unknown[]).length).toBe(1);
    const none = await raw(sim, operations.gnss.path, '{"id":5}');
    expect(none.json()).toEqual({ success: false, errorCode: '40003', errorMessage: 'gnss.no.device' });
  });

  it('slave_sync_info_x with a port that is not a slave answers 40004 ptp.not.found, showType 4', async () => {
    const sim = await start();
    expect((await raw(sim, operations.ptp.path, '{"id":2}')).json()).toEqual({
      success: false,
      errorCode: '40004',
      errorMessage: 'ptp.not.found',
      showType: 4,
    });
    expect((await raw(sim, operations.ptp.path, '{"id":1}')).json()).toMatchObject({ success: true, data: { portId: 1 } });
  });

  it('no-gnss answers 40003 to every receiver request', async () => {
    const sim = await start({ scenario: 'no-gnss' });
    for (const body of ['{}', '{"id":0}']) {
      expect((await raw(sim, operations.gnss.path, body)).json()).toMatchObject({ success: false, errorCode: '40003' });
    }
  });

  it('answers other methods with 405 and unknown paths with 404', async () => {
    const sim = await start();
    const get = await raw(sim, operations.ntp.path, undefined, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await raw(sim, '/api/v1/ntp/nope', '{}')).status).toBe(404);
    expect((await raw(sim, '/', '{}')).status).toBe(404);
  });

  it('serves the JSON envelope with a JSON content type', async () => {
    const sim = await start();
    const res = await raw(sim, operations.alarm.path, '{}');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ success: true, data: { alertLevel: 'major' } });
  });
});

describe('connections and statistics', () => {
  it('sequential polls reuse one keep-alive connection', async () => {
    const sim = await start();
    const client = clientOf(sim);
    for (let i = 0; i < 5; i++) {
      for (const op of operationNames) expect(await client.call(op, { id: 0 })).toMatchObject({ ok: true });
    }
    expect(sim.stats.requests).toEqual({ ntp: 5, gnss: 5, alarm: 5, ptp: 5 });
    expect(sim.stats.connections).toBe(1);
    expect(sim.stats.inFlight).toEqual({ ntp: 0, gnss: 0, alarm: 0, ptp: 0 });
    expect(sim.stats.maxInFlight).toEqual({ ntp: 1, gnss: 1, alarm: 1, ptp: 1 });
  });

  it('counts requests in flight per operation', async () => {
    const sim = await start({ faults: 'ntp=stall-headers' });
    const aborts = Array.from({ length: 3 }, () => new AbortController());
    const pending = aborts.map((a) =>
      request(sim.url + operations.ntp.path, { method: 'POST', body: '{}', signal: a.signal }).then(
        () => 'answered',
        () => 'aborted',
      ),
    );
    const deadline = Date.now() + 5000;
    while (sim.stats.inFlight.ntp < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(sim.stats.inFlight.ntp).toBe(3);
    expect(sim.stats.maxInFlight.ntp).toBe(3);
    expect(sim.stats.maxInFlight.gnss).toBe(0);
    for (const a of aborts) a.abort();
    expect(await Promise.all(pending)).toEqual(['aborted', 'aborted', 'aborted']);
    while (sim.stats.inFlight.ntp > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(sim.stats.inFlight.ntp).toBe(0);
  });
});

describe('authentication', () => {
  it('without the bearer token every operation gets HTTP 401; with it, data', async () => {
    const sim = await start({ token: 's3cret' });
    const anonymous = clientOf(sim);
    for (const op of operationNames) {
      expect(await anonymous.call(op, { id: 0 })).toMatchObject({ ok: false, error: { kind: 'auth', code: '401' } });
    }
    const wrong = clientOf(sim, { headers: { authorization: 'Bearer nope' } });
    expect(await wrong.call('ntp')).toMatchObject({ ok: false, error: { kind: 'auth', code: '401' } });
    const good = clientOf(sim, { headers: { authorization: 'Bearer s3cret' } });
    for (const op of operationNames) expect(await good.call(op, { id: 0 })).toMatchObject({ ok: true });
  });

  it('denied operations get HTTP 403 and the others still answer', async () => {
    const sim = await start({ deny: ['alarm', 'ptp'] });
    const client = clientOf(sim);
    expect(await client.call('alarm')).toMatchObject({ ok: false, error: { kind: 'auth', code: '403' } });
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: false, error: { kind: 'auth', code: '403' } });
    expect(await client.call('ntp')).toMatchObject({ ok: true });
    expect(await client.call('gnss')).toMatchObject({ ok: true });
  });
});

describe('lifecycle', () => {
  it('reboot refuses connections while down, then comes back on the same port with fresh data', async () => {
    const sim = await start({ timeScale: 1 });
    const client = clientOf(sim, { timeoutMs: 1000 });
    const before = await client.call('ntp');
    expect(before).toMatchObject({ ok: true, data: { overallStatus: 'Synchronized' } });
    const port = sim.port;

    const rebooted = sim.reboot(400);
    await new Promise((r) => setTimeout(r, 50));
    expect(await client.call('ntp')).toMatchObject({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED' } });
    await rebooted;

    expect(sim.port).toBe(port);
    const after = await client.call('ntp');
    if (!after.ok) throw new Error(after.error.message);
    expect(after.data.sources?.map((s) => s.reach)).toEqual(['000', '000', '000', '000']);
    expect(after.data.overallStatus).toBe('Unknown');
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: true, data: { syncState: 'NEVER' } });
  });

  it('close during a reboot returns at once and the reboot does not come back', async () => {
    const sim = await start();
    const rebooted = sim.reboot(60_000);
    await new Promise((r) => setTimeout(r, 20));
    await sim.close();
    await rebooted;
    const client = clientOf(sim, { timeoutMs: 500 });
    expect(await client.call('ntp')).toMatchObject({ ok: false, error: { kind: 'network' } });
  });

  it('close ends stalled answers instead of leaving them hanging', async () => {
    const sim = await start({ faults: 'all=stall-headers' });
    const client = clientOf(sim, { timeoutMs: 15_000 });
    const pending = client.call('gnss');
    const deadline = Date.now() + 5000;
    while (sim.stats.inFlight.gnss < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await sim.close();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(result.ok || result.error.code).not.toBe('TIMEOUT');
  });

  it('setScenario switches what the device answers', async () => {
    const sim = await start();
    const client = clientOf(sim);
    expect(await client.call('gnss')).toMatchObject({ ok: true });
    sim.setScenario('no-gnss');
    expect(await client.call('gnss')).toMatchObject({ ok: false, error: { kind: 'device', code: '40003' } });
  });

  it('refuses to start with an unknown scenario, a bad fault spec or a taken port', async () => {
    await expect(startSimulator({ scenario: 'nope' as 'healthy' })).rejects.toThrow(/unknown scenario "nope".*healthy/);
    await expect(startSimulator({ faults: 'ntp=bogus' })).rejects.toThrow(/unknown fault "bogus"/);
    const sim = await start();
    await expect(startSimulator({ port: sim.port })).rejects.toThrow(/already in use/);
  });
});
