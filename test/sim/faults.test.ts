/**
 * Fault injection: the spec parser as a table, and every fault over real HTTP through the real
 * DeviceClient, which must turn each into the right kind of ApiError (or, for extra fields,
 * still into data).
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { operationNames, operations, type OperationName } from '../../src/api/endpoints.js';
import type { ErrorKind } from '../../src/api/errors.js';
import { describeFaults, faultKinds, parseFaultSpec, type Fault, type FaultSetting } from '../../src/sim/faults.js';
import { startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function start(opts: SimOptions = {}): Promise<Simulator> {
  const sim = await startSimulator(opts);
  open.push(sim);
  return sim;
}

function clientOf(sim: Simulator, timeoutMs = 2000): DeviceClient {
  const client = new DeviceClient({ baseUrl: sim.url, timeoutMs });
  open.unshift(client);
  return client;
}

const params = (op: OperationName) => (op === 'ptp' || op === 'gnss' ? { id: 0 } : {});

describe('parseFaultSpec', () => {
  it.each<[string, FaultSetting[]]>([
    ['', []],
    ['  ', []],
    ['ntp=reset', [{ target: 'ntp', fault: { kind: 'reset' } }]],
    [
      'ntp=stall-headers,ptp=device:40004,all=trickle',
      [
        { target: 'ntp', fault: { kind: 'stall-headers' } },
        { target: 'ptp', fault: { kind: 'device', code: '40004' } },
        { target: 'all', fault: { kind: 'trickle' } },
      ],
    ],
    ['reboot:10', [{ target: 'all', fault: { kind: 'reboot', seconds: 10 } }]],
    ['refused', [{ target: 'all', fault: { kind: 'refused' } }]],
    [' gnss = http502 , alarm=extra-fields ', [{ target: 'gnss', fault: { kind: 'http502' } }, { target: 'alarm', fault: { kind: 'extra-fields' } }]],
    ['ptp=reboot:0.5', [{ target: 'ptp', fault: { kind: 'reboot', seconds: 0.5 } }]],
    ['alarm=device:99999', [{ target: 'alarm', fault: { kind: 'device', code: '99999' } }]],
  ])('%j parses', (spec, faults) => {
    expect(parseFaultSpec(spec)).toEqual({ ok: true, faults });
  });

  it.each<[string, RegExp]>([
    ['ntp=stall', /bad fault "ntp=stall": unknown fault "stall"; known faults: refused, reset, .*huge, .*device, reboot/],
    ['clock=reset', /bad fault "clock=reset": unknown operation "clock"; use one of ntp, gnss, alarm, ptp, all/],
    ['ntp=reset,gnss=', /bad fault "gnss=": unknown fault ""/],
    ['ptp=device', /bad fault "ptp=device": device needs a numeric error code, as in device:40004/],
    ['ptp=device:abc', /device needs a numeric error code/],
    ['reboot', /reboot needs a number of seconds/],
    ['reboot:-3', /bad fault "reboot:-3": reboot needs a number of seconds above 0 and at most 3600/],
    ['reboot:0', /reboot needs a number of seconds/],
    ['reboot:99999', /at most 3600/],
    ['ntp=reset:5', /fault "reset" takes no argument/],
    ['ntp=toString', /unknown fault "toString"/],
  ])('%j is refused with a message naming the bad part', (spec, message) => {
    const result = parseFaultSpec(spec);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('documents every fault in one line', () => {
    const lines = describeFaults().split('\n');
    expect(lines).toHaveLength(faultKinds.length);
    for (const [i, kind] of faultKinds.entries()) expect(lines[i]?.startsWith(kind)).toBe(true);
  });
});

describe('each fault yields the expected error over HTTP', () => {
  const cases: Array<[string, Fault, ErrorKind, string | undefined]> = [
    ['reset', { kind: 'reset' }, 'network', undefined],
    ['reset-mid-body', { kind: 'reset-mid-body' }, 'network', undefined],
    ['stall-headers', { kind: 'stall-headers' }, 'network', 'TIMEOUT'],
    ['stall-body', { kind: 'stall-body' }, 'network', 'TIMEOUT'],
    ['trickle', { kind: 'trickle' }, 'network', 'TIMEOUT'],
    ['http500', { kind: 'http500' }, 'http', '500'],
    ['http502', { kind: 'http502' }, 'http', '502'],
    ['http401', { kind: 'http401' }, 'auth', '401'],
    ['http403', { kind: 'http403' }, 'auth', '403'],
    ['invalid-json', { kind: 'invalid-json' }, 'protocol', undefined],
    ['truncated-json', { kind: 'truncated-json' }, 'protocol', undefined],
    ['wrong-types', { kind: 'wrong-types' }, 'protocol', undefined],
    ['huge', { kind: 'huge' }, 'protocol', 'SIZE'],
    ['device:40007', { kind: 'device', code: '40007' }, 'device', '40007'],
    ['device:40004', { kind: 'device', code: '40004' }, 'device', '40004'],
    ['device:99999', { kind: 'device', code: '99999' }, 'device', '99999'],
  ];

  it.each(cases)('%s', async (_name, fault, kind, code) => {
    const sim = await start();
    // A short deadline: stalls and trickles must be cut off by the client, not wait forever.
    const client = clientOf(sim, 300);
    for (const op of operationNames) {
      sim.setFault(op, fault);
      const result = await client.call(op, params(op));
      expect(result, op).toMatchObject({ ok: false, error: { kind } });
      if (code !== undefined && !result.ok) expect(result.error.code, op).toBe(code);
    }
  });

  it('http500/502 pages carry a title the client can name', async () => {
    const sim = await start({ faults: 'ntp=http502' });
    const result = await clientOf(sim).call('ntp');
    expect(result).toMatchObject({ ok: false, error: { kind: 'http', message: expect.stringContaining('"502 Bad Gateway"') } });
  });

  it('wrong-types names the spoiled field', async () => {
    const sim = await start({ faults: 'all=wrong-types' });
    const client = clientOf(sim);
    const messages = await Promise.all(operationNames.map(async (op) => {
      const r = await client.call(op, params(op));
      return r.ok ? '' : r.error.message;
    }));
    expect(messages[0]).toMatch(/data\.sources\[0\]\.stratum/);
    // device_status_list is a union (array or one receiver): the client names only `data` there.
    expect(messages[1]).toMatch(/^unexpected answer: data/);
    expect(messages[2]).toMatch(/recipientEmails/);
    expect(messages[3]).toMatch(/offsetFromMaster/);
  });

  it('extra-fields still decodes to data for every operation', async () => {
    const sim = await start({ faults: 'all=extra-fields' });
    const client = clientOf(sim);
    for (const op of operationNames) expect(await client.call(op, params(op)), op).toMatchObject({ ok: true });
    const raw = await request(sim.url + operations.ntp.path, { method: 'POST', body: '{}' });
    const body = (await raw.body.json()) as { data: { vendorExtension?: unknown; sources: Array<{ vendorExtension?: unknown }> } };
    expect(body.data.vendorExtension).toBeDefined();
    expect(body.data.sources[0]?.vendorExtension).toBeDefined();
  });

  it('device:CODE uses the documented message and showType, unknown codes unknown.error/9', async () => {
    const sim = await start({ faults: 'ntp=device:40007,gnss=device:40003,alarm=device:12345' });
    const post = async (op: OperationName) => (await (await request(sim.url + operations[op].path, { method: 'POST', body: '{}' })).body.json()) as object;
    expect(await post('ntp')).toEqual({ success: false, errorCode: '40007', errorMessage: 'ntp.input.sources.unavailable', showType: 1 });
    expect(await post('gnss')).toEqual({ success: false, errorCode: '40003', errorMessage: 'gnss.no.device' });
    expect(await post('alarm')).toEqual({ success: false, errorCode: '12345', errorMessage: 'unknown.error', showType: 9 });
  });

  it('faults are per operation: the others keep answering', async () => {
    const sim = await start({ faults: 'ntp=stall-headers,ptp=http500' });
    const client = clientOf(sim, 300);
    expect(await client.call('ntp')).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(await client.call('gnss')).toMatchObject({ ok: true });
    expect(await client.call('alarm')).toMatchObject({ ok: true });
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: false, error: { kind: 'http' } });
    sim.setFault('all', null);
    expect(await client.call('ntp')).toMatchObject({ ok: true });
  });

  it('the huge body is streamed until the client gives up, and the server stays healthy', async () => {
    const sim = await start({ faults: 'gnss=huge' });
    const client = clientOf(sim, 5000);
    expect(await client.call('gnss')).toMatchObject({ ok: false, error: { kind: 'protocol', code: 'SIZE' } });
    const deadline = Date.now() + 5000;
    while (sim.stats.inFlight.gnss > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(sim.stats.inFlight.gnss).toBe(0);
    expect(await client.call('ntp')).toMatchObject({ ok: true });
  });

  it('refused stops the listener for the whole device; clearing it listens again', async () => {
    const sim = await start();
    const client = clientOf(sim, 1000);
    expect(await client.call('alarm')).toMatchObject({ ok: true });
    sim.setFault('ntp', { kind: 'refused' });
    await sim.settled();
    for (const op of operationNames) {
      expect(await client.call(op, params(op))).toMatchObject({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED' } });
    }
    sim.setFault('ntp', null);
    await sim.settled();
    expect(await client.call('alarm')).toMatchObject({ ok: true });
  });

  it('a refused spec starts with nothing listening at the printed port', async () => {
    const sim = await start({ faults: 'refused' });
    expect(sim.port).toBeGreaterThan(0);
    expect(await clientOf(sim, 1000).call('ntp')).toMatchObject({ ok: false, error: { code: 'ECONNREFUSED' } });
  });

  it('reboot:SECONDS fails the triggering request, refuses while down, then recovers once with fresh data', async () => {
    const sim = await start({ faults: 'ptp=reboot:0.3' });
    const client = clientOf(sim, 1000);
    expect(await client.call('ntp')).toMatchObject({ ok: true, data: { overallStatus: 'Synchronized' } });
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await client.call('ntp')).toMatchObject({ ok: false, error: { code: 'ECONNREFUSED' } });
    await sim.settled();
    const after = await client.call('ntp');
    expect(after).toMatchObject({ ok: true, data: { overallStatus: 'Unknown' } });
    if (after.ok) expect(after.data.sources?.every((s) => s.reach === '000')).toBe(true);
    // Once: the device that came back answers the triggering operation normally.
    expect(await client.call('ptp', { id: 0 })).toMatchObject({ ok: true });
  });
});
