/**
 * Field insight in the real binary, in tmux, against the simulator in its own process: the
 * events a state change produces (with their local times), and the health verdict in the
 * header, as a technician sees them.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

type Sim = Awaited<ReturnType<typeof startSimProcess>>;
const cleanups: (() => void)[] = [];

beforeAll(() => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}, 60_000);

afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function sim(scenario: string): Promise<Sim> {
  const s = await startSimProcess(['--scenario', scenario]);
  cleanups.push(s.stop);
  return s;
}

function monitor(url: string, size: { columns: number; rows: number }): TmuxSession {
  const t = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(url)} --interval 0.5`, size);
  cleanups.push(() => t.kill());
  return t;
}

const lines = (screen: string) => screen.replace(/\n$/, '').split('\n');

describe('field insight in tmux', () => {
  it('ptp-acquiring: LOST is CRITICAL in the header; LOST -> ACQUIRING appears as an event with its time and the verdict moves on', async () => {
    const device = await sim('ptp-acquiring');
    const t = monitor(device.url, { columns: 120, rows: 40 });
    const lost = await t.waitFor((s) => /! LOST/.test(s), 'port 0 LOST');
    expect(lines(lost)[1]).toMatch(/^! CRITICAL · /);
    expect(lines(lost)[2]).toContain('PTP port 0 LOST');
    // The simulator's port 0 leaves LOST about 10 s after it started: wait for that one step only
    // (the events pane shows its newest lines; the event itself is read with the log zoomed below).
    const screen = await t.waitFor((s) => /sync state\s+~ ACQUIRING for/.test(s), 'port 0 ACQUIRING', 25_000);
    // The verdict follows: LOST is no longer its worst finding (ACQUIRING warns; the offset
    // the servo still has to pull in may keep it CRITICAL for a while).
    const header = lines(await t.waitFor((s) => !lines(s)[2]!.includes('LOST') && /^[!~] (CRITICAL|WARNING) · /.test(lines(s)[1]!), 'the verdict after LOST'));
    expect(header[2]).toMatch(/^[!~] PTP port 0 (ACQUIRING|offset)/);
    expect(screen).toMatch(/5 Events \d+ new/);
    // Seen changing: an exact time in state; a lower bound ("≥") only when PTP could not be read
    // at the change (a busy machine can time a poll out).
    expect(screen).toMatch(/sync state\s+~ ACQUIRING for (≥ )?\d+s/);
    for (const line of header) expect(line.length).toBeLessThanOrEqual(120);
    expect(header.length).toBe(40);
    expect(header[39]!.trim()).toBe('');

    // At 80x24 the log collapses to its latest event; 5 gives it the room.
    t.resize(80, 24);
    await t.waitFor((s) => lines(s).some((l) => /^5 Events .*\d\d:\d\d:\d\d [~!*-] /.test(l)), 'the events summary line');
    t.keys('5');
    const zoomed = await t.waitFor((s) => /━▶ 5 Events/.test(s), 'the events pane zoomed');
    expect(zoomed).toMatch(/\d\d:\d\d:\d\d ~ PTP port 0 LOST -> ACQUIRING/);
    // Focused, the events are seen: no "new" left in its title.
    await t.waitFor((s) => /━▶ 5 Events \d+ in log/.test(s), 'events marked seen');
    t.keys('q');
    await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit');
  }, 60_000);

  it('gnss-antenna-open: the header says CRITICAL with the antenna first, a possible cause (already open at start: the order is unknown)', async () => {
    const device = await sim('gnss-antenna-open');
    const t = monitor(device.url, { columns: 100, rows: 30 });
    const screen = await t.waitFor((s) => /! CRITICAL/.test(s) && /antenna open/.test(s), 'the CRITICAL verdict');
    const header = lines(screen);
    expect(header[1]).toMatch(/^! CRITICAL · /);
    expect(header[2]).toMatch(/^! GNSS receiver 0 antenna open -> possibly the cause of/);
    t.keys('2');
    const gnss = await t.waitFor((s) => /━▶ 2 GNSS/.test(s), 'the GNSS pane');
    expect(gnss).toMatch(/antenna\s+! open/);
    // Working since before synctop started: the time in state is a lower bound.
    expect(gnss).toMatch(/status\s+\* working for ≥ \d+s/);
    t.keys('q');
    await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit');
  }, 40_000);
});
