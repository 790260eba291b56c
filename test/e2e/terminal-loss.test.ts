/**
 * The terminal goes away under the live monitor (an SSH link drops, the tmux session is killed):
 * the real binary, recording, in tmux; the session is killed. Before, that gave an unhandled
 * `write EIO`, a failed native assertion in Node's ResetStdio and an abort, 60+ lines on stderr.
 * Now: no output at all, exit 129, and a recording whose every line is whole.
 *
 * And --record is checked at start: a path that cannot be written is refused before the screen
 * opens; a new file is 0600; an existing 0644 one stays 0644, with a warning.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecording } from '../../src/record/reader.js';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-hangup-'));
const sessions: TmuxSession[] = [];
let sim: Awaited<ReturnType<typeof startSimProcess>>;

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimProcess();
}, 60_000);

afterAll(() => {
  for (const s of sessions) s.kill();
  sim?.stop();
});

/** How long a start or an exit may take on a machine busy with other tests: waits end as soon as the condition holds. */
const STARTUP_MS = 40_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, ms = STARTUP_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Wide, so that a sentence of the binary stays on one line of the capture. */
function session(command: string): TmuxSession {
  const t = new TmuxSession(command, { columns: 200, rows: 30 });
  sessions.push(t);
  return t;
}

/**
 * A session whose program is the session leader itself, as when tmux starts it directly: the
 * kernel's SIGHUP goes to it. (TmuxSession runs its command under a shell, to report its exit.)
 */
function leaderSession(command: string): TmuxSession & { leader: string } {
  const t = session('sleep 600') as TmuxSession & { leader: string };
  t.leader = 'leader';
  t.tmux(['new-session', '-d', '-s', t.leader, '-x', '100', '-y', '30', `exec env -u CI -u CONTINUOUS_INTEGRATION LANG=C.UTF-8 TERM=xterm-256color ${command}`]);
  return t;
}

/** Every line of the recording is whole JSON, and replay reads it without skipping any. */
async function expectIntact(path: string): Promise<number> {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  const rec = await loadRecording(path);
  expect(rec.skipped.count).toBe(0);
  rec.close();
  return rec.count;
}

