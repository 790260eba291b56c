/**
 * Terminal safety, end to end: the real binary in a real terminal (tmux) against
 * `synctop simulate --scenario hostile-strings`, whose device strings carry a title change
 * (OSC 0 "PWNED"), a clipboard write (OSC 52), a screen clear and a bidi override. The terminal
 * must come out untouched: title intact, nothing cleared, the escapes shown as visible text.
 *
 * No skip: without tmux this fails, loudly (CI installs it).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

let sim: Awaited<ReturnType<typeof startSimProcess>>;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  try {
    execFileSync('tmux', ['-V'], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(`tmux is required for the terminal-safety tests and was not found: ${(err as Error).message}`);
  }
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimProcess(['--scenario', 'hostile-strings']);
}, 60_000);

afterAll(() => {
  for (const s of sessions) s.kill();
  sim?.stop();
});

const TITLE = 'synctop-hostile-check';

function open(extra = ''): TmuxSession {
  const t = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 1 ${extra}`, { columns: 120, rows: 40 }, { NO_COLOR: '1' });
  // A known title to compare against; tmux lets programs set it (allow-rename/set-titles aside,
  // #{pane_title} follows OSC 0/2 from the program).
  t.tmux(['select-pane', '-t', t.name, '-T', TITLE]);
  sessions.push(t);
  return t;
}

const paneTitle = (t: TmuxSession) => t.tmux(['display', '-p', '-t', t.name, '#{pane_title}']).trim();

describe('hostile device strings in the live view', () => {
  it('leave the title, the clipboard and the screen alone, show the escapes as text, and q exits cleanly', async () => {
    const t = open();
    // Data from all four operations, the hostile strings among it.
    const screen = await t.waitFor((s) => /STABLE/.test(s) && /10\.20\.0\.11/.test(s) && /smtp\.example\.com/.test(s), 'every pane with hostile data');

    // The title change was not obeyed.
    expect(paneTitle(t)).toBe(TITLE);
    expect(paneTitle(t)).not.toContain('PWNED');
    // The escapes show as visible text instead of acting.
    expect(screen).toMatch(/\\x1b\]0;PWNED/);
    expect(screen).toMatch(/\\x1b\]52;c;/);
    expect(screen).toMatch(/\\u\{202E\}/);
    // Nothing cleared the screen: the header is still on the first line.
    expect(screen.split('\n')[0]).toContain(sim.url);
    expect(screen.split('\n')[0]).toMatch(/synctop/);
    // No clipboard was written through tmux (OSC 52 reaches tmux's paste buffers when allowed).
    expect(t.tmux(['list-buffers', '-F', '#{buffer_sample}'])).not.toMatch(/rm -rf|cm0gLXJmIH4vKg/);

    // Another few refreshes, then the same checks: a later frame must not act either.
    await new Promise((r) => setTimeout(r, 2500));
    const later = t.capture();
    expect(paneTitle(t)).toBe(TITLE);
    expect(later.split('\n')[0]).toContain(sim.url);

    t.keys('q');
    const after = await t.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
    expect(after).not.toMatch(/STABLE/);
    expect(paneTitle(t)).toBe(TITLE);
    expect(t.tmux(['display', '-p', '-t', t.name, '#{alternate_on}']).trim()).toBe('0');
  });

  it('--once prints the escapes as text and no escape byte', async () => {
    const out = execFileSync(process.execPath, [bin, sim.url, '--once'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(out).toMatch(/\\x1b\]0;PWNED\\x07/);
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });
});
