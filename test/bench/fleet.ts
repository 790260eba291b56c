/**
 * The fleet view's figures: 50 simulated devices at --interval 2 in a 120x40 terminal.
 *
 * The 50 simulators run in a child process of their own, so neither figure includes their work.
 *
 * - the real binary in a pseudo-terminal: CPU % of one core, RSS, bytes/s to the terminal over
 *   a steady window;
 * - in this process, through the same runLiveMonitor path: Ink's render time per frame
 *   (p50/p99), and row lag: for every device answer, the time until the first frame rendered
 *   after it (each frame reads every device's latest state), which must stay under one interval.
 */
import { FakeIn, FakeOut } from '../ui/fake-terminal.js';
import { exited } from './exporter.js';
import { simFleet } from './probe.js';
import { spawnPty, processSample } from './pty.js';

export interface FleetBenchRow {
  figure: string;
  value: string;
  floor?: string;
  goal?: string;
  met?: boolean;
}

const DEVICES = 50;
const INTERVAL_S = 2;
const WINDOW_S = 25;
const RENDER_WINDOW_S = 16;
const WARMUP_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

/** A 120x40 terminal that keeps nothing of what is written (Ink's frames are not needed here). */
function terminal(columns: number, rows: number): NodeJS.WriteStream {
  const out = Object.assign(new FakeOut(), { columns, rows, write: () => true });
  return out as unknown as NodeJS.WriteStream;
}

export async function benchFleet(bin: string, progress: (m: string) => void): Promise<FleetBenchRow[]> {
  const sim = await simFleet(DEVICES);
  const sims = sim.urls.map((url) => ({ url }));
  const rows: FleetBenchRow[] = [];
  try {
    progress(`fleet: the binary with ${DEVICES} devices at --interval ${INTERVAL_S}, 120x40, ${WINDOW_S} s window`);
    const pty = spawnPty(`node ${bin} ${sims.map((s) => s.url).join(' ')} --interval ${INTERVAL_S}`, { columns: 120, rows: 40 });
    try {
      await pty.waitFor(`${DEVICES} devices`, 20_000);
      await sleep(WARMUP_MS + INTERVAL_S * 1000);
      const pid = pty.programPid();
      const s0 = processSample(pid);
      const b0 = pty.bytes();
      const t0 = performance.now();
      await sleep(WINDOW_S * 1000);
      const dt = (performance.now() - t0) / 1000;
      const s1 = processSample(pid);
      const cpu = ((s1.cpuSeconds - s0.cpuSeconds) / dt) * 100;
      const bps = (pty.bytes() - b0) / dt;
      rows.push({ figure: `fleet view: CPU, ${DEVICES} devices, 2 s, 120x40 (${WINDOW_S} s)`, value: `${fmt(cpu, 2)}%`, goal: '< 5% of a core', met: cpu < 5 });
      rows.push({ figure: 'fleet view: RSS', value: `${fmt(s1.rssMb, 1)} MB`, floor: `peak ${fmt(s1.hwmMb, 1)} MB` });
      rows.push({ figure: 'fleet view: bytes/s to the terminal', value: `${fmt(bps)} B/s`, goal: '< 2 KB/s', met: bps < 2048 });
    } finally {
      await pty.stop();
    }

    progress(`fleet: render time and row lag in process, ${RENDER_WINDOW_S} s`);
    const { openFleet } = await import('../../src/fleet/command.js');
    const { resolveFleetTargets } = await import('../../src/fleet/targets.js');
    const { runLiveMonitor } = await import('../../src/ui/run.js');
    const { fleetElement } = await import('../../src/ui/fleet/FleetApp.js');
    const targets = resolveFleetTargets(sims.map((s) => s.url), false, { interval: INTERVAL_S }, {}, { oneShot: false, warn: () => undefined });
    const fleet = openFleet(targets, false);
    // The oldest answer of each device not yet on screen; a frame puts every one of them there.
    const unseen = new Map<number, number>();
    fleet.devices.forEach((d, i) => d.poller.store.onResult(() => void (unseen.has(i) || unseen.set(i, performance.now()))));
    const times: number[] = [];
    const lags: number[] = [];
    let measuring = false;
    const devices = fleet.devices.map((d, i) => ({ name: targets[i]!.name, controller: d.poller }));
    const p0 = fleet.devices[0]!.poller;
    fleet.start();
    const done = runLiveMonitor(
      { getState: p0.getState, subscribe: p0.subscribe, pollNow: p0.pollNow, setPaused: p0.setPaused },
      {
        color: true,
        ascii: false,
        stdout: terminal(120, 40),
        stdin: new FakeIn() as unknown as NodeJS.ReadStream,
        stderr: terminal(80, 24),
        onRender: ({ renderTime }) => {
          const now = performance.now();
          if (measuring) {
            times.push(renderTime);
            for (const at of unseen.values()) lags.push(now - at);
          }
          unseen.clear();
        },
        view: ({ quit }) => fleetElement({ devices, color: true, ascii: false, onQuit: quit }),
      },
    );
    await sleep(WARMUP_MS + INTERVAL_S * 1000);
    measuring = true;
    await sleep(RENDER_WINDOW_S * 1000);
    measuring = false;
    process.emit('SIGTERM', 'SIGTERM');
    await done;
    process.exitCode = 0;
    fleet.stop();
    rows.push({ figure: `fleet view: render time/frame (${times.length} frames)`, value: `p50 ${fmt(quantile(times, 0.5), 2)} ms`, floor: `p99 ${fmt(quantile(times, 0.99), 2)} ms` });
    const worst = Math.max(...lags);
    rows.push({
      figure: `fleet view: row lag behind answers (${lags.length} answers)`,
      value: `p50 ${fmt(quantile(lags, 0.5))} ms`,
      floor: `p99 ${fmt(quantile(lags, 0.99))} ms, max ${fmt(worst)} ms`,
      goal: `max < ${INTERVAL_S * 1000} ms (one interval)`,
      met: worst < INTERVAL_S * 1000,
    });
  } finally {
    sim.child.send('close');
    await exited(sim.child);
  }
  return rows;
}
