/**
 * Idle cost beside its anchors, side by side in one run: synctop polling a simulated device at
 * `--interval 1`, a bare Ink 6 app re-rendering 28 coloured rows once a second (ink-rows.tsx),
 * the same app making synctop's requests to its own simulated device (the scenario's floor: it
 * renders and asks, with no synctop code), and procps `top -d 1` where present, each in its own
 * 100x30 pseudo-terminal. The repeats run
 * at the same time (each synctop against its own simulator), so every process sees the same
 * machine: on a shared, noisy host only ratios measured together mean anything.
 *
 * CPU is % of one core over a window after warm-up, of the whole process and of its main thread
 * (the rest is V8's helper threads: the optimizing compiler and the GC); with a late window, the
 * same again over the minute before the last RSS reading. RSS is read at fixed ages of the
 * processes (1 minute; and 5 minutes when asked, which makes the part five minutes long).
 */
import { execFileSync } from 'node:child_process';
import { processSample, spawnPty, type PtyProcess } from './pty.js';

export interface IdleOptions {
  /** node + path of dist/synctop.js (and any extra node flags). */
  synctop: string;
  /** node + path of the built ink-rows app. */
  inkRows: string;
  /** The requests of one polling cycle, for the ink-rows app that also polls. */
  pollRequests: { path: string; body: string }[];
  /** Marker on synctop's screen once the device's data is shown. */
  marker: string;
  startSimulator: () => Promise<{ url: string; close(): Promise<void> }>;
  repeats: number;
  warmupMs: number;
  cpuWindowMs: number;
  /** Ages (ms since spawn) at which RSS is read, ascending. */
  rssAtMs: number[];
  /** Also measure CPU over this many ms ending at the last RSS reading. */
  lateWindowMs?: number;
  progress?: (message: string) => void;
}

export interface CpuShare {
  /** % of one core, the whole process. */
  cpuPercent: number;
  /** % of one core, its main thread alone. */
  mainPercent: number;
}

export interface IdleSample extends CpuShare {
  /** The late window, when asked for. */
  late?: CpuShare;
  /** MB, one per rssAtMs. */
  rssMb: number[];
}

export type IdleResult = Record<'synctop' | 'ink' | 'inkPoll' | 'top', IdleSample[]>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function topPresent(): boolean {
  try {
    execFileSync('top', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** CPU shares of a process over `ms` from now. */
async function cpuOver(pid: number, ms: number): Promise<CpuShare> {
  const s0 = processSample(pid);
  const t0 = performance.now();
  await sleep(ms);
  const s1 = processSample(pid);
  const seconds = (performance.now() - t0) / 1000;
  return {
    cpuPercent: ((s1.cpuSeconds - s0.cpuSeconds) / seconds) * 100,
    mainPercent: ((s1.mainThreadCpuSeconds - s0.mainThreadCpuSeconds) / seconds) * 100,
  };
}

async function measure(pty: PtyProcess, marker: string, started: number, o: IdleOptions): Promise<IdleSample> {
  await pty.waitFor(marker, 30_000);
  const pid = pty.programPid();
  await sleep(Math.max(0, started + o.warmupMs - performance.now()));
  const early = await cpuOver(pid, o.cpuWindowMs);
  const rssMb: number[] = [];
  let late: CpuShare | undefined;
  const last = o.rssAtMs.length - 1;
  for (const [i, at] of o.rssAtMs.entries()) {
    if (i === last && o.lateWindowMs) {
      await sleep(Math.max(0, started + at - o.lateWindowMs - performance.now()));
      late = await cpuOver(pid, o.lateWindowMs);
    }
    await sleep(Math.max(0, started + at - performance.now()));
    rssMb.push(processSample(pid).rssMb);
  }
  return { ...early, ...(late ? { late } : {}), rssMb };
}

export async function benchIdle(o: IdleOptions): Promise<IdleResult> {
  const withTop = topPresent();
  const result: IdleResult = { synctop: [], ink: [], inkPoll: [], top: [] };
  // Each repeat: one simulated device for synctop, one for the polling floor.
  const sims = await Promise.all(Array.from({ length: 2 * o.repeats }, () => o.startSimulator()));
  const ptys: PtyProcess[] = [];
  const size = { columns: 100, rows: 30 };
  const env = { ...process.env, NODE_ENV: 'production' };
  try {
    const started = performance.now();
    const runs: Promise<void>[] = [];
    for (let i = 0; i < o.repeats; i++) {
      const app = spawnPty(`${o.synctop} ${sims[2 * i]!.url} --interval 1`, size, env);
      const ink = spawnPty(o.inkRows, size, env);
      const plan = { url: sims[2 * i + 1]!.url, requests: o.pollRequests, intervalMs: 1000 };
      const inkPoll = spawnPty(o.inkRows, size, { ...env, INK_ROWS_POLL: JSON.stringify(plan) });
      ptys.push(app, ink, inkPoll);
      runs.push(measure(app, o.marker, started, o).then((s) => void result.synctop.push(s)));
      runs.push(measure(ink, 'row 28', started, o).then((s) => void result.ink.push(s)));
      runs.push(measure(inkPoll, 'row 28', started, o).then((s) => void result.inkPoll.push(s)));
      if (withTop) {
        const top = spawnPty('top -d 1', size, env);
        ptys.push(top);
        runs.push(measure(top, 'load average', started, o).then((s) => void result.top.push(s)));
      }
    }
    o.progress?.(`idle: ${o.repeats} x (synctop, bare Ink rows, bare Ink rows polling${withTop ? ', top' : ''}) at once, RSS read at ${o.rssAtMs.map((ms) => `${ms / 1000} s`).join(' and ')}`);
    await Promise.all(runs);
  } finally {
    await Promise.all(ptys.map((p) => p.stop()));
    await Promise.all(sims.map((s) => s.close()));
  }
  return result;
}
