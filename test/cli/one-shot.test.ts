/**
 * The real binary's one-shot modes against the simulator (its own process): --json validates
 * against the schema the binary publishes, --once is plain text, exit codes follow the contract.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, startSimProcess } from '../e2e/tmux.js';

const run = promisify(execFile);
type Sim = Awaited<ReturnType<typeof startSimProcess>>;
const sims: Sim[] = [];

async function synctop(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function sim(...args: string[]): Promise<string> {
  const s = await startSimProcess(args);
  sims.push(s);
  return s.url;
}

let validate: ReturnType<InstanceType<typeof Ajv2020>['compile']>;
let published: { properties: Record<string, unknown>; required: string[] };

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const schema = JSON.parse((await synctop(['--json-schema'])).stdout) as typeof published;
  published = schema;
  validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
}, 60_000);

afterAll(() => {
  for (const s of sims) s.stop();
});

describe('synctop URL --json', () => {
  it.each(['healthy', 'ntp-unsynced', 'gnss-antenna-open', 'no-gnss', 'ptp-acquiring', 'seed-sample', 'hostile-strings', 'many'])(
    'scenario %s: valid against the published schema',
    async (scenario) => {
      const url = await sim('--scenario', scenario);
      const { code, stdout } = await synctop([url, '--json']);
      expect(code).toBe(0);
      const snap = JSON.parse(stdout) as { schema: string; device: string; health?: unknown };
      const ok = validate(snap);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
      expect(snap.schema).toBe('synctop.snapshot/1');
      expect(snap.device).toBe(url);
      expect(snap.health).toBeDefined();
    },
  );

  it('carries the health verdict and its findings, as check reads them; the schema publishes it', async () => {
    const url = await sim('--scenario', 'gnss-antenna-open');
    const { stdout } = await synctop([url, '--json']);
    const snap = JSON.parse(stdout) as { health: { severity: string; findings: { rule: string; severity: string; section: string; message: string }[] } };
    expect(validate(snap)).toBe(true);
    expect(snap.health.severity).toBe('critical');
    expect(snap.health.findings[0]).toMatchObject({ rule: 'gnss-antenna', severity: 'critical', section: 'gnss' });
    expect(snap.health.findings[0]!.message).toMatch(/^GNSS receiver 0 antenna open/);
    const check = await synctop(['check', url]);
    for (const f of snap.health.findings) expect(check.stdout).toContain(f.message);
    expect(published.properties.health).toBeDefined();
    expect(published.required).not.toContain('health');
  }, 40_000); // two runs of the binary and a simulator: a busy machine needs more than 20 s

  it('a device without GNSS: exit 0, the section carries the device error', async () => {
    const url = await sim('--scenario', 'no-gnss');
    const { code, stdout } = await synctop([url, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).gnss).toEqual({ ok: false, error: { kind: 'device', code: '40003', message: 'no GNSS receiver, or no permission to see it' } });
  });

  it('a section that cannot be read: exit 1, still valid JSON', async () => {
    const url = await sim('--faults', 'alarm=http502');
    const { code, stdout } = await synctop([url, '--json']);
    expect(code).toBe(1);
    const snap = JSON.parse(stdout);
    expect(validate(snap)).toBe(true);
    expect(snap.alarm.error.kind).toBe('http');
    expect(snap.ntp.ok).toBe(true);
  });

  it('an unreachable device fails within the timeout, exit 1', async () => {
    const started = Date.now();
    const { code, stdout } = await synctop(['http://127.0.0.1:9', '--json', '--timeout', '800']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).ntp.error.kind).toBe('network');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('synctop URL --once', () => {
  it('prints every section as plain text without escape sequences when not on a terminal', async () => {
    const url = await sim('--scenario', 'healthy');
    const { code, stdout } = await synctop([url, '--once']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/\x1b/);
    for (const heading of ['NTP', 'GNSS', 'PTP', 'Alarm e-mail']) expect(stdout).toMatch(new RegExp(`^${heading}$`, 'm'));
    expect(stdout).toMatch(/health {2}OK/);
    expect(stdout).toContain('password        ***');
    expect(stdout).toMatch(/STABLE/);
  });

  it('falls back to ASCII when the locale is not UTF-8 (LC_ALL=C)', async () => {
    const url = await sim('--scenario', 'healthy');
    const { code, stdout } = await synctop([url, '--once'], { LC_ALL: 'C', LANG: 'C.UTF-8' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/STABLE/);
    expect(stdout).toMatch(/^[\x00-\x7f]*$/);
  });

  it('hostile device strings arrive as visible escapes, never raw', async () => {
    const url = await sim('--scenario', 'hostile-strings');
    const { stdout } = await synctop([url, '--once']);
    expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(stdout).toContain('\\x1b');
  });

  it('--show-secrets shows the password', async () => {
    const url = await sim('--scenario', 'healthy');
    const { stdout } = await synctop([url, '--once', '--show-secrets']);
    expect(stdout).not.toContain('password        ***');
  });
});

describe('bad usage exits 2 with a sentence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synctop-cli-'));
  const badConfig = join(dir, 'config.json');
  writeFileSync(badConfig, JSON.stringify({ devices: { lab: { url: 'http://x', intervall: 3 } } }));
  it.each([
    [['--once'], /give the device URL/],
    [['not-a-url', '--once'], /is not a URL/],
    [['http://x', '--interval', '0.1', '--once'], /--interval must be/],
    [['http://x', '--ptp-ports', 'a,b', '--once'], /--ptp-ports takes/],
    [['http://x', '--token-file', '/nonexistent/t', '--once'], /--token-file \/nonexistent\/t: no such file/],
    [['@lab', '--config', badConfig, '--once'], /"devices.lab" unknown key "intervall"/],
    [['http://x', '--bogus-flag'], /unknown option --bogus-flag; see --help/],
  ])('%j', async (args, message) => {
    const { code, stderr } = await synctop(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
