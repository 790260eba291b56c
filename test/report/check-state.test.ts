/**
 * `check --state-file`: the last known findings between plugin runs, over real HTTP against the
 * simulated device (the real binary run twice), and state files that are hostile input.
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/report/check.js';
import { CHECK_STATE_SCHEMA, DEFAULT_STATE_MAX_AGE_MS, MAX_STATE_BYTES, parseStateMaxAge } from '../../src/report/check-state.js';
import { sim as startSim, synctop as runBin, useBinary } from '../cli/binary.js';

useBinary();
const dir = mkdtempSync(join(tmpdir(), 'synctop-check-state-'));
let fileNo = 0;
const stateFile = () => join(dir, `state-${++fileNo}.json`);

/**
 * PTP thresholds the healthy device's port 1 is always over: its offset is -21 ns +/- 18 ns, so
 * its absolute value is at least 3 ns. The check is then CRITICAL on a PTP offset.
 */
const CRIT = ['--ptp-warn', '1ns', '--ptp-crit', '2ns'];
const critFlags = { ptpWarn: '1ns', ptpCrit: '2ns' };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sim = () => startSim({ scenario: 'healthy' });

const check = (url: string, flags: Record<string, unknown> = {}) => runCheck({ args: [url], flags: { color: true, timeout: 2000, ...flags }, env: {} });

/** The reasons of a plugin line, one per finding. */
const reasons = (line: string) => (/^SYNCTOP \w+ - ([^|]*?)(?: \| |$)/.exec(line)?.[1] ?? '').split('; ');
/** The PTP offset findings of a line, without their stale marker. */
const ptpOffsetReasons = (line: string) => reasons(line).filter((r) => /^PTP port \d+ offset /.test(r));

describe('parseStateMaxAge', () => {
  it.each([
    [undefined, DEFAULT_STATE_MAX_AGE_MS],
    ['3600', 3_600_000],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    [' 45 ', 45_000],
  ])('%s -> %d ms', (text, ms) => expect(parseStateMaxAge(text)).toBe(ms));

  it.each(['0', '-5', '1.5h', '1d', 'abc', ''])('%s is bad usage, named', (text) => {
    expect(() => parseStateMaxAge(text)).toThrow(/--state-max-age takes a positive time/);
  });
});

describe('the real binary, twice: the PTP endpoint stalls between the runs', () => {
  it('stays CRITICAL with the last known offsets marked stale; without --state-file it is WARNING', async () => {
    const device = await sim();
    const file = stateFile();
    const first = await runBin(['check', device.url, ...CRIT, '--state-file', file]);
    expect(first.code).toBe(2);
    expect(first.stderr).toBe('');
    const offsets = ptpOffsetReasons(first.stdout);
    expect(offsets.length).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('"smtpPassword":"***"');

    device.setFault('ptp', { kind: 'stall-headers' });
    const second = await runBin(['check', device.url, ...CRIT, '--timeout', '2000', '--state-file', file]);
    expect(second.code).toBe(2);
    expect(second.stdout).toMatch(/^SYNCTOP CRITICAL - /);
    const stale = ptpOffsetReasons(second.stdout);
    // The same findings as the first run saw, each with the age of its data.
    expect(stale.map((r) => r.replace(/ \(stale \d+s\)$/, ''))).toEqual(offsets);
    for (const r of stale) expect(r).toMatch(/ \(stale \d+s\)$/);
    expect(reasons(second.stdout)).toContainEqual(expect.stringMatching(/^PTP cannot be read/));
    // Perfdata graphs what this run read: no stale offset.
    expect(second.stdout).not.toMatch(/ptp_port\d+_offset=/);

    const without = await runBin(['check', device.url, ...CRIT, '--timeout', '2000']);
    expect(without.code).toBe(1);
    expect(reasons(without.stdout)).toEqual([expect.stringMatching(/^PTP cannot be read/)]);
  });

  it('a state file of another device: one warning line on stderr, the run goes on', async () => {
    const [a, b] = [await sim(), await sim()];
    const file = stateFile();
    expect((await runBin(['check', a.url, ...CRIT, '--state-file', file])).code).toBe(2);
    b.setFault('ptp', { kind: 'stall-headers' });
    const out = await runBin(['check', b.url, ...CRIT, '--timeout', '2000', '--state-file', file]);
    expect(out.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/--state-file .* ignored: it holds the state of another device \(http:\/\/127\.0\.0\.1:\d+\)$/)]);
    // Device A's findings are not device B's: B is judged on what it answers.
    expect(out.code).toBe(1);
    expect(out.stdout).not.toContain('stale');
    expect(JSON.parse(readFileSync(file, 'utf8')).device).toBe(b.url);
  });
});

