/**
 * The fleet view's figures: 50 simulated devices at --interval 2 in a 120x40 terminal.
 *
 * The 50 simulators run in a child process of their own, so neither figure includes their work.
 *
 * - the real binary in a pseudo-terminal: CPU % of one core, RSS, bytes/s to the terminal over
 *   a steady window; beside it, started with it and measured over the same window, the HTTP
 *   floor (http-floor.ts: the same requests to the same devices on the same schedule, by a bare
 *   undici client with no synctop code): its CPU, and the fleet view's as a ratio of it. Three
 *   repeats, one after the other, each with fresh processes: median (min-max);
 * - in this process, through the same runLiveMonitor path: Ink's render time per frame
 *   (p50/p99), and row lag: for every device answer, the time until the first frame rendered
 *   after it (each frame reads every device's latest state), which must stay under one interval.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { FakeIn, FakeOut } from '../ui/fake-terminal.js';
import { exited, request } from './exporter.js';
import type { FloorCount, FloorPlan } from './http-floor.js';
import { simFleet } from './probe.js';
import { spawnPty, processSample } from './pty.js';
import { requestCycle } from './request-cycle.js';

export interface FleetBenchRow {
  figure: string;
  value: string;
  floor?: string;
  ratio?: string;
  goal?: string;
  met?: boolean;
}

const DEVICES = 50;
const INTERVAL_S = 2;
const WINDOW_S = 25;
const REPEATS = 3;
const RENDER_WINDOW_S = 16;
const WARMUP_MS = 3000;
/** The fleet view's CPU may be at most this many times the HTTP floor's. */
const FLOOR_RATIO_GOAL = 1.5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** "17.92% (17.10-18.50)": the median of the repeats and their range. */
const spread = (xs: number[], digits: number, unit: string) => `${fmt(median(xs), digits)}${unit} (${fmt(Math.min(...xs), digits)}-${fmt(Math.max(...xs), digits)})`;

/** A 120x40 terminal that keeps nothing of what is written (Ink's frames are not needed here). */
function terminal(columns: number, rows: number): NodeJS.WriteStream {
  const out = Object.assign(new FakeOut(), { columns, rows, write: () => true });
  return out as unknown as NodeJS.WriteStream;
}

function startFloor(script: string, plan: FloorPlan): ChildProcess {
  const child = fork(script, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  child.send(plan);
  return child;
}

interface PairSample {
  cpu: number;
  floorCpu: number;
  rssMb: number;
  hwmMb: number;
  floorRssMb: number;
  bytesPerSecond: number;
  /** Requests per second the fleet view and the floor made in the window. */
  requestsPerSecond: number;
  floorRequestsPerSecond: number;
  floorFailed: number;
}

/** The binary and the floor, started together against the same devices, measured over the same window. */
async function measurePair(bin: string, floorScript: string, sim: { child: ChildProcess; urls: string[] }): Promise<PairSample> {
  const pty = spawnPty(`node ${bin} ${sim.urls.join(' ')} --interval ${INTERVAL_S}`, { columns: 120, rows: 40 });
  const floor = startFloor(floorScript, { urls: sim.urls, requests: requestCycle('healthy'), intervalMs: INTERVAL_S * 1000 });
  try {
    await pty.waitFor(`${DEVICES} devices`, 20_000);
    await sleep(WARMUP_MS + INTERVAL_S * 1000);
    const pid = pty.programPid();
    const counts = () => Promise.all([request<FloorCount>(floor, 'count', 'count'), request<number>(sim.child, 'requests', 'requests')]);
    const [s0, f0, [n0, r0]] = [processSample(pid), processSample(floor.pid!), await counts()];
    const b0 = pty.bytes();
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const dt = (performance.now() - t0) / 1000;
    const [s1, f1, [n1, r1]] = [processSample(pid), processSample(floor.pid!), await counts()];
    const floorRequests = n1.requests - n0.requests;
    return {
      cpu: ((s1.cpuSeconds - s0.cpuSeconds) / dt) * 100,
      floorCpu: ((f1.cpuSeconds - f0.cpuSeconds) / dt) * 100,
      rssMb: s1.rssMb,
      hwmMb: s1.hwmMb,
      floorRssMb: f1.rssMb,
      bytesPerSecond: (pty.bytes() - b0) / dt,
      // The devices count every request they serve: the fleet view's are the rest.
      requestsPerSecond: (r1 - r0 - floorRequests) / dt,
      floorRequestsPerSecond: floorRequests / dt,
      floorFailed: n1.failed - n0.failed,
    };
  } finally {
    floor.kill('SIGKILL');
    await Promise.all([pty.stop(), exited(floor)]);
  }
}

/** The rows of the binary beside its HTTP floor. */
function pairRows(samples: PairSample[]): FleetBenchRow[] {
  const cpu = samples.map((s) => s.cpu);
  const floorCpu = samples.map((s) => s.floorCpu);
  // Each repeat's binary and floor ran over the same window: the ratio is taken per repeat.
  const ratios = samples.map((s) => s.cpu / s.floorCpu);
  const ratio = median(ratios);
  const of = `${WINDOW_S} s, median (min-max) of ${samples.length}`;
  const failed = samples.reduce((n, s) => n + s.floorFailed, 0);
  const bps = median(samples.map((s) => s.bytesPerSecond));
  return [
    {
      figure: `fleet view: CPU, ${DEVICES} devices, 2 s, 120x40 (${of})`,
      value: spread(cpu, 2, '%'),
      floor: `HTTP floor ${fmt(median(floorCpu), 2)}%`,
      ratio: `${fmt(ratio, 2)}x`,
      goal: '< 5% of a core',
      met: median(cpu) < 5,
    },
    {
      figure: `  HTTP floor: bare undici, the same requests (${of})`,
      value: spread(floorCpu, 2, '%'),
      floor: `${fmt(median(samples.map((s) => s.floorRequestsPerSecond)), 1)} req/s, fleet view ${fmt(median(samples.map((s) => s.requestsPerSecond)), 1)} req/s${failed > 0 ? `, ${failed} failed` : ''}`,
    },
    {
      figure: `fleet view CPU vs the HTTP floor (${samples.length} repeats)`,
      value: spread(ratios, 2, 'x'),
      ratio: `${fmt(ratio, 2)}x`,
      goal: `<= ${FLOOR_RATIO_GOAL}x the floor`,
      met: ratio <= FLOOR_RATIO_GOAL,
    },
    { figure: 'fleet view: RSS', value: `${fmt(median(samples.map((s) => s.rssMb)), 1)} MB`, floor: `peak ${fmt(median(samples.map((s) => s.hwmMb)), 1)} MB, floor ${fmt(median(samples.map((s) => s.floorRssMb)), 1)} MB` },
    { figure: 'fleet view: bytes/s to the terminal', value: `${fmt(bps)} B/s`, goal: '< 2 KB/s', met: bps < 2048 },
  ];
}

/** `floorScript`: the built http-floor.ts. */
export async function benchFleet(bin: string, floorScript: string, progress: (m: string) => void): Promise<FleetBenchRow[]> {
  const sim = await simFleet(DEVICES);
  const sims = sim.urls.map((url) => ({ url }));
  const rows: FleetBenchRow[] = [];
  try {
    const samples: PairSample[] = [];
    for (let i = 0; i < REPEATS; i++) {
      progress(`fleet: the binary and its HTTP floor with ${DEVICES} devices at --interval ${INTERVAL_S}, 120x40, ${WINDOW_S} s window (${i + 1} of ${REPEATS})`);
      samples.push(await measurePair(bin, floorScript, sim));
    }
    rows.push(...pairRows(samples));

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