describe('the terminal goes away under the live monitor', () => {
  it('killing the tmux session: no stderr, exit 129, an intact recording', async () => {
    const live = (name: string) => `${shellQuote(process.execPath)} ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 0.5 --record ${shellQuote(join(dir, `${name}.jsonl`))} 2>${shellQuote(join(dir, `${name}.err`))}`;
    // As under an SSH login: the shell gets SIGHUP and passes it on to its job, then says how the
    // job ended (the job keeps the terminal as its standard input, through fd 3).
    const script = join(dir, 'login-shell.sh');
    writeFileSync(
      script,
      [
        `trap 'kill -HUP $child 2>/dev/null' HUP`,
        'exec 3<&0',
        `env -u CI ${live('job')} <&3 3<&- &`,
        'child=$!',
        'wait $child; rc=$?',
        'while kill -0 $child 2>/dev/null; do wait $child; rc=$?; done',
        `echo $rc > ${shellQuote(join(dir, 'job.rc'))}`,
      ].join('\n'),
    );
    const job = session(`sh ${shellQuote(script)}`);
    // As a program started directly in a tmux session.
    const leader = leaderSession(live('leader'));
    const screenOf = (t: TmuxSession & { leader: string }) => t.tmux(['capture-pane', '-p', '-t', t.leader]);
    await job.waitFor((s) => /STABLE/.test(s) && /LIVE/.test(s), 'the live monitor with data', STARTUP_MS);
    await until(() => /STABLE/.test(screenOf(leader)), 'the leader with data');
    await until(() => readFileSync(join(dir, 'leader.jsonl'), 'utf8').split('\n').length > 8, 'a few recorded results');
    // A replay, too: the same screen, the same way out.
    const replay = leaderSession(`${shellQuote(process.execPath)} ${shellQuote(bin)} replay ${shellQuote(join(dir, 'leader.jsonl'))} 2>${shellQuote(join(dir, 'replay.err'))}`);
    await until(() => /REPLAY/.test(screenOf(replay)), 'the replay');

    const pids = [leader, replay].map((t) => t.tmux(['display', '-p', '-t', t.leader, '#{pane_pid}']).trim());
    job.tmux(['kill-session', '-t', job.name]);
    // Its only session gone, its tmux server is too: nothing left for afterAll to kill.
    sessions.splice(sessions.indexOf(job), 1);
    for (const t of [leader, replay]) t.tmux(['kill-session', '-t', t.leader]);
    await until(() => existsSync(join(dir, 'job.rc')), 'the job to end');
    await until(() => pids.every((pid) => !existsSync(`/proc/${pid}/status`) || /State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'))), 'the leaders to end');
    expect(readFileSync(join(dir, 'replay.err'), 'utf8'), 'stderr of the replay').toBe('');

    expect(readFileSync(join(dir, 'job.rc'), 'utf8').trim()).toBe('129');
    for (const name of ['job', 'leader']) {
      await until(() => readFileSync(join(dir, `${name}.jsonl`), 'utf8').endsWith('\n'), `the ${name} recording to be closed`);
      expect(readFileSync(join(dir, `${name}.err`), 'utf8'), `stderr of the ${name}`).toBe('');
      const results = await expectIntact(join(dir, `${name}.jsonl`));
      console.log(`hangup: ${name}: exit ${name === 'job' ? readFileSync(join(dir, 'job.rc'), 'utf8').trim() : '-'}, 0 bytes on stderr, ${results} recorded results intact`);
    }
  }, 180_000);
});

describe('--record is checked before the screen opens', { timeout: 120_000 }, () => {
  const start = (record: string) => session(`${shellQuote(process.execPath)} ${shellQuote(bin)} ${shellQuote(sim.url)} --record ${shellQuote(record)}`);

  it.each<[string, () => string, RegExp]>([
    ['a missing directory', () => join(dir, 'nowhere', 'x.jsonl'), /--record .*x\.jsonl: no such directory/],
    [
      'a symbolic link',
      () => {
        writeFileSync(join(dir, 'target.jsonl'), '');
        symlinkSync(join(dir, 'target.jsonl'), join(dir, 'link.jsonl'));
        return join(dir, 'link.jsonl');
      },
      /--record .*link\.jsonl: it is a symbolic link, which synctop does not follow/,
    ],
  ])('%s: a usage error, exit 2, and the screen never opened', async (_name, make, message) => {
    const t = start(make());
    const screen = await t.waitFor((s) => /\[exit \d+\]/.test(s), 'the refusal', STARTUP_MS);
    expect(screen).toMatch(message);
    expect(screen).toContain('[exit 2]');
    expect(screen).not.toMatch(/LIVE/);
  });

  it('creates a new recording 0600; an existing 0644 one stays 0644 and is warned about', async () => {
    const created = join(dir, 'new.jsonl');
    const shared = join(dir, 'shared.jsonl');
    writeFileSync(shared, '');
    chmodSync(shared, 0o644);
    const [a, b] = [start(created), start(shared)];
    for (const t of [a, b]) {
      await t.waitFor((s) => /LIVE/.test(s), 'the live monitor', STARTUP_MS);
      t.keys('q');
    }
    const after = await b.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit', STARTUP_MS);
    await a.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit', STARTUP_MS);
    expect(after).toMatch(/warning: --record .*shared\.jsonl can be read by other users \(mode 0644\); it is left so: chmod 600 it/);
    expect(statSync(created).mode & 0o777).toBe(0o600);
    expect(statSync(shared).mode & 0o777).toBe(0o644);
    expect(await expectIntact(shared)).toBeGreaterThan(0);
  });
});
