/**
 * A device serving frozen data (issue 15 item 1), as the screen shows it: the simulator's
 * frozen-ptp and frozen-gnss answers, polled once a second through the store, rendered by the App.
 * The header carries the warning once the data has stood still for --frozen-after; the events
 * pane records when it froze and when it moved again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { MonitorStore } from '../../src/monitor/store.js';
import type { ScenarioName } from '../../src/sim/scenarios.js';
import { clockTime } from '../../src/view/time.js';
import { SIM_WALL, simSnapshot } from '../monitor/sim-snapshots.js';
import { renderApp } from './harness.js';

afterEach(() => cleanup());

/** The store after polling the scenario once a second for `seconds`, and the time of the last poll. */
function polled(name: ScenarioName, seconds: number) {
  const store = new MonitorStore('http://127.0.0.1:8080', 1000);
  for (let t = 0; t <= seconds; t++) store.applySnapshot(simSnapshot(name, t), SIM_WALL + t * 1000);
  return { state: store.getState(), at: SIM_WALL + seconds * 1000 };
}

describe('frozen data on screen', () => {
  it.each<[ScenarioName, string, string]>([
    ['frozen-ptp', 'PTP port 0 data frozen: lastUpdate stuck at 14:00:08 UTC for 12s', 'PTP port 0 data moving again after 16s unchanged'],
    ['frozen-gnss', 'GNSS receiver 0 time frozen at 14:00:08 UTC for 12s', 'GNSS receiver 0 data moving again after 16s unchanged'],
  ])('%s: the header warns while frozen, the events say when it froze and when it recovered', async (name, header, recovered) => {
    const frozen = polled(name, 20);
    const app = await renderApp(frozen.state, { columns: 160, rows: 50, now: () => frozen.at });
    // The verdict line, then the first finding: the frozen data explains why the time is old.
    expect(app.lines()[1]).toMatch(/^~ WARNING · /);
    expect(app.lines()[2]).toMatch(new RegExp(`^~ ${header.replace(/[.()]/g, '\\$&')}( \\(\\+\\d more(: f)?\\))?$`));
    const froze = app.lines().find((l) => l.includes(`${clockTime(SIM_WALL + 18_000)} ~ ${header.replace(/for 12s$/, 'for 10s')}`));
    expect(froze).toBeDefined();
    app.unmount();

    const after = polled(name, 26);
    const again = await renderApp(after.state, { columns: 160, rows: 50, now: () => after.at });
    expect(again.lines().slice(0, 3).join('\n')).not.toMatch(/frozen/);
    expect(again.lines().some((l) => l.includes(`${clockTime(SIM_WALL + 24_000)} * ${recovered}`))).toBe(true);
    again.unmount();
  });
});
