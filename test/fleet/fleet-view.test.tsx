/**
 * The fleet view over real HTTP against five simulated devices (healthy, PTP acquiring, GNSS
 * antenna open, stalled, another grandmaster): rows, sort order, the summary line, the GM
 * disagreement, Enter into the full monitor and Esc / Backspace back with the selection kept.
 */
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFleet } from '../../src/fleet/command.js';
import { resolveFleetTargets } from '../../src/fleet/targets.js';
import type { Fleet } from '../../src/monitor/fleet.js';
import { FleetApp } from '../../src/ui/fleet/FleetApp.js';
import { startSite, type Site } from './site.js';

let site: Site;
let fleet: Fleet;
let app: ReturnType<typeof render>;
const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

const frame = () => app.lastFrame() ?? '';
const tick = () => new Promise<void>((r) => setTimeout(r, 20));

async function waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate(frame())) return frame();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${frame()}`);
}

/** The device names of the table rows, top to bottom, and the selected one. */
function rowsOf(screen: string): { order: string[]; selected: string | undefined } {
  const order: string[] = [];
  let selected: string | undefined;
  for (const line of screen.split('\n')) {
    const m = /^(▶| ) (\w+)\s/.exec(line);
    if (!m || !names.includes(m[2]!)) continue;
    order.push(m[2]!);
    if (m[1] === '▶') selected = m[2];
  }
  return { order, selected };
}

async function press(key: string): Promise<void> {
  app.stdin.write(key);
  for (let i = 0; i < 5; i++) await tick();
}

beforeAll(async () => {
  site = await startSite();
  const targets = resolveFleetTargets([], true, { config: site.configPath, interval: 0.5 }, {}, { oneShot: false, warn: () => undefined });
  fleet = openFleet(targets, false);
  fleet.start();
  const devices = fleet.devices.map((d, i) => ({ name: targets[i]!.name, controller: d.poller }));
  app = render(<FleetApp devices={devices} color={false} ascii={false} size={{ columns: 120, rows: 40 }} onQuit={() => undefined} coalesce={false} />);
}, 30_000);

afterAll(async () => {
  app?.unmount();
  fleet?.stop();
  await site?.close();
});

describe('the fleet view against five simulated devices', () => {
  it('shows one row per device, worst first, with the summary and the GM disagreement', async () => {
    // The simulated offsets wander: a healthy device may cross a threshold for a poll, so wait
    // for the settled picture rather than take the first complete one.
    const screen = await waitFor((s) => /2 OK .*1 not answering/.test(s) && !/waiting/.test(s), 'every device polled and the stalled one down');
    const { order } = rowsOf(screen);
    expect([...order].sort()).toEqual(names);
    // Not answering first; the unhealthy ones next; the healthy ones last, in the config order.
    expect(order[0]).toBe('delta');
    expect(order.slice(-2)).toEqual(['alpha', 'echo']);
    expect(order.slice(1, 3).sort()).toEqual(['bravo', 'charlie']);
    const lines = screen.split('\n');
    expect(lines[1]).toMatch(/^5 devices · 2 OK · .*1 not answering · ! 2 different grandmasters/);
    expect(screen).toMatch(/! GM disagreement: 001122\.fffe\.334455 on 3; 00a0b0\.fffe\.c0d0e0 on echo/);
    const row = (name: string) => lines.find((l) => l.startsWith(`  ${name} `) || l.startsWith(`▶ ${name} `)) ?? '';
    expect(row('delta')).toMatch(/! DOWN\s+no answer since \d\d:\d\d:\d\d/);
    expect(row('charlie')).toMatch(/CRIT|WARN/);
    expect(row('charlie')).toMatch(/antenna/i);
    expect(row('bravo')).toMatch(/CRIT|WARN/);
    expect(row('alpha')).toMatch(/\* OK .* 2\/2 STABLE .* GPS [+-]\d/);
    expect(row('echo')).toMatch(/00a0b0\.fffe\.c0d0e0/);
  });

  it('sorts by name with o, and back by severity', async () => {
    await press('o');
    let screen = await waitFor((s) => /sorted by name/.test(s), 'the name order');
    expect(rowsOf(screen).order).toEqual(names);
    await press('o');
    screen = await waitFor((s) => /sorted by severity/.test(s), 'the severity order');
    expect(rowsOf(screen).order[0]).toBe('delta');
    await press('o');
    await waitFor((s) => /sorted by name/.test(s), 'the name order again');
  });

  it('opens the selected device with Enter and comes back with Esc or Backspace, selection kept', async () => {
    await press('j');
    await press('j');
    expect(rowsOf(frame()).selected).toBe('charlie');
    await press('\r');
    let screen = await waitFor((s) => /@charlie/.test(s) && /NTP/.test(s), 'the full monitor of charlie');
    expect(screen).not.toMatch(/synctop fleet/);
    await press('\x1b');
    screen = await waitFor((s) => /synctop fleet/.test(s), 'the fleet view again');
    expect(rowsOf(screen).selected).toBe('charlie');
    await press('k');
    await press('\r');
    await waitFor((s) => /@bravo/.test(s), 'the full monitor of bravo');
    // Esc closes the help first; only then does it go back.
    await press('?');
    await waitFor((s) => /quit/.test(s) && !/synctop fleet/.test(s), 'the help');
    await press('\x1b');
    await press('\x7f');
    screen = await waitFor((s) => /synctop fleet/.test(s), 'back after Backspace');
    expect(rowsOf(screen).selected).toBe('bravo');
  });

  it('shows the merged timeline on 5 and the rows again on 1', async () => {
    await press('5');
    await waitFor((s) => /Events of every device|no events yet from any device/.test(s), 'the timeline');
    await press('1');
    await waitFor((s) => rowsOf(s).order.length === 5, 'the rows');
  });

  it('acts on every key of a chunk: j and Enter together open the next device', async () => {
    const before = rowsOf(frame());
    const next = before.order[before.order.indexOf(before.selected ?? before.order[0]!) + 1]!;
    await press('j\r');
    const screen = await waitFor((s) => new RegExp(`@${next}`).test(s) && /NTP/.test(s), `the full monitor of ${next}`);
    expect(screen).not.toMatch(/synctop fleet/);
    await press('\x1b');
    await waitFor((s) => rowsOf(s).selected === next, 'the fleet view with the next device selected');
    // Two moves in one chunk move twice.
    await press('kk');
    await waitFor((s) => rowsOf(s).selected === before.order[before.order.indexOf(next) - 2], 'two rows up');
  });
});
