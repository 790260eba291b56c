/**
 * The header tells the truth, in the real binary in tmux (80x24, color): an open antenna is
 * red, REC while recording; the device stopped gives the red banner and NO ANSWER; restarted
 * on the same port, `r` clears the banner at once, long before the next retry.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, startSimProcess, TmuxSession } from './tmux.js';

type Sim = Awaited<ReturnType<typeof startSimProcess>>;
const sims: Sim[] = [];
let session: TmuxSession | undefined;

beforeAll(() => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}, 60_000);

afterAll(() => {
  session?.kill();
  for (const s of sims) s.stop();
});

async function sim(args: string[], port = 0): Promise<Sim> {
  const s = await startSimProcess(args, port);
  sims.push(s);
  return s;
}

const rows = (screen: string) => screen.split('\n');
/** tmux re-encodes what was drawn: red is SGR 31, possibly combined with bold (1;31). */
const red = (text: string) => new RegExp(`\\x1b\\[(?:[0-9;]*;)?31m[^\\x1b]*${text}`);

describe('the verdict in the header, in tmux', () => {
  it('red for CRITICAL, REC, the outage banner, and r clears it when the device is back', async () => {
    const first = await sim(['--scenario', 'gnss-antenna-open']);
    const port = Number(new URL(first.url).port);
    const record = join(mkdtempSync(join(tmpdir(), 'synctop-verdict-')), 'session.jsonl');
    const t = new TmuxSession(`node ${shellQuote(bin)} ${shellQuote(first.url)} --interval 1 --record ${shellQuote(record)}`, { columns: 80, rows: 24 });
    session = t;

    await t.waitFor((s) => /CRITICAL/.test(s) && /antenna open/.test(s), 'the CRITICAL verdict');
    let raw = rows(t.capture(true));
    expect(raw[1]).toMatch(red('! CRITICAL'));
    expect(raw[1]).toMatch(red('GNSS 1 working'));
    expect(raw[0]).toMatch(red('● LIVE'));
    expect(rows(t.capture())[0]).toContain('● REC');

    first.stop();
    await t.waitFor((s) => /no answer since/.test(s), 'the outage banner');
    raw = rows(t.capture(true));
    expect(raw[0]).toMatch(red('! NO ANSWER'));
    expect(rows(t.capture())[1]).toMatch(/NTP stale \d+s · GNSS stale \d+s · PTP stale \d+s/);
    // The verdict stays CRITICAL: the antenna finding is kept while the device cannot be read.
    expect(rows(t.capture())[1]).toMatch(/^! CRITICAL/);
    // f lists it: critical, GNSS, already so at start (≥), resting on data that cannot be read now.
    t.keys('f');
    const list = await t.waitFor((s) => /findings\s+\(Esc or f closes\)/.test(s) && /antenna open/.test(s), 'the findings list');
    expect(list).toMatch(/CRITICAL\s+GNSS\s+≥ \d+s\s+GNSS receiver 0 antenna open/);
    expect(list).toMatch(/stale/);
    t.keys('f');
    await t.waitFor((s) => !/Esc or f closes/.test(s), 'the list closed');

    // Wait until the next retry is seconds away, then bring the device back on the same port.
    const waiting = await t.waitFor((s) => /retrying in (\d+)s/.test(s) && Number(/retrying in (\d+)s/.exec(s)![1]) >= 4, 'a retry 4s or more away', 20_000);
    const retryIn = Number(/retrying in (\d+)s/.exec(waiting)![1]) * 1000;
    await sim(['--scenario', 'healthy'], port);
    const pressed = Date.now();
    t.keys('r');
    const back = await t.waitFor((s) => !/no answer/.test(s) && /● LIVE/.test(s), 'the banner gone after r', 3000);
    expect(Date.now() - pressed).toBeLessThan(retryIn);
    expect(rows(back)[0]).not.toContain('NO ANSWER');
    // The device came back healthy: the verdict is OK again and green.
    await t.waitFor((s) => /^\* OK/m.test(s), 'OK again');
    expect(rows(t.capture(true))[0]).toMatch(/\x1b\[(?:[0-9;]*;)?32m[^\x1b]*● LIVE/);

    t.keys('q');
    await t.waitFor((s) => /\[exit 0\]/.test(s), 'exit');
  }, 60_000);
});
