/**
 * `synctop replay` of crafted recordings, the real binary in a real terminal (tmux):
 *
 * - escape sequences in recorded strings (title change, OSC 52 clipboard writes, OSC 8 links)
 *   are shown as text and change nothing in the terminal;
 * - a last line cut short (synctop killed mid-write) replays up to it, with a warning;
 * - megabyte strings draw at once and q, Ctrl-C and SIGTERM still end the replay;
 * - a 1 GiB file (one line of a gigabyte) is streamed, not read whole: the replay starts, the
 *   line is skipped, and the peak memory stays that of a small recording.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmData, NtpSource } from '../../src/model/snapshot.js';
import { bin, hasBuild, root, shellQuote, TmuxSession } from './tmux.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-replay-e2e-'));
const sessions: TmuxSession[] = [];
const ESC = '\x1b';
const BEL = '\x07';
const HOSTILE = `${ESC}]0;PWNED${BEL}${ESC}]52;c;cm0gLXJmIH4vKg==${BEL}${ESC}]8;;http://evil${ESC}\\click${ESC}]8;;${ESC}\\`;
const TITLE = 'synctop-replay-check';

const header = (device: string) => JSON.stringify({ schema: 'synctop.recording/1', device, intervalMs: 1000, startedAt: '2026-11-22T10:00:00Z', version: 't' });
const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();

const source = (name: string): NtpSource => ({
  name,
  mode: 'Server',
  state: 'Best source',
  isSyncSource: true,
  stratum: 2,
  pollSeconds: 64,
  reach: '377',
  reachCount: 8,
  lastRxSeconds: 10,
  offsetNs: 120,
  measuredOffsetNs: 130,
  errorNs: 1000,
});

const alarm = (text: string): AlarmData => ({
  emailAlertEnabled: true,
  senderEmail: `noc@example.com${text}`,
  senderName: text,
  recipientEmails: [text, 'ops@example.com'],
  alertLevel: 'major',
  includeDeviceId: true,
  smtpServer: `smtp.example.com${text}`,
  smtpPort: 587,
  smtpTimeout: 30,
  smtpUseTLS: true,
  smtpUseAuth: true,
  smtpUsername: 'noc@example.com',
  smtpPassword: '***',
  emailSubjectPrefix: text,
  checkInterval: 60,
  maxEmailsPerHour: 20,
  retryCount: 3,
  retryDelay: 30,
});

/** One poll of all four sections at second s, every string carrying `text`. */
function poll(s: number, text: string): string[] {
  return [
    { at: at(s), section: 'ntp', result: { ok: true, data: { overallStatus: 'Synchronized', syncSource: `GPS${text}`, sourceCount: 1, sources: [source(`GPS${text}`)] } } },
    { at: at(s), section: 'gnss', result: { ok: false, error: { kind: 'http', code: '500', message: `the device answered ${text}` } } },
    { at: at(s), section: 'ptp', result: { ok: true, data: { ports: [] } } },
    { at: at(s), section: 'alarm', result: { ok: true, data: alarm(text) } },
  ].map((e) => JSON.stringify(e));
}