describe('runCheck --state-file against the simulated device', () => {
  it('bad usage is UNKNOWN: a bad --state-max-age, a state file for several devices', async () => {
    const device = await sim();
    const bad = await check(device.url, { stateFile: stateFile(), stateMaxAge: '1d' });
    expect(bad.code).toBe(3);
    expect(bad.line).toMatch(/^SYNCTOP UNKNOWN - --state-max-age takes a positive time/);
    const fleet = await runBin(['check', device.url, device.url, '--state-file', stateFile()]);
    expect(fleet.code).toBe(3);
    expect(fleet.stdout).toMatch(/^SYNCTOP UNKNOWN - --state-file keeps the memory of one device/);
  });

  it('an unreachable device keeps the last known data in the file, and its findings in the verdict', async () => {
    const device = await sim();
    const file = stateFile();
    await check(device.url, { ...critFlags, stateFile: file });
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    device.setFault('all', { kind: 'refused' });
    await device.settled();
    const out = await check(device.url, { ...critFlags, stateFile: file });
    expect(out.code).toBe(2);
    expect(reasons(out.line)).toContainEqual(expect.stringMatching(/^device unreachable/));
    expect(ptpOffsetReasons(out.line).length).toBeGreaterThan(0);
    for (const r of ptpOffsetReasons(out.line)) expect(r).toMatch(/\(stale \d+s\)$/);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.sections).toEqual(saved.sections);
    expect(after.ports).toEqual(saved.ports);
  });

  it('a state that cannot be written costs one warning, not the check', async () => {
    const device = await sim();
    const out = await check(device.url, { stateFile: join(dir, 'no-such-dir', 'state.json') });
    expect(out.code).toBe(0);
    expect(out.warnings).toEqual([expect.stringMatching(/--state-file .*state\.json not saved: no such directory$/)]);
  });

  it('last known data older than --state-max-age is dropped, with one warning', async () => {
    const device = await sim();
    const file = stateFile();
    await check(device.url, { ...critFlags, stateFile: file });
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const old = new Date(Date.now() - 2 * 3_600_000).toISOString();
    for (const s of Object.values(state.sections) as { at: string }[]) s.at = old;
    for (const p of state.ports as { at: string }[]) p.at = old;
    writeFileSync(file, JSON.stringify(state));
    device.setFault('ptp', { kind: 'stall-headers' });
    const out = await check(device.url, { ...critFlags, stateFile: file });
    expect(out.warnings).toEqual([expect.stringMatching(/ignored: its data is older than --state-max-age \(3600 s\)$/)]);
    expect(out.code).toBe(1);
    expect(out.line).not.toContain('stale');
  });

  describe('hostile state files: one warning, the check judged on its own poll', () => {
    /** A valid state that would make the healthy device CRITICAL, if it were believed. */
    async function criticalState(url: string): Promise<string> {
      const file = stateFile();
      await check(url, { ...critFlags, stateFile: file });
      return readFileSync(file, 'utf8');
    }

    const cases: [what: string, plant: (file: string, url: string, valid: string) => void, warning: RegExp][] = [
      ['huge (over 1 MiB)', (f) => writeFileSync(f, ' '.repeat(MAX_STATE_BYTES + 1)), /ignored: it is larger than 1 MiB$/],
      ['damaged (cut short)', (f, _u, valid) => writeFileSync(f, valid.slice(0, valid.length / 2)), /ignored: it is not JSON \(damaged\)$/],
      [
        'wrong schema (ports not a list)',
        (f, url) => writeFileSync(f, JSON.stringify({ schema: CHECK_STATE_SCHEMA, device: url, savedAt: new Date().toISOString(), sections: { ptp: { at: new Date().toISOString(), data: { ports: 'all fine' } } }, ports: [] })),
        /ignored: it is not a synctop check state \(sections\.ptp\.data\.ports\)$/,
      ],
      ['another schema', (f, url) => writeFileSync(f, JSON.stringify({ schema: 'synctop.snapshot/1', device: url })), /ignored: it is not a synctop check state \(schema\)$/],
      [
        'escape sequences in the device name',
        (f, _u, valid) => writeFileSync(f, valid.replace(/"device":"[^"]*"/, '"device":"http://evil\\u001b[2J"')),
        /ignored: it holds the state of another device \(http:\/\/evil.*\)$/,
      ],
    ];

    it.each(cases)('%s', async (_what, plant, warning) => {
      const device = await sim();
      const valid = await criticalState(device.url);
      const file = stateFile();
      plant(file, device.url, valid);
      const out = await check(device.url, { stateFile: file });
      expect(out.warnings).toEqual([expect.stringMatching(warning)]);
      // eslint-disable-next-line no-control-regex
      expect(out.warnings?.[0]).not.toMatch(/\u001b/);
      expect(out.code).toBe(0);
      expect(out.line).toMatch(/^SYNCTOP OK - all checks passed/);
      // Replaced by this run's state, atomically and private.
      expect(JSON.parse(readFileSync(file, 'utf8')).device).toBe(device.url);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it('a symbolic link is neither read through nor replaced; its target stays as it was', async () => {
      const device = await sim();
      const target = stateFile();
      writeFileSync(target, await criticalState(device.url));
      const before = readFileSync(target, 'utf8');
      const link = stateFile();
      symlinkSync(target, link);
      device.setFault('ptp', { kind: 'stall-headers' });
      const out = await check(device.url, { ...critFlags, stateFile: link });
      expect(out.warnings).toEqual([expect.stringMatching(/ignored: it is a symbolic link, which synctop neither follows nor replaces$/)]);
      expect(out.code).toBe(1);
      expect(out.line).not.toContain('stale');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(target, 'utf8')).toBe(before);
    });
  });
});
