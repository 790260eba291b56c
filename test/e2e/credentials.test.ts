/**
 * Credentials belong to their device, in the real binary: started as
 * `SYNCTOP_TOKEN=A synctop @a --cookie-file … --header …`, the `d` switcher's other profile gets
 * only what its own profile says. Two token-protected simulated devices over real HTTP; each
 * records every credential it was sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { bin, hasBuild, root, shellQuote, TmuxSession } from './tmux.js';

const sims: Simulator[] = [];
const sessions: TmuxSession[] = [];

beforeAll(() => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}, 60_000);

afterAll(async () => {
  for (const s of sessions) s.kill();
  for (const s of sims) await s.close();
});

describe('the d switcher keeps each device\'s credentials to itself', () => {
  it('profile b gets its own token, not the command line\'s token, cookie or header', async () => {
    const a = await startSimulator({ scenario: 'healthy', token: 'token-a' });
    const b = await startSimulator({ scenario: 'ntp-unsynced', token: 'token-b' });
    sims.push(a, b);
    const dir = mkdtempSync(join(tmpdir(), 'synctop-switch-'));
    // Readable by others: the warning must reach the screen, not only the stderr behind it.
    writeFileSync(join(dir, 'a.cookies'), 'SESSION=for-a\n', { mode: 0o644 });
    writeFileSync(join(dir, 'b.token'), 'token-b\n', { mode: 0o600 });
    // b's token file is relative: it is found next to the config file, wherever synctop starts.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ devices: { a: { url: a.url }, b: { url: b.url, tokenFile: 'b.token' } } }), { mode: 0o600 });
    const command = [
      'node', shellQuote(bin), '@a', '--config', shellQuote(join(dir, 'config.json')),
      '--cookie-file', shellQuote(join(dir, 'a.cookies')), '--header', shellQuote('X-Site: a'), '--interval', '1', '--timeout', '4000',
    ].join(' ');
    const t = new TmuxSession(command, { columns: 100, rows: 30 }, { SYNCTOP_TOKEN: 'token-a' });
    sessions.push(t);
    await t.waitFor((s) => s.includes(a.url) && /synchronized\s+to GPS/.test(s), 'device a with data');
    t.keys('5');
    await t.waitFor((s) => /~ --cookie-file \S+a\.cookies can be read by other users/.test(s), 'the start-up warning in the events pane');
    t.keys('d');
    await t.waitFor((s) => s.includes('Enter switches'), 'the device list');
    // One key at a time: keys arriving in one read are a separate matter.
    t.keys('Down');
    await t.waitFor((s) => /▶\s+b\s/.test(s), 'profile b selected');
    t.keys('Enter');
    const screen = await t.waitFor((s) => s.split('\n')[0]!.includes(b.url) && /not synchronized/i.test(s), 'device b with data');
    expect(screen).not.toMatch(/HTTP 401|not logged in/);
    t.keys('q');

    expect(a.stats.headersSeen.authorization).toEqual(['Bearer token-a']);
    expect(a.stats.headersSeen.cookie).toEqual(['SESSION=for-a']);
    expect(a.stats.headersSeen['x-site']).toEqual(['a']);
    expect(b.stats.headersSeen.authorization).toEqual(['Bearer token-b']);
    expect(b.stats.headersSeen.cookie).toBeUndefined();
    expect(b.stats.headersSeen['x-site']).toBeUndefined();
  });
});

describe('the s screendump under --show-secrets', () => {
  it('the screen shows the SMTP password, the file never holds it (120x40, then 80x24 with the alarm pane focused)', async () => {
    const device = await startSimulator({ scenario: 'healthy' });
    sims.push(device);
    const dir = mkdtempSync(join(tmpdir(), 'synctop-dump-e2e-'));
    const password = 'Demo-Smtp-Pa55';
    const t = new TmuxSession(`sh -c ${shellQuote(`cd ${shellQuote(dir)} && exec node ${shellQuote(bin)} ${device.url} --show-secrets --interval 1 --timeout 4000`)}`, { columns: 120, rows: 40 });
    sessions.push(t);
    await t.waitFor((s) => s.includes(password), 'the password on screen');
    const dumps = () => readdirSync(dir).filter((f) => f.startsWith('synctop-screendump-'));
    // A dump file exists from its first byte; it is complete once the snapshot JSON is closed.
    const complete = (name: string) => readFileSync(join(dir, name), 'utf8').trimEnd().endsWith('}');
    const dump = async (n: number) => {
      t.keys('s');
      await t.waitFor((s) => /screendump saved to/.test(s) && dumps().length === n && dumps().every(complete), `screendump ${n}`);
    };
    await dump(1);
    t.resize(80, 24);
    await t.waitFor((s) => /━▶ 1 NTP/.test(s) && s.split('\n').every((l) => l.length <= 80), 'the 80x24 layout');
    t.keys('4');
    await t.waitFor((s) => /▶ 4 Alarm/.test(s) && /password\s+Demo-Sm/.test(s), 'the alarm pane at 80x24');
    await dump(2);
    t.keys('q');
    for (const name of dumps()) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text, name + '\n' + text.slice(0, 3000)).toMatch(/password\s+\*\*\*/);
      expect(text).toContain('"smtpPassword": "***"');
      expect(text).not.toContain('Demo-Sm');
    }
  });
});