function recording(name: string, device: string, polls: string[][], tail = ''): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header(device), ...polls.flat()].join('\n')}\n${tail}`);
  return path;
}

function open(file: string, extra = '', columns = 120): TmuxSession {
  const t = new TmuxSession(`node ${shellQuote(bin)} replay ${shellQuote(file)} ${extra}`, { columns, rows: 40 }, { NO_COLOR: '1' });
  t.tmux(['select-pane', '-t', t.name, '-T', TITLE]);
  sessions.push(t);
  return t;
}

const paneTitle = (t: TmuxSession) => t.tmux(['display', '-p', '-t', t.name, '#{pane_title}']).trim();

/** The replay process in a pane: the pane runs `sh -c`, whose child is node. */
function childPid(t: TmuxSession): number {
  const shell = t.tmux(['display', '-p', '-t', t.name, '#{pane_pid}']).trim();
  return Number(readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/)[0]);
}

const peakKb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

beforeAll(() => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}, 60_000);

afterAll(() => {
  for (const s of sessions) s.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('replay of a crafted recording', () => {
  it('shows recorded escape sequences as text, touches neither title nor clipboard, and replays up to a cut last line', async () => {
    const polls = [poll(1, HOSTILE), poll(2, HOSTILE), poll(3, HOSTILE)];
    const file = recording('hostile.jsonl', `http://192.0.2.7${ESC}]0;PWNED${BEL}`, polls, polls[0]![0]!.slice(0, 60));
    // Wide enough for the header to hold the replay position beside the escaped device name.
    const t = open(file, '--speed 1000', 180);
    const screen = await t.waitFor((s) => /REPLAY 12\/12/.test(s) && /smtp\.example\.com/.test(s), 'the whole replay');
    expect(screen).toContain('1 damaged line skipped');
    expect(screen).toMatch(/\\x1b\]0;PWNED/);
    expect(paneTitle(t)).toBe(TITLE);
    expect(t.tmux(['list-buffers', '-F', '#{buffer_sample}'])).not.toMatch(/rm -rf|cm0gLXJmIH4vKg/);
    expect(screen.split('\n')[0]).toMatch(/^synctop /);

    t.keys('q');
    const after = await t.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
    // The warning printed before the screen opened is there after it closed.
    expect(after).toMatch(/its last line \(line 14\) is cut short, as when synctop stops while writing; replaying everything before it/);
    expect(paneTitle(t)).toBe(TITLE);
  });

  it('draws megabyte strings at once; q, Ctrl-C and SIGTERM still end it', async () => {
    const big = 'W'.repeat(1024 * 1024);
    const file = recording('huge-strings.jsonl', 'http://192.0.2.8', [poll(1, big), poll(2, big)]);
    const byKey = open(file);
    const byCtrlC = open(file);
    const bySignal = open(file);
    for (const t of [byKey, byCtrlC, bySignal]) await t.waitFor((s) => /REPLAY/.test(s) && /WWWW/.test(s), 'the first frame');
    byKey.keys('q');
    byCtrlC.keys('C-c');
    execFileSync('kill', ['-TERM', String(childPid(bySignal))]);
    await byKey.waitFor((s) => /\[exit 0\]/.test(s), 'q to end it', 5000);
    await byCtrlC.waitFor((s) => /\[exit 0\]/.test(s), 'Ctrl-C to end it', 5000);
    await bySignal.waitFor((s) => /\[exit 143\]/.test(s), 'SIGTERM to end it', 5000);
  }, 60_000);

  it('streams a 1 GiB file: the gigabyte line is skipped and memory stays that of a small recording', async () => {
    const small = recording('small.jsonl', 'http://192.0.2.9', [poll(1, ''), poll(2, '')]);
    const large = join(dir, 'gigabyte.jsonl');
    writeFileSync(large, `${[header('http://192.0.2.9'), ...poll(1, '')].join('\n')}\n`);
    const fd = openSync(large, 'r+');
    // A hole up to 1 GiB (zeros on read, no disk used), then the rest of the session.
    const tail = Buffer.from(`\n${poll(2, '').join('\n')}\n`);
    writeSync(fd, tail, 0, tail.length, 1024 ** 3);
    closeSync(fd);

    const [a, b] = [open(small), open(large)];
    await a.waitFor((s) => /REPLAY/.test(s), 'the small replay');
    const screen = await b.waitFor((s) => /REPLAY/.test(s), 'the gigabyte replay', 30_000);
    expect(screen).toContain('1 damaged line skipped');
    const ratio = peakKb(childPid(b)) / peakKb(childPid(a));
    console.log(`replay: 1 GiB file, peak RSS ${(peakKb(childPid(b)) / 1024).toFixed(0)} MB vs ${(peakKb(childPid(a)) / 1024).toFixed(0)} MB for a small one (x${ratio.toFixed(2)})`);
    expect(ratio).toBeLessThan(1.5);
    b.keys('q');
    const after = await b.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
    expect(after).toMatch(/1 damaged line skipped \(line 6: longer than 4 MiB\)/);
  }, 60_000);
});
