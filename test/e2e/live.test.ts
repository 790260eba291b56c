/**
 * The real binary in a real terminal (tmux), against the simulated device in its own process:
 * what a technician sees and types.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

let sim: Awaited<ReturnType<typeof startSimProcess>>;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimProcess(['--scenario', 'healthy']);
}, 60_000);

afterAll(() => {
  for (const s of sessions) s.kill();
  sim?.stop();
});

function open(size: { columns: number; rows: number }, env: Record<string, string> = {}, extra = ''): TmuxSession {
  const s = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 1 ${extra}`, size, env);
  sessions.push(s);
  return s;
}

const PORT0_PARENT = 'a0b1c2.fffe.d3e4f5-3';
const PORT1_PARENT = 'a0b1c2.fffe.aabbcc-7';

describe('live monitor in tmux', () => {
  it('shows every pane at 120x40, with data', async () => {
    const t = open({ columns: 120, rows: 40 });
    const screen = await t.waitFor((s) => /STABLE/.test(s) && /GPS/.test(s) && /smtp\.example\.com/.test(s), 'all panes with data');
    expect(screen).toMatch(/NTP/);
    expect(screen).toMatch(/GNSS/);
    expect(screen).toMatch(/PTP/);
    expect(screen).toMatch(/Alarm/);
    expect(screen.split('\n')[0]).toContain(sim.url);
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
    t.keys('q');
  });

  it('3 then → shows the next PTP port, ? shows help, Esc closes it, q leaves a clean prompt', async () => {
    const t = open({ columns: 100, rows: 30 });
    await t.waitFor((s) => /STABLE/.test(s), 'PTP data');
    t.keys('3');
    // The port list names every port's parent; the detail block is the selected port's.
    const detailParent = (s: string, parent: string) => new RegExp(`parent port\\s+${parent.replace(/\./g, '\\.')}`).test(s);
    await t.waitFor((s) => detailParent(s, PORT0_PARENT), 'port 0 detail');
    t.keys('Right');
    const next = await t.waitFor((s) => detailParent(s, PORT1_PARENT), 'port 1 detail');
    expect(detailParent(next, PORT0_PARENT)).toBe(false);
    t.keys('?');
    await t.waitFor((s) => /help/i.test(s) && /quit/i.test(s) && /Tab/.test(s), 'help overlay');
    t.keys('Escape');
    await t.waitFor((s) => !/Esc or \? closes/.test(s) && s.includes(PORT1_PARENT), 'help closed');
    t.keys('q');
    const after = await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit');
    // Back on the normal screen: nothing of the monitor is left, the cursor is visible.
    expect(after).not.toContain('STABLE');
    expect(t.tmux(['display', '-p', '-t', t.name, '#{cursor_flag}']).trim()).toBe('1');
    expect(t.tmux(['display', '-p', '-t', t.name, '#{alternate_on}']).trim()).toBe('0');
  });

  it('NO_COLOR emits no colors, state still readable', async () => {
    const t = open({ columns: 100, rows: 30 }, { NO_COLOR: '1' });
    await t.waitFor((s) => /STABLE/.test(s), 'data');
    const raw = t.capture(true);
    // tmux re-encodes what the program drew: any color the program set shows as 38;/48; or 3x/4x SGR.
    expect(raw).not.toMatch(/\x1b\[[0-9;]*(3[0-7]|38|4[0-7]|48|9[0-7])(;[0-9;]*)?m/);
    expect(raw).toMatch(/synchronized/);
    t.keys('q');
  });

  it('colors state when color is allowed', async () => {
    const t = open({ columns: 100, rows: 30 });
    await t.waitFor((s) => /STABLE/.test(s), 'data');
    expect(t.capture(true)).toMatch(/\x1b\[[0-9;]*3[0-7]m/);
    t.keys('C-c');
    await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit after Ctrl-C');
  });

  it('stays live when CI=true is in the environment (Ink would otherwise hold frames back)', async () => {
    const t = open({ columns: 100, rows: 30 }, { CI: 'true' });
    await t.waitFor((s) => /STABLE/.test(s) && /GPS/.test(s), 'live data with CI=true');
    t.keys('q');
    await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit');
  });

  it('fits 80x24 and survives resizes without a line wider than the terminal', async () => {
    const t = open({ columns: 80, rows: 24 });
    await t.waitFor((s) => /STABLE/.test(s), 'data');
    for (const [c, r] of [[120, 40], [60, 15], [50, 12], [100, 30], [80, 24]] as const) {
      t.resize(c, r);
      // Redrawn for the new size: the header is still the first line (nothing wrapped or
      // scrolled) and the frame leaves the last row free (Ink would otherwise clear the screen
      // on every update and wipe the scrollback).
      const screen = await t.waitFor((s) => {
        const lines = s.replace(/\n$/, '').split('\n');
        return lines.length === r && lines[0]!.startsWith('synctop') && lines[r - 1]!.trim() === '';
      }, `a clean frame at ${c}x${r}`);
      for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(c);
    }
    t.keys('q');
  });
});
