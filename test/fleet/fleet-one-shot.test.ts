/**
 * --json, --once and check over several devices, through the real binary against five
 * simulated devices over real HTTP: one JSON array whose items validate against the published
 * snapshot schema, a text report per device, one plugin line with the worst state and
 * per-device perfdata.
 */
import { execFileSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBuild, root } from '../e2e/tmux.js';
import { startSite, type Site } from './site.js';
import { synctop as runBinary } from '../cli/binary.js';

let site: Site;

const synctop = (args: string[]) => runBinary(args, { NO_COLOR: '1' }, 20_000);

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  site = await startSite();
}, 60_000);
afterAll(async () => site?.close());

describe('one-shot modes over a fleet', () => {
  it('--json prints one array of snapshots that validate against --json-schema', async () => {
    const schema = JSON.parse((await synctop(['--json-schema'])).stdout) as Record<string, unknown>;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const { code, stdout } = await synctop(['--all', '--config', site.configPath, '--json', '--timeout', '500']);
    const snapshots = JSON.parse(stdout) as { device: string; ntp: { ok: boolean } }[];
    expect(snapshots.map((s) => s.device)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((n) => site.urls[n]));
    for (const s of snapshots) expect(validate(s), JSON.stringify(validate.errors)).toBe(true);
    expect(snapshots[3]!.ntp.ok).toBe(false);
    expect(code).toBe(1); // the stalled device could not be read
  });

  it('--once prints the text report of each device under its name', async () => {
    const { code, stdout } = await synctop([site.urls.alpha!, site.urls.echo!, '--once']);
    const host = (n: string) => new URL(site.urls[n]!).host;
    expect(stdout).toContain(`== ${host('alpha')} ==`);
    expect(stdout.indexOf(`== ${host('echo')} ==`)).toBeGreaterThan(stdout.indexOf(`== ${host('alpha')} ==`));
    expect(stdout).toMatch(/00a0b0\.fffe\.c0d0e0/);
    expect(code).toBe(0);
  });

  it('check gives the worst state, reasons by device and prefixed perfdata', async () => {
    const { code, stdout } = await synctop(['check', '--all', '--config', site.configPath, '--timeout', '2500']);
    expect(stdout).toMatch(/^SYNCTOP CRITICAL - 5 devices: \d CRITICAL, .*delta: /);
    expect(stdout).toMatch(/charlie: [^;]*antenna/i);
    expect(stdout).toMatch(/\| .*alpha_ntp_offset=.* echo_ptp_port0_offset=/);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(code).toBe(2);
    const bad = await synctop(['check', site.urls.alpha!, site.urls.echo!, '--bogus']);
    expect(bad).toMatchObject({ code: 3 });
    expect(bad.stdout).toMatch(/^SYNCTOP UNKNOWN - check does not take --bogus/);
  });
});
