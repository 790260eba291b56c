/**
 * `synctop check`: the pure line (snapshot + verdict -> status, reasons, perfdata), the command
 * against the simulated device over real HTTP, and the real binary's exit codes.
 */
import { execFile, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { defaultThresholds } from '../../src/monitor/health.js';
import { checkOutcome, checkVerdict, formatCheckLine, formatPerf, perfLabel, runCheck, type CheckLimits } from '../../src/report/check.js';
import { parsePluginRange, type PluginRange } from '../../src/report/plugin-range.js';
import { startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';
import { healthy, port, receiver, source } from '../monitor/snapshots.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const limits: CheckLimits = { thresholds: defaultThresholds };
const range = (text: string): PluginRange => {
  const parsed = parsePluginRange(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
};

function edit(change: (s: Snapshot) => void): Snapshot {
  const s = healthy();
  change(s);
  return s;
}

/** The guidelines' shape: STATUS line, then ' | ' and space-separated 'label'=value[UOM];w;c;min;max. */
const PERF_ITEM = /^('[^']+'|[^'= ]+)=(U|-?[0-9.]+)(s|%|B|c)?(;[^; ]*){0,4}$/;

function splitLine(line: string): { status: string; reasons: string; perf: string[] } {
  const m = /^SYNCTOP (OK|WARNING|CRITICAL|UNKNOWN) - ([^|\n]*?)(?: \| (.*))?$/.exec(line);
  if (!m) throw new Error(`not a plugin line: ${line}`);
  return { status: m[1]!, reasons: m[2]!, perf: m[3] ? m[3].split(' ') : [] };
}

describe('formatCheckLine (pure)', () => {
  const cases: [what: string, snap: Snapshot, l: CheckLimits, status: string, reasons: RegExp, perf: string[]][] = [
    [
      'healthy: all checks passed, perfdata in seconds and counts',
      healthy(),
      limits,
      'OK',
      /^all checks passed$/,
      ['ntp_offset=0.00000005s;0.01;0.1', 'ntp_sources_reachable=2;;;0;2', 'ptp_port0_offset=0.000000012s;0.0000001;0.000001', 'gnss_rx0_satellites=33;4:;;0'],
    ],
    [
      'PTP port acquiring: WARNING with its reason',
      edit((s) => {
        if (s.ptp.ok) s.ptp.data.ports = [port({ syncState: 'ACQUIRING' })];
      }),
      limits,
      'WARNING',
      /^PTP port 0 ACQUIRING$/,
      [],
    ],
    [
      'antenna open and PTP lost: the antenna explains its own receiver (possibly: one poll), never the remote grandmaster',
      edit((s) => {
        if (s.gnss.ok) s.gnss.data.receivers = [receiver({ antenna: 'open', ppsValid: false, satellitesTotal: 2 })];
        if (s.ptp.ok) s.ptp.data.ports = [port({ syncState: 'LOST' })];
      }),
      limits,
      'CRITICAL',
      /^GNSS receiver 0 antenna open -> possibly the cause of: GNSS receiver 0 PPS invalid, GNSS receiver 0 tracks 2 satellites \(< 4\); PTP port 0 LOST$/,
      ['gnss_rx0_satellites=2;4:;;0'],
    ],
    [
      '-w/-c replace the PTP offset thresholds, in seconds, on the absolute offset',
      edit((s) => {
        if (s.ptp.ok) s.ptp.data.ports = [port({ offsetFromMasterNs: -250 })];
      }),
      { thresholds: defaultThresholds, ptpWarn: range('0.0000002'), ptpCrit: range('0.001') },
      'WARNING',
      /^PTP port 0 offset -250ns from master \(range 0.0000002 s\)$/,
      ['ptp_port0_offset=-0.00000025s;0.0000002;0.001'],
    ],
    [
      'an inside range (@) alerts inside',
      healthy(),
      { thresholds: defaultThresholds, ptpCrit: range('@0:0.000001') },
      'CRITICAL',
      /^PTP port 0 offset \+12ns from master \(range @0.000001 s\); PTP port 1 offset/,
      ['ptp_port0_offset=0.000000012s;0.0000001;@0.000001'],
    ],
    [
      'no sync source: the NTP offset is undetermined (U)',
      edit((s) => {
        if (s.ntp.ok) s.ntp.data.sources = s.ntp.data.sources.map((x) => ({ ...x, isSyncSource: false }));
      }),
      limits,
      'OK',
      /^all checks passed$/,
      ['ntp_offset=U;0.01;0.1'],
    ],
    [
      'unreachable sources are not counted (and warn); max is the configured count',
      edit((s) => {
        if (s.ntp.ok) {
          s.ntp.data.sourceCount = 3;
          s.ntp.data.sources.push(source({ name: 'dead', reach: '000', reachCount: 0 }));
        }
      }),
      limits,
      'WARNING',
      /^NTP source dead unreachable \(reach 000\)$/,
      ['ntp_sources_reachable=2;;;0;3'],
    ],
    [
      'a standby receiver is graphed without the --min-sats warning',
      edit((s) => {
        if (s.gnss.ok) s.gnss.data.receivers.push(receiver({ id: 1, status: 'standby', satellitesTotal: 0 }));
      }),
      limits,
      'OK',
      /^all checks passed$/,
      ['gnss_rx1_satellites=0;;;0'],
    ],
    [
      'a device string cannot break the line: "|" is replaced',
      edit((s) => {
        if (s.ntp.ok) s.ntp.data.sources.push(source({ name: 'evil|x=1', state: 'False ticker' }));
      }),
      limits,
      'WARNING',
      /^NTP source evil\/x=1 is false ticker$/,
      [],
    ],
    [
      'every operation down: CRITICAL, no perfdata',
      edit((s) => {
        const down = { ok: false as const, error: { kind: 'network' as const, message: 'connection refused' } };
        s.ntp = down;
        s.gnss = down;
        s.ptp = down;
        s.alarm = down;
      }),
      limits,
      'CRITICAL',
      /^device unreachable: connection refused$/,
      [],
    ],
  ];

  it.each(cases)('%s', (_what, snap, l, status, reasons, perf) => {
    const line = formatCheckLine(snap, checkVerdict(snap, l), l);
    expect(line).not.toContain('\n');
    const parts = splitLine(line);
    expect(parts.status).toBe(status);
    expect(parts.reasons).toMatch(reasons);
    for (const item of parts.perf) expect(item).toMatch(PERF_ITEM);
    for (const item of perf) expect(parts.perf).toContain(item);
    expect(checkOutcome(snap, l).code).toBe({ OK: 0, WARNING: 1, CRITICAL: 2, UNKNOWN: 3 }[status]);
  });

  it('without -w/-c the verdict is exactly the rule table\'s', async () => {
    const { evaluateHealth } = await import('../../src/monitor/health.js');
    const snap = edit((s) => {
      if (s.ptp.ok) s.ptp.data.ports = [port({ offsetFromMasterNs: 5_000 })];
    });
    expect(checkVerdict(snap, limits)).toEqual(evaluateHealth(snap, defaultThresholds));
  });

  it.each([
    ['ntp_offset', 'ntp_offset'],
    ['rx 0 sats', "'rx 0 sats'"],
    ["it's", "'it''s'"],
    ['a=b', "'a=b'"],
  ])('perfLabel(%s) = %s', (label, written) => {
    expect(perfLabel(label)).toBe(written);
  });

  it('drops trailing empty perfdata fields only', () => {
    expect(formatPerf({ label: 'x', value: 3 })).toBe('x=3');
    expect(formatPerf({ label: 'x', value: 3, min: 0 })).toBe('x=3;;;0');
    expect(formatPerf({ label: 'x', value: null, uom: 's', warn: '1' })).toBe('x=U;1');
  });
});

// ---------------------------------------------------------------------------------------------

const sims: Simulator[] = [];
afterEach(async () => {
  for (const s of sims.splice(0)) await s.close();
});

async function sim(opts: SimOptions): Promise<Simulator> {
  const s = await startSimulator(opts);
  sims.push(s);
  return s;
}

const check = (args: string[], flags: Record<string, unknown> = {}) => runCheck({ args, flags: { color: true, ...flags }, env: {} });

describe('runCheck against the simulated device', () => {
  it('healthy -> OK, exit 0, perfdata for NTP, PTP ports and receivers', async () => {
    const device = await sim({ scenario: 'healthy' });
    const out = await check([device.url]);
    expect(out.code).toBe(0);
    const parts = splitLine(out.line);
    expect(parts.status).toBe('OK');
    expect(parts.reasons).toBe('all checks passed');
    const labels = parts.perf.map((p) => p.split('=')[0]);
    expect(labels).toEqual(['ntp_offset', 'ntp_sources_reachable', 'ptp_port0_offset', 'ptp_port1_offset', 'gnss_rx0_satellites', 'gnss_rx1_satellites']);
    for (const item of parts.perf) expect(item).toMatch(PERF_ITEM);
    // Offsets in seconds: tens of nanoseconds are 1e-8-ish, not 12.
    const ptp0 = Number(/ptp_port0_offset=(-?[0-9.]+)s/.exec(out.line)?.[1]);
    expect(Math.abs(ptp0)).toBeGreaterThan(0);
    expect(Math.abs(ptp0)).toBeLessThan(1e-6);
    expect(out.line).not.toContain('Demo-Smtp-Pa55');
  });

  it('receiver ids the device chooses become label parts only as small whole numbers, each label once', async () => {
    // Receivers with ids 0, 1e21, 0.5 and 0 again: 1e21 and 0.5 stand for their position (1, 2),
    // the second 0 gets "#2"; before, the labels read gnss_rx1e+21 and gnss_rx0 twice.
    const device = await sim({ scenario: 'label-clash' });
    const out = await check([device.url]);
    const labels = splitLine(out.line).perf.map((p) => p.split('=')[0]);
    expect(labels.filter((l) => l?.startsWith('gnss_'))).toEqual(['gnss_rx0_satellites', 'gnss_rx1_satellites', 'gnss_rx2_satellites', 'gnss_rx0#2_satellites']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('ptp-acquiring early in its timeline -> port 0 LOST is CRITICAL', async () => {
    const device = await sim({ scenario: 'ptp-acquiring' });
    const out = await check([device.url]);
    expect(splitLine(out.line).status).toBe('CRITICAL');
    expect(out.code).toBe(2);
    expect(out.line).toMatch(/PTP port 0 (LOST|ACQUIRING)/);
  });

  it('an operation answering HTTP 500 -> WARNING that names it', async () => {
    const device = await sim({ scenario: 'healthy', faults: 'alarm=http500' });
    const out = await check([device.url]);
    expect(out.code).toBe(1);
    expect(out.line).toMatch(/^SYNCTOP WARNING - ALARM cannot be read: the device answered HTTP 500/);
  });

  it('ntp-unsynced: the states in the words the live monitor uses, not the device\'s raw names', async () => {
    const device = await sim({ scenario: 'ntp-unsynced' });
    const out = await check([device.url]);
    expect(out.line).toContain('NTP not synchronized');
    expect(out.line).toMatch(/NTP source \S+ is too variable/);
    expect(out.line).toMatch(/NTP source \S+ is false ticker/);
    expect(out.line).not.toMatch(/Too variable|False ticker|Not synchronized/);
  });

  it('gnss-antenna-open -> CRITICAL, the antenna first', async () => {
    const device = await sim({ scenario: 'gnss-antenna-open' });
    const out = await check([device.url]);
    expect(out.code).toBe(2);
    expect(splitLine(out.line).reasons).toMatch(/^GNSS receiver 0 antenna open/);
  });

  it('tight -w from the command line turns a healthy device into WARNING', async () => {
    const device = await sim({ scenario: 'healthy' });
    const out = await check([device.url], { warning: '0.000000001', critical: '1' });
    expect(out.code).toBe(1);
    expect(out.line).toContain('ptp_port0_offset=');
    expect(out.line).toContain(';0.000000001;1');
  });

  it('closed port -> CRITICAL device unreachable', async () => {
    const device = await sim({ scenario: 'healthy' });
    const url = device.url;
    await device.close();
    const out = await check([url], { timeout: 500 });
    expect(out.code).toBe(2);
    expect(out.line).toMatch(/^SYNCTOP CRITICAL - device unreachable: connection refused/);
    expect(out.line).not.toContain('|');
  });

  it('a device that accepts connections and never answers: CRITICAL within --timeout, the others asked while time is left', async () => {
    const device = await sim({ scenario: 'healthy', faults: 'all=stall-headers' });
    const started = Date.now();
    const out = await check([device.url], { timeout: 400 });
    expect(Date.now() - started).toBeLessThan(400 + 1000);
    expect(out.code).toBe(2);
    // Each request gets at most half of what is left: NTP 200 ms, GNSS 100 ms, ...
    expect(out.line).toMatch(/device unreachable: no complete answer within 200 ms/);
    expect(device.stats.requests.ntp).toBe(1);
    expect(device.stats.requests.gnss).toBe(1);
  });

  it('a device that refuses connections costs one attempt: the other operations are not asked', async () => {
    const device = await sim({ scenario: 'healthy', faults: 'all=refused' });
    const out = await check([device.url], { timeout: 2000 });
    expect(out.code).toBe(2);
    expect(out.line).toMatch(/^SYNCTOP CRITICAL - device unreachable: connection refused/);
  });

  it('stalled operations beside answering ones: the whole check stays within --timeout', async () => {
    const device = await sim({ scenario: 'healthy', faults: 'gnss=stall-headers,ptp=stall-headers' });
    const started = Date.now();
    const out = await check([device.url], { timeout: 600 });
    // One budget for the whole check, not one timeout per operation (a plugin that overruns is killed).
    expect(Date.now() - started).toBeLessThan(600 + 1000);
    expect(out.code).toBe(1);
    expect(out.line).toMatch(/^SYNCTOP WARNING - GNSS cannot be read: no complete answer within \d+ ms/);
    expect(out.line).toMatch(/not asked: slower answers used up the 600 ms --timeout|no complete answer/);
  });

  it.each([
    ['missing URL', [], {}, /give the device URL/],
    ['extra argument', ['http://127.0.0.1:1', 'extra'], {}, /unexpected argument "extra"/],
    ['not a URL', ['nope'], {}, /is not a URL/],
    ['bad -w range', ['http://127.0.0.1:1'], { warning: '5:1' }, /^SYNCTOP UNKNOWN - -w: bad range "5:1": start is above end/],
    ['bad -c range', ['http://127.0.0.1:1'], { critical: 'x' }, /-c: bad range "x"/],
    ['unknown flag', ['http://127.0.0.1:1'], { bogus: 'x' }, /check does not take --bogus/],
    ['flag of another mode', ['http://127.0.0.1:1'], { once: true }, /check does not take --once/],
    ['bad threshold', ['http://127.0.0.1:1'], { ptpWarn: 'fast' }, /--ptp-warn takes a positive time/],
    ['bad timeout', ['http://127.0.0.1:1'], { timeout: Number.NaN }, /--timeout must be/],
  ] as const)('bad usage (%s) -> UNKNOWN, exit 3, one line', async (_what, args, flags, message) => {
    const out = await check([...args], flags);
    expect(out.code).toBe(3);
    expect(out.line).toMatch(/^SYNCTOP UNKNOWN - /);
    expect(out.line).toMatch(message);
    expect(out.line).not.toContain('\n');
  });
});

// ---------------------------------------------------------------------------------------------

const bin = `${root}dist/synctop.js`;

function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the real binary', () => {
  beforeAll(() => {
    if (!existsSync(bin)) execSync('npm run build --silent', { cwd: root, stdio: 'ignore' });
  }, 60_000);

  it('healthy -> exit 0 and one OK line with perfdata', async () => {
    const device = await sim({ scenario: 'healthy' });
    const out = await runBin(['check', device.url]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^SYNCTOP OK - all checks passed \| ntp_offset=-?[0-9.]+s;0.01;0.1 .*\n$/);
    expect(out.stdout.split('\n')).toHaveLength(2);
  });

  it('unreachable -> exit 2', async () => {
    const device = await sim({ scenario: 'healthy' });
    const url = device.url;
    await device.close();
    const out = await runBin(['check', url, '--timeout', '500']);
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(/^SYNCTOP CRITICAL - device unreachable/);
  });

  it.each([
    [['check'], /give the device URL/],
    [['check', 'http://127.0.0.1:1', '--bogus-flag', 'x'], /check does not take --bogus-flag/],
    [['check', 'http://127.0.0.1:1', '-w', '20:10'], /bad range/],
  ])('bad usage %j -> exit 3 (never meow\'s 2)', async (args, message) => {
    const out = await runBin(args);
    expect(out.code).toBe(3);
    expect(out.stdout).toMatch(/^SYNCTOP UNKNOWN - /);
    expect(out.stdout).toMatch(message);
  });
});
