/**
 * The screen as a technician reads it: the real binary in tmux against the simulated device
 * whose NTP sources include an IPv6 address (the seed-sample scenario), at 100x30, 80x24 and
 * 120x40, in color and under NO_COLOR. One session per color setting, resized between checks.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

const IPV6_SOURCE = '[::ffff:10.20.0.12]';
const GM_IDENTITY = '001122.fffe.334455';
/** A y-axis label of the offset chart: a signed number with its unit, then the axis tick. */
const AXIS_LABEL = /[+-]?\d+(\.\d+)?(ns|µs|us|ms|s)┤/;
const SGR_COLOR = /\x1b\[[0-9;]*(3[0-7]|38;|9[0-7])[0-9;]*m/;

let sim: Awaited<ReturnType<typeof startSimProcess>>;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimProcess(['--scenario', 'seed-sample']);
}, 60_000);

afterAll(() => {
  for (const s of sessions) s.kill();
  sim?.stop();
});

/** The body: between the header (up to the first pane title) and the footer, the free last row left out. */
function bodyLines(screen: string): string[] {
  const lines = screen.replace(/\n$/, '').split('\n');
  const start = lines.findIndex((l) => /^(━|─)/.test(l) || /^\d [A-Z]/.test(l));
  const footer = lines.findIndex((l) => /q quit/.test(l));
  return lines.slice(start, footer);
}

/** After a resize the first frame may still be drawn for the old size: wait until a full poll's frame is drawn at the new one. */
async function steady(t: TmuxSession, predicate: (screen: string) => boolean, what: string): Promise<string> {
  const first = await t.waitFor(predicate, what);
  const updated = (s: string) => /updated (\S+)/.exec(s)?.[1];
  return t.waitFor((s) => predicate(s) && updated(s) !== updated(first), `${what}, after the next poll`);
}

describe.each([
  { name: 'color', env: {} as Record<string, string> },
  { name: 'NO_COLOR=1', env: { NO_COLOR: '1' } },
])('the screen in tmux ($name)', ({ env }) => {
  it('IPv6 source whole at 100x30, GM identity whole at 80x24, chart axis labels in zoom, no empty row beside a cut at 120x40', async () => {
    const t = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(sim.url)} --interval 1`, { columns: 100, rows: 30 }, env);
    sessions.push(t);
    // No client is attached: without a manual window size tmux keeps the window from growing.
    t.tmux(['set-option', '-t', t.name, 'window-size', 'manual']);

    const at100 = await t.waitFor((s) => s.includes('GPS') && /STABLE/.test(s), 'NTP sources at 100x30');
    expect(at100).toContain(IPV6_SOURCE);

    t.resize(80, 24);
    t.keys('3');
    const at80 = await steady(t, (s) => /3 PTP/.test(s) && s.includes('GM identity'), 'the PTP pane focused at 80x24');
    expect(at80.split('\n').filter((l) => l.includes(GM_IDENTITY)).length).toBeGreaterThanOrEqual(1);
    expect(bodyLines(at80).filter((l) => l.trim() === '')).toEqual([]);
    // The detail grid pairs short fields instead of cutting long ones beside empty lines.
    const ptpPane = bodyLines(at80).slice(1, bodyLines(at80).findIndex((l) => /^1 NTP/.test(l)));
    expect(ptpPane.filter((l) => l.includes('…'))).toEqual([]);

    t.keys('z');
    const zoomed = await t.waitFor((s) => AXIS_LABEL.test(s) && /offset from master, port 0/.test(s), 'the PTP chart with axis labels');
    expect(zoomed.split('\n').filter((l) => AXIS_LABEL.test(l)).length).toBeGreaterThanOrEqual(2);
    t.keys('z');

    t.resize(120, 40);
    const at120 = await steady(t, (s) => /^── 2 GNSS/m.test(s) && /── 4 Alarm/.test(s) && s.split('\n').some((l) => l.length > 100), 'every pane at 120x40');
    const body = bodyLines(at120);
    if (body.some((l) => l.includes('…'))) expect(body.filter((l) => l.trim() === '')).toEqual([]);
    expect(at120).toContain(IPV6_SOURCE);
    expect(at120).toContain(GM_IDENTITY);

    if (env.NO_COLOR) expect(t.capture(true)).not.toMatch(SGR_COLOR);
    else expect(t.capture(true)).toMatch(SGR_COLOR);
    t.keys('q');
    await t.waitFor((s) => s.includes('[exit 0]'), 'a clean exit');
  }, 40_000);
});
