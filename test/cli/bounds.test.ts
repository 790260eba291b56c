/**
 * Numbers on the command line and in the config file are outside input too. An interval or a
 * deadline beyond what Node's timers hold (2^31-1 ms) fires after 1 ms: --interval 1e9 sent
 * about 1,900 requests a second, --timeout 2147483648 failed every request at once and
 * --timeout 1e10 ended in a stack trace. The real binary refuses them as usage errors (exit 2;
 * check: UNKNOWN, exit 3) before it asks the device anything: the URL here has nothing behind it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root } from '../e2e/tmux.js';

const run = promisify(execFile);
const NOWHERE = 'http://127.0.0.1:9';
const dir = mkdtempSync(join(tmpdir(), 'synctop-bounds-'));

async function synctop(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ devices: { far: { url: NOWHERE, interval: 1e9 } } }));
  writeFileSync(join(dir, 'rec.jsonl'), `${JSON.stringify({ schema: 'synctop.recording/1', device: NOWHERE, intervalMs: 1000, startedAt: '2026-11-22T10:00:00Z', version: 't' })}\n`);
}, 60_000);

describe('intervals and deadlines beyond what a timer holds are usage errors', () => {
  it.each<[string, string[], RegExp]>([
    ['--interval 1e9 (live monitor)', [NOWHERE, '--interval', '1e9'], /--interval must be a number of seconds, at least 0.5 and at most 86400 \(a day\) \(got 1000000000\)/],
    ['--timeout 2147483648 (--json)', [NOWHERE, '--json', '--timeout', '2147483648'], /--timeout must be a number of milliseconds, at least 50 and at most 600000 \(ten minutes\) \(got 2147483648\)/],
    ['--timeout 1e10 (--once)', [NOWHERE, '--once', '--timeout', '1e10'], /--timeout .* at most 600000/],
    ['--interval 1e9 (export)', ['export', '--listen', '127.0.0.1:0', NOWHERE, '--interval', '1e9'], /--interval .* at most 86400/],
    ['--timeout 1e10 (export)', ['export', '--listen', '127.0.0.1:0', NOWHERE, '--timeout', '1e10'], /--timeout .* at most 600000/],
    ['a profile with interval 1e9', ['@far', '--json', '--config', join(dir, 'config.json')], /"devices.far.interval" at most 86400 seconds \(a day\)/],
    ['replay --speed 1e-9', ['replay', join(dir, 'rec.jsonl'), '--speed', '1e-9'], /--speed must be a number from 0.01 to 1000/],
  ])('%s: exit 2 with one sentence, no stack trace', async (_name, args, message) => {
    const r = await synctop(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([['2147483648'], ['1e10']])('check --timeout %s: UNKNOWN, exit 3', async (timeout) => {
    const r = await synctop(['check', NOWHERE, '--timeout', timeout]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^SYNCTOP UNKNOWN - --timeout must be a number of milliseconds, at least 50 and at most 600000/);
  });
});
