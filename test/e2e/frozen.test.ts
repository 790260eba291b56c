/**
 * The real binary against a device whose PTP daemon hangs (issue 15 item 1): the simulator's
 * frozen-ptp scenario serves its last PTP answer from 8 s to 24 s after it starts. The header
 * must warn within a few intervals of --frozen-after and clear once the data moves again, and
 * the events pane must say both.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

let sim: Awaited<ReturnType<typeof startSimProcess>>;
let session: TmuxSession | undefined;

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimProcess(['--scenario', 'frozen-ptp']);
}, 60_000);

afterAll(() => {
  session?.kill();
  sim?.stop();
});

describe('frozen PTP data in tmux', () => {
  it('warns in the header while the PTP data stands still, then records the recovery', async () => {
    session = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 1 --frozen-after 3s`, { columns: 120, rows: 40 });
    const t = session;
    await t.waitFor((s) => /PTP 2\/2 STABLE/.test(s) && !/frozen/.test(s), 'live data, not frozen yet');
    // Frozen from 8 s: 3 s and 3 polls later the warning, allowing for a loaded machine.
    const frozen = await t.waitFor((s) => /~ PTP port \d data frozen: lastUpdate stuck at \d\d:\d\d:\d\d UTC for \d+s/.test(s), 'frozen warning in the header', 20_000);
    const lines = frozen.split('\n');
    expect(lines[1]).toMatch(/^~ WARNING/);
    // The statistics count servo samples (lastUpdate moving), as ptp4l does: two more polls of the
    // frozen port add none, so they never drift to "sd 0ns" (issue 17 item 12).
    const stats = (screen: string) => /offset stats +(rms .*?\((\d+)\))/.exec(screen);
    const frozenFor = (screen: string) => Number(/data frozen: lastUpdate stuck at \S+ UTC for (\d+)s/.exec(screen)?.[1] ?? Number.NaN);
    const first = stats(frozen);
    expect(first).not.toBeNull();
    const later = await t.waitFor((s) => frozenFor(s) >= frozenFor(frozen) + 2, 'two more polls of the frozen port', 10_000);
    expect(stats(later)?.[1]).toBe(first![1]);
    expect(first![1]).not.toMatch(/sd 0ns/);
    // Recovers at 24 s: the warning leaves the header, the events say so (cut to the pane's width).
    const after = await t.waitFor((s) => /PTP port \d data moving again after \d+s/.test(s) && /^\* OK/.test(s.split('\n')[1] ?? ''), 'recovery: the event, and OK in the header', 25_000);
    expect(after.split('\n').slice(0, 3).join('\n')).not.toMatch(/frozen/);
    await t.waitFor((s) => Number(stats(s)?.[2]) > Number(first![2]), 'new samples once the data moves', 10_000);
    for (const line of after.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
    t.keys('q');
  }, 70_000);
});
