/**
 * Record a session with the simulated device, replay it into the real App: the replayed screen
 * shows the recorded values, the recorded events with their recorded times, and the replay
 * position; `[` and `]` step through it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { Poller } from '../../src/monitor/poller.js';
import { startRecording } from '../../src/record/recorder.js';
import { loadRecording, ReplayController } from '../../src/record/replay.js';
import { startSimulator } from '../../src/sim/server.js';
import { App } from '../../src/ui/App.js';
import { clockTime } from '../../src/view/time.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-replay-screen-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tick = () => new Promise<void>((r) => setImmediate(r));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('replay on screen', () => {
  it('shows the recorded values and events, and steps with [ and ]', async () => {
    const sim = await startSimulator({ scenario: 'ptp-acquiring', timeScale: 40 });
    cleanups.push(() => sim.close());
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 500 });
    cleanups.push(() => client.destroy());
    const file = join(dir, 'session.jsonl');
    const poller = new Poller(client, { intervalMs: 50, ptpPorts: 'auto', showSecrets: false });
    const recorder = startRecording(poller.store, file, { intervalMs: 50, version: 'test' });
    poller.start();
    await sleep(1500);
    poller.stop();
    await sleep(100);
    await recorder.close();
    const live = poller.getState();
    const lastEvent = live.events.newestFirst()[0]!;

    const replay = new ReplayController(await loadRecording(file), 1);
    replay.setPaused(true);
    replay.start();
    while (!replay.getState().replay!.finished) replay.step(1);
    const app = render(<App controller={replay} color={false} ascii={false} size={{ columns: 120, rows: 40 }} onQuit={() => undefined} />);
    cleanups.push(() => app.unmount());
    await tick();
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain(sim.url);
    expect(frame).toMatch(/REPLAY \d+\/\d+/);
    // The recorded values: the PTP grandmaster and the last offset of port 1 as polled live.
    expect(frame).toContain(live.ptp.data!.ports[0]!.gmIdentity!);
    // The recorded events, at their recorded times.
    expect(frame).toContain(`${clockTime(lastEvent.at)}`);
    expect(frame).toContain(lastEvent.message.slice(0, 30));

    const end = replay.getState().replay!.position;
    app.stdin.write('[');
    await tick();
    expect(replay.getState().replay!.position).toBeLessThan(end);
    app.stdin.write(']');
    await tick();
    expect(replay.getState().replay!.position).toBe(end);
  });
});
