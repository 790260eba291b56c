/**
 * The scenarios must always speak the device's schemas (so the simulator cannot drift from
 * them), move like a real device, and be deterministic from the seed and the device clock.
 * Pure checks go through answer() at chosen points of each timeline; the HTTP checks go through
 * the real DeviceClient against a running simulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient, decode } from '../../src/api/client.js';
import { operationNames, type OperationName } from '../../src/api/endpoints.js';
import type { RawGnssReceiver, RawNtpStatus, RawPtpSlave } from '../../src/api/schemas.js';
import { errorEnvelope, successEnvelope } from '../../src/sim/faults.js';
import {
  answer,
  formatLastRx,
  formatLastSample,
  formatReach,
  PTP_STEP_S,
  scenarioNames,
  slavePortIds,
  type DeviceClock,
  type ScenarioName,
} from '../../src/sim/scenarios.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';

const WALL = Date.parse('2025-03-18T08:15:42.250Z');
const clock = (t: number, extra: Partial<DeviceClock> = {}): DeviceClock => ({ seed: 1, boot: 0, t, coldStart: false, wallStartMs: WALL, ...extra });

/** What a scenario documents as an error instead of data. */
const documentedErrors: Partial<Record<ScenarioName, Partial<Record<OperationName, string>>>> = {
  'no-gnss': { gnss: '40003' },
};

/** The body the server would send, decoded by the client as if it came over the wire. */
function viaClient(name: ScenarioName, op: OperationName, id: number | undefined, c: DeviceClock) {
  const a = answer(name, op, id, c);
  return decode(op, JSON.stringify(a.ok ? successEnvelope(a.data) : errorEnvelope(a.errorCode)));
}

function data<T>(name: ScenarioName, op: OperationName, id: number | undefined, c: DeviceClock): T {
  const a = answer(name, op, id, c);
  if (!a.ok) throw new Error(`${name} ${op} answered ${a.errorCode}`);
  return a.data as T;
}

const ntpAt = (name: ScenarioName, c: DeviceClock) => data<RawNtpStatus>(name, 'ntp', undefined, c);
const ptpAt = (name: ScenarioName, id: number, c: DeviceClock) => data<RawPtpSlave>(name, 'ptp', id, c);

describe('device text formats', () => {
  it.each([
    [12_000, 15_000, 120_000, '+12us[ +15us] +/-  120us'],
    [-1_175_000, -1_221_000, 26_000_000, '-1175us[-1221us] +/-   26ms'],
    [160, 170, 1038, '+160ns[+170ns] +/- 1038ns'],
    [0, 0, 0, '+0ns[  +0ns] +/-    0ns'],
    [-0.2, 0.3, 9_999, '+0ns[  +0ns] +/- 9999ns'],
    [10_000, -10_000_000_000, 12_000_000_000, '+10us[ -10s] +/-   12s'],
  ])('lastSample of %d/%d/%d is %s', (adjusted, measured, error, text) => {
    expect(formatLastSample(adjusted, measured, error)).toBe(text);
  });

  it.each([
    [0, '0'],
    [12, '12'],
    [1024, '1024'],
    [1025, '17m'],
    [300, '300'],
    [36_001, '10h'],
    [400_000, '4d'],
    [50_000_000, '1y'],
  ])('lastRx of %d s is %s', (seconds, text) => {
    expect(formatLastRx(seconds)).toBe(text);
  });

  it.each([
    [0xff, '377'],
    [0x7f, '177'],
    [0x07, '007'],
    [0, '000'],
  ])('reach register %i is %s', (bits, text) => {
    expect(formatReach(bits)).toBe(text);
  });
});

describe('every scenario speaks the schemas at every point of its timeline', () => {
  const times = [0, 3, 9, 15, 25, 35, 64, 600, 3600, 86_400];
  const cases = scenarioNames.flatMap((name) => operationNames.map((op) => [name, op] as const));

  it.each(cases)('%s %s', (name, op) => {
    for (const coldStart of [false, true]) {
      for (const t of times) {
        const c = clock(t, { coldStart, boot: coldStart ? 1 : 0 });
        const ids = op === 'ptp' ? slavePortIds(name) : [undefined];
        for (const id of ids) {
          const result = viaClient(name, op, id, c);
          const documented = documentedErrors[name]?.[op];
          if (documented) expect(result).toMatchObject({ ok: false, error: { kind: 'device', code: documented } });
          else expect(result, `${name} ${op} id=${id} t=${t} cold=${coldStart}`).toMatchObject({ ok: true });
        }
      }
    }
  });

  it('ports that are not slave ports answer 40004, missing receivers 40003', () => {
    for (const name of scenarioNames) {
      const unused = Math.max(...slavePortIds(name)) + 1;
      expect(viaClient(name, 'ptp', unused, clock(0))).toMatchObject({ ok: false, error: { code: '40004' } });
      expect(viaClient(name, 'gnss', 7, clock(0))).toMatchObject({ ok: false, error: { code: '40003' } });
    }
  });
});

