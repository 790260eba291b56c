/**
 * The real binary's fleet view in a real terminal (tmux), reading the screen: 80x24 keeps
 * name, state, the worst finding and the age; 120x40 adds the NTP source, GNSS and the
 * grandmaster; Enter opens the full monitor, Esc comes back. One session for every check.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, hasBuild, root, shellQuote, TmuxSession } from '../e2e/tmux.js';
import { startSite, type Site } from './site.js';

let site: Site;
let session: TmuxSession | undefined;
let replaySession: TmuxSession | undefined;
const recordPath = join(mkdtempSync(join(tmpdir(), 'synctop-fleet-rec-')), 'site.jsonl');

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  site = await startSite();
}, 60_000);

afterAll(async () => {
  session?.kill();
  replaySession?.kill();
  await site?.close();
});

describe('synctop --all in tmux', () => {
  it('fits 80x24 and 120x40, opens a device and comes back', async () => {
    session = new TmuxSession(`node ${shellQuote(bin)} --all --config ${shellQuote(site.configPath)} --interval 1 --record ${shellQuote(recordPath)}`, { columns: 80, rows: 24 });
    let screen = await session.waitFor((s) => /1 not answering/.test(s) && /GM disagreement/.test(s), 'the fleet at 80x24', 20_000);
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^synctop fleet · every 1s · ● LIVE · sorted by severity/);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    expect(screen).toMatch(/DEVICE\s+STATE\s+WORST FINDING\s+AGE/);
    expect(screen).toMatch(/delta\s+! DOWN\s+no answer since/);
    // The narrow layout leaves out the wide columns rather than cutting every one of them.
    expect(screen).not.toMatch(/GRANDMASTER/);
    expect(screen).toMatch(/Enter open/);

    session.resize(120, 40);
    screen = await session.waitFor((s) => /GRANDMASTER/.test(s), 'the wide columns at 120x40');
    expect(screen).toMatch(/NTP SOURCE\s+GNSS\s+GRANDMASTER/);
    expect(screen).toMatch(/echo .*00a0b0\.fffe\.c0d0e0/);

    session.keys('o');
    screen = await session.waitFor((s) => /sorted by name/.test(s), 'the name order');
    const order = screen.split('\n').map((l) => /^[▶ ] (alpha|bravo|charlie|delta|echo) /.exec(l)?.[1]).filter(Boolean);
    expect(order).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);

    session.keys('j');
    await session.waitFor((s) => /^▶ bravo /m.test(s), 'bravo selected');
    session.keys('Enter');
    screen = await session.waitFor((s) => /@bravo/.test(s) && /PTP/.test(s), 'the full monitor of bravo');
    expect(screen).not.toMatch(/synctop fleet/);
    session.keys('Escape');
    screen = await session.waitFor((s) => /synctop fleet/.test(s), 'the fleet again');
    expect(screen).toMatch(/^▶ bravo /m);

    session.keys('q');
    await session.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
  }, 60_000);

  it('recorded every device in one file, and replay of it opens the fleet view', async () => {
    const lines = readFileSync(recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { devices?: string[]; device?: string });
    expect(lines[0]!.devices).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const recorded = new Set(lines.slice(1).map((l) => l.device));
    for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) expect(recorded.has(name)).toBe(true);
    replaySession = new TmuxSession(`node ${shellQuote(bin)} replay ${shellQuote(recordPath)} --speed 4`, { columns: 120, rows: 40 });
    const screen = await replaySession.waitFor((s) => /synctop fleet/.test(s) && /REPLAY/.test(s) && /GM disagreement/.test(s), 'the fleet view of the recording', 20_000);
    expect(screen).toMatch(/echo .*00a0b0\.fffe\.c0d0e0/);
    replaySession.keys('q');
    await replaySession.waitFor((s) => /\[exit 0\]/.test(s), 'a clean exit');
  }, 60_000);
});
