/**
 * Secrets never reach an output: the bearer token (SYNCTOP_TOKEN), a session cookie
 * (--cookie-file) and the device's SMTP password stay out of stdout and stderr of --once, --json,
 * the live view (the real binary in tmux) and a failed login, unless --show-secrets asks for the
 * password. A credential passed in argv draws a warning that does not repeat it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios } from '../../src/sim/scenarios.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { bin, hasBuild, root, shellQuote, TmuxSession } from '../e2e/tmux.js';

const TOKEN = 't0k3n-XYZ';
const WRONG_TOKEN = 'wr0ng-t0k3n-ABC';
const COOKIE_VALUE = 'c00kie-VALUE-42';
const HEADER_SECRET = 'x-h34der-s3cret';
/** What the simulated device's alarm configuration carries (healthy scenario). */
const PASSWORD = String(scenarios.healthy.alarm.smtpPassword);

const secrets = [TOKEN, WRONG_TOKEN, COOKIE_VALUE, HEADER_SECRET, PASSWORD];

let sim: Simulator;
let dir: string;
let cookieFile: string;
const sessions: TmuxSession[] = [];
const execFileP = promisify(execFile);

beforeAll(async () => {
  if (!hasBuild()) await execFileP('npm', ['run', 'build', '--silent'], { cwd: root });
  sim = await startSimulator({ scenario: 'healthy', token: TOKEN });
  dir = mkdtempSync(join(tmpdir(), 'synctop-secrets-'));
  cookieFile = join(dir, 'cookie');
  writeFileSync(cookieFile, `session=${COOKIE_VALUE}\n`, { mode: 0o600 });
}, 60_000);

afterAll(async () => {
  for (const s of sessions) s.kill();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the binary; resolves with its exit code and both streams, whatever the exit code. */
async function synctop(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  if (!('SYNCTOP_TOKEN' in env)) delete clean.SYNCTOP_TOKEN;
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [bin, ...args], { env: clean });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

function expectNoSecret(text: string, allowed: string[] = []): void {
  for (const s of secrets.filter((x) => !allowed.includes(x))) expect(text, `leaks "${s}"`).not.toContain(s);
}

describe('one-shot outputs', () => {
  it.each([['--once'], ['--json']])('%s with SYNCTOP_TOKEN and a cookie file: data, password masked, no secret', async (mode) => {
    const r = await synctop([sim.url, mode, '--cookie-file', cookieFile], { SYNCTOP_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    expectNoSecret(r.out + r.err);
    if (mode === '--json') {
      const snap = JSON.parse(r.out) as { alarm: { ok: boolean; data: { smtpPassword: string } } };
      expect(snap.alarm.data.smtpPassword).toBe('***');
    } else {
      expect(r.out).toMatch(/password\s+\*\*\*/);
    }
  });

  it.each([['--once'], ['--json']])('%s with a wrong token: HTTP 401 named, exit 1, no secret', async (mode) => {
    const r = await synctop([sim.url, mode, '--cookie-file', cookieFile], { SYNCTOP_TOKEN: WRONG_TOKEN });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/token from SYNCTOP_TOKEN refused \(HTTP 401\)/);
    expectNoSecret(r.out + r.err);
  });

  it.each([['--once'], ['--json']])('%s --show-secrets shows the password, still not the token or cookie', async (mode) => {
    const r = await synctop([sim.url, mode, '--show-secrets', '--cookie-file', cookieFile], { SYNCTOP_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(PASSWORD);
    expectNoSecret(r.out + r.err, [PASSWORD]);
  });

  it('a credential header on the command line draws a warning that does not repeat it', async () => {
    const r = await synctop([sim.url, '--once', '--header', `Authorization: Bearer ${HEADER_SECRET}`]);
    expect(r.err).toMatch(/warning: the Authorization header on the command line is visible to every user in ps/i);
    expectNoSecret(r.out + r.err);
  });
});

describe('the live view (real binary in tmux)', () => {
  function open(token: string): TmuxSession {
    const t = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 1 --timeout 4000 --cookie-file ${shellQuote(cookieFile)}`, { columns: 120, rows: 40 }, {
      SYNCTOP_TOKEN: token,
      NO_COLOR: '1',
    });
    sessions.push(t);
    return t;
  }

  it('shows the alarm pane with the password masked and no secret on screen', { timeout: 45_000 }, async () => {
    const t = open(TOKEN);
    const screen = await t.waitFor((s) => /smtp\.example\.com/.test(s) && /STABLE/.test(s), 'every pane with data', 30_000);
    expect(screen).toContain('***');
    expectNoSecret(screen + t.tmux(['display', '-p', '-t', t.name, '#{pane_title}']));
    t.keys('q');
    const after = await t.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
    expectNoSecret(after);
  });

  it('a wrong token shows the login failure and no secret', async () => {
    const t = open(WRONG_TOKEN);
    const screen = await t.waitFor((s) => /HTTP 401|not logged in/.test(s), 'the login failure');
    expectNoSecret(screen);
    t.keys('q');
    expectNoSecret(await t.waitFor((s) => /\[exit \d+\]/.test(s), 'exit'));
  });
});