describe('scenario contents', () => {
  it('healthy: 3-4 sources with a GPS Best source, ~30 satellites, two STABLE ports with different parents', () => {
    const ntp = ntpAt('healthy', clock(0));
    expect(ntp.overallStatus).toBe('Synchronized');
    expect(ntp.syncSourceName).toBe('GPS');
    expect(ntp.sources?.length).toBeGreaterThanOrEqual(3);
    expect(ntp.sources?.filter((s) => s.isSyncSource)).toEqual([expect.objectContaining({ nameIp: 'GPS', state: 'Best source', mode: 'Reference clock' })]);
    const [working, standby] = data<RawGnssReceiver[]>('healthy', 'gnss', undefined, clock(0));
    const total = (working?.signal ?? []).reduce((sum, s) => sum + (s.count ?? 0), 0);
    expect(total).toBeGreaterThanOrEqual(26);
    expect(total).toBeLessThanOrEqual(35);
    expect(new Set(working?.signal?.map((s) => s.type))).toEqual(new Set(['gps', 'glonass', 'bds', 'galileo']));
    expect(standby).toMatchObject({ id: 1, status: 'standby' });
    expect(standby).not.toHaveProperty('antStatus');
    const [p0, p1] = [ptpAt('healthy', 0, clock(0)), ptpAt('healthy', 1, clock(0))];
    expect([p0.syncState, p1.syncState]).toEqual(['STABLE', 'STABLE']);
    expect(p0.parentPortIdentity).not.toBe(p1.parentPortIdentity);
    expect(p0.gmIdentity).toMatch(/^[0-9a-f]{6}\.[0-9a-f]{4}\.[0-9a-f]{6}$/);
    expect(p0.parentPortIdentity).toMatch(/^[0-9a-f]{6}\.[0-9a-f]{4}\.[0-9a-f]{6}-\d+$/);
    expect(data<{ smtpPassword: string }>('healthy', 'alarm', undefined, clock(0)).smtpPassword).toBeTruthy();
  });

  it('ntp-unsynced: Not synchronized, None, a false ticker and a too-variable source', () => {
    const ntp = ntpAt('ntp-unsynced', clock(100));
    expect(ntp).toMatchObject({ overallStatus: 'Not synchronized', syncSourceName: 'None' });
    const states = ntp.sources?.map((s) => s.state);
    expect(states).toContain('False ticker');
    expect(states).toContain('Too variable');
    expect(ntp.sources?.some((s) => s.isSyncSource)).toBe(false);
  });

  it('gnss-antenna-open: antenna open, PPS invalid, no satellite (nothing is heard without an antenna), GPS clock not selectable', () => {
    for (const t of [0, 50, 600]) {
      const [r] = data<RawGnssReceiver[]>('gnss-antenna-open', 'gnss', 0, clock(t));
      expect(r).toMatchObject({ antStatus: 'open', ppsValid: 'invalid' });
      expect((r?.signal ?? []).reduce((sum, s) => sum + (s.count ?? 0), 0)).toBe(0);
    }
    const gps = ntpAt('gnss-antenna-open', clock(50)).sources?.find((s) => s.nameIp === 'GPS');
    expect(gps).toMatchObject({ state: 'Not selectable', reach: '000' });
  });

  it('seed-sample: every documented irregular shape', () => {
    const ntp = ntpAt('seed-sample', clock(0));
    const sources = ntp.sources ?? [];
    expect(sources.filter((s) => !('lastSample' in s)).map((s) => s.lastRx)).toEqual([expect.stringMatching(/\[.*\] \+\/- /)]);
    expect(sources.map((s) => s.lastRx)).toEqual(expect.arrayContaining(['-', '4294967295']));
    expect(sources.some((s) => /^\[.*\]$/.test(s.nameIp ?? ''))).toBe(true);
    const [working, standby] = data<RawGnssReceiver[]>('seed-sample', 'gnss', undefined, clock(0));
    expect(working).toHaveProperty('indicatorValid');
    expect(working).not.toHaveProperty('ppsValid');
    expect(working?.utcDate).toBe(working?.utcTime);
    expect(working?.utcDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    for (const field of ['utcDate', 'utcTime', 'gpsLeapSecond', 'bdsLeapSecond', 'antStatus', 'ppsValid']) expect(standby).not.toHaveProperty(field);
    const alarm = data<Record<string, unknown>>('seed-sample', 'alarm', undefined, clock(0));
    expect(alarm).not.toHaveProperty('senderName');
    expect(alarm).not.toHaveProperty('smtpPassword');
  });

  it('hostile-strings: escapes in names, identities and alarm strings', () => {
    const text = JSON.stringify([
      ntpAt('hostile-strings', clock(0)),
      data('hostile-strings', 'gnss', undefined, clock(0)),
      data('hostile-strings', 'alarm', undefined, clock(0)),
      ptpAt('hostile-strings', 0, clock(0)),
    ]);
    for (const attack of ['\\u001b]0;PWNED\\u0007', '\\u001b]52;c;', '\\u001b[2J', '\u202e']) expect(text).toContain(attack);
    expect(ptpAt('hostile-strings', 0, clock(0)).gmIdentity).toContain('\x1b]0;');
  });

  it('many: 10 NTP sources, 2 receivers, 8 PTP slave ports', () => {
    expect(ntpAt('many', clock(0)).sources).toHaveLength(10);
    expect(ntpAt('many', clock(0)).sourceCount).toBe(10);
    expect(data<unknown[]>('many', 'gnss', undefined, clock(0))).toHaveLength(2);
    expect(slavePortIds('many')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('movement', () => {
  it('is deterministic from seed and time, and another seed gives other data', () => {
    expect(ntpAt('healthy', clock(1234.5))).toEqual(ntpAt('healthy', clock(1234.5)));
    expect(ptpAt('healthy', 0, clock(77))).toEqual(ptpAt('healthy', 0, clock(77)));
    expect(ntpAt('healthy', clock(1234.5, { seed: 2 }))).not.toEqual(ntpAt('healthy', clock(1234.5)));
  });

  it('shifts each reach register one bit per poll of that source', () => {
    const setups = ntpAt('many', clock(0)).sources ?? [];
    let shifts = 0;
    for (const [i, source] of setups.entries()) {
      const interval = 2 ** (source.poll ?? 0);
      for (let t = 0; t < 40 * interval; t += interval / 2 + 0.37) {
        const before = parseInt(String(ntpAt('many', clock(t)).sources?.[i]?.reach), 8);
        const after = parseInt(String(ntpAt('many', clock(t + interval)).sources?.[i]?.reach), 8);
        expect(after >> 1).toBe(before & 0x7f);
        shifts++;
      }
    }
    expect(shifts).toBeGreaterThan(500);
  });

  it('a flaky source loses some polls, a steady one none', () => {
    const reaches = Array.from({ length: 200 }, (_, k) => ntpAt('healthy', clock(k * 32)).sources ?? []);
    expect(reaches.every((s) => s[0]?.reach === '377')).toBe(true);
    expect(reaches.some((s) => s[3]?.reach !== '377')).toBe(true);
  });

  it('after a reboot reach starts at 000 and fills up; sources become selectable after a few samples', () => {
    const cold = (t: number) => ntpAt('healthy', clock(t, { coldStart: true, boot: 1 }));
    expect(cold(0).sources?.map((s) => s.reach)).toEqual(['000', '000', '000', '000']);
    expect(cold(0)).toMatchObject({ overallStatus: 'Unknown', syncSourceName: 'None' });
    expect(cold(0).sources?.map((s) => s.lastRx)).toEqual(['-', '-', '-', '-']);
    expect(cold(16 * 10)).toMatchObject({ overallStatus: 'Synchronized', syncSourceName: 'GPS' });
    expect(cold(16 * 10).sources?.[0]?.reach).toBe('377');
  });

  it('lastRx ages by the second and resets at each poll', () => {
    const ages = Array.from({ length: 64 }, (_, t) => Number(ntpAt('healthy', clock(t)).sources?.[0]?.lastRx));
    let resets = 0;
    for (let i = 1; i < ages.length; i++) {
      if (ages[i]! < ages[i - 1]!) resets++;
      else expect(ages[i]).toBe(ages[i - 1]! + 1);
    }
    expect(resets).toBe(4); // GPS polls every 16 s
    expect(Math.max(...ages)).toBeLessThan(16);
  });

  it('NTP offsets wander between polls', () => {
    const samples = new Set(Array.from({ length: 30 }, (_, k) => ntpAt('healthy', clock(k * 64)).sources?.[1]?.lastSample));
    expect(samples.size).toBeGreaterThan(20);
  });

  it('satellite counts drift by at most one around their base', () => {
    const counts = Array.from({ length: 300 }, (_, k) => {
      const [r] = data<RawGnssReceiver[]>('healthy', 'gnss', 0, clock(k * 7));
      return r?.signal?.find((s) => s.type === 'gps')?.count ?? -1;
    });
    expect(Math.min(...counts)).toBe(9);
    expect(Math.max(...counts)).toBe(11);
  });

  it('a STABLE port jitters by tens of ns around its mean with a steady path delay; lastUpdate advances', () => {
    const ports = Array.from({ length: 200 }, (_, t) => ptpAt('healthy', 0, clock(t)));
    const offsets = ports.map((p) => p.offsetFromMaster ?? NaN);
    expect(Math.max(...offsets.map(Math.abs))).toBeLessThan(100);
    expect(new Set(offsets).size).toBeGreaterThan(10);
    const delays = ports.map((p) => p.meanPathDelay ?? NaN);
    expect(Math.max(...delays) - Math.min(...delays)).toBeLessThanOrEqual(4);
    expect(ports[199]!.lastUpdate! - ports[0]!.lastUpdate!).toBe(199);
  });

  // IEEE 1588 8.2.3 / G.8275.1: without a grandmaster the parent data set is the clock's own (a slave-only T-TSC: class 255).
  it('a LOST port without a grandmaster reports its own clock quality, not the old grandmaster\'s class 6', () => {
    const lost = data<RawPtpSlave>('ptp-acquiring', 'ptp', 0, clock(5));
    expect(lost).toMatchObject({ syncState: 'LOST', gmPresent: false, gmClockClass: 255, gmClockAccuracy: 0xfe, gmOffsetScaledLogVariance: 0xffff });
    expect(lost.gmIdentity).not.toBe(data<RawPtpSlave>('ptp-acquiring', 'ptp', 0, clock(45)).gmIdentity);
    expect(data<RawPtpSlave>('ptp-acquiring', 'ptp', 0, clock(45))).toMatchObject({ syncState: 'STABLE', gmPresent: true, gmClockClass: 6 });
  });

  it('ptp-acquiring: port 0 goes LOST, ACQUIRING, ACQUIRED, STABLE with a shrinking offset', () => {
    const timeline = Array.from({ length: 45 }, (_, t) => ptpAt('ptp-acquiring', 0, clock(t + 0.5)));
    const states = timeline.map((p) => p.syncState).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(['LOST', 'ACQUIRING', 'ACQUIRED', 'STABLE']);
    const median = (state: string) => {
      const values = timeline.filter((p) => p.syncState === state).map((p) => Math.abs(p.offsetFromMaster ?? 0)).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!;
    };
    expect(median('LOST')).toBeGreaterThan(median('ACQUIRING'));
    expect(median('ACQUIRING')).toBeGreaterThan(median('ACQUIRED'));
    expect(median('ACQUIRED')).toBeGreaterThan(median('STABLE'));
    expect(ptpAt('ptp-acquiring', 0, clock(PTP_STEP_S * 3 + 1)).syncState).toBe('STABLE');
    expect(ptpAt('ptp-acquiring', 1, clock(1)).syncState).toBe('STABLE');
  });
});

describe('over HTTP with the DeviceClient', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((x) => x.close()));
  });

  async function start(scenario: ScenarioName, timeScale: number): Promise<{ sim: Simulator; client: DeviceClient }> {
    const sim = await startSimulator({ scenario, timeScale });
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 2000 });
    open.push(client, sim);
    return { sim, client };
  }

  async function expectSchemasHold(name: ScenarioName, client: DeviceClient): Promise<void> {
    for (const op of operationNames) {
      const ids = op === 'ptp' ? slavePortIds(name) : [undefined];
      for (const id of ids) {
        const result = await client.call(op, id === undefined ? {} : { id });
        const documented = documentedErrors[name]?.[op];
        if (documented) expect(result).toMatchObject({ ok: false, error: { kind: 'device', code: documented } });
        else expect(result, `${name} ${op} ${id ?? ''}`).toMatchObject({ ok: true });
      }
    }
    const missingPort = await client.call('ptp', { id: Math.max(...slavePortIds(name)) + 1 });
    expect(missingPort).toMatchObject({ ok: false, error: { kind: 'device', code: '40004' } });
  }

  it.each(scenarioNames)('%s: every operation decodes at several points, and after a reboot', async (name) => {
    // 600 device seconds per real second: each pause below moves the device about a minute on.
    const { sim, client } = await start(name, 600);
    for (let point = 0; point < 3; point++) {
      await expectSchemasHold(name, client);
      await new Promise((r) => setTimeout(r, 100));
    }
    await sim.reboot(10);
    await expectSchemasHold(name, client);
  });

  it('ptp-acquiring advances through its states with a large time scale', async () => {
    // 10 device seconds per step at 100x: a step lasts 100 ms.
    const { client } = await start('ptp-acquiring', 100);
    const seen: string[] = [];
    const deadline = Date.now() + 8000;
    while (seen.at(-1) !== 'STABLE' && Date.now() < deadline) {
      const result = await client.call('ptp', { id: 0 });
      if (!result.ok) throw new Error(result.error.message);
      const state = result.data.syncState ?? '';
      if (seen.at(-1) !== state) seen.push(state);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toEqual(['LOST', 'ACQUIRING', 'ACQUIRED', 'STABLE']);
  });
});
