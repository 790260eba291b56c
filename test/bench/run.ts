/**
 * npm run bench: the figures the README quotes, as one table. Every figure is a median of
 * several runs (or one long window, said in the table); where a floor exists it is measured in
 * the same run and the ratio printed beside it.
 *
 *   start-up       process start -> first frame with the device's data, in a pseudo-terminal,
 *                  against a simulator in this process; floors: a bare Ink hello-world (built
 *                  without bundling Ink) and `node -e`
 *   steady state   CPU % of one core, RSS, bytes/s to the terminal, requests and TCP
 *                  connections per minute, of the real binary polling at 1 s and 2 s (both at
 *                  once, each against its own simulator), then paused
 *   bytes/update   in-process, at the writer boundary: Ink's full redraw (what Ink writes) vs
 *                  what the line-diff writer sends, at 100x30 and 200x60
 *   render time    Ink's onRender renderTime for the `many` scenario at 200x60
 *   idle           test/bench/idle.ts: synctop at --interval 1, a bare Ink app re-rendering 28
 *                  coloured rows once a second, the same app also making synctop's requests
 *                  (the floor of polling at 1 s), and `top -d 1`, side by side in 100x30 ptys,
 *                  3 repeats at once: CPU over 45 s after warm-up (whole process, and main
 *                  thread against the rest: V8's compiler and GC threads), RSS at 1 minute (the
 *                  5-minute reading is its own part, `--only idle5`, five minutes long, which
 *                  also measures CPU again over the minute before it)
 *   exporter       test/bench/exporter.ts benchExporter (500 devices, 10 s), when present
 *   fleet          test/bench/fleet.ts: the fleet view, 50 simulated devices at --interval 2 in a
 *                  120x40 pty (CPU, RSS, bytes/s) beside its HTTP floor (http-floor.ts: the same
 *                  requests by a bare undici client, same window), 3 repeats; render time and
 *                  row lag behind answers
 *   probe          test/bench/probe.ts: /probe for 500 devices every 10 s, one exporter process,
 *                  then two behind round-robin (latency as the scraper sees it, CPU, RSS)
 *
 * One part alone: `npm run bench -- --only probe` (or BENCH_ONLY=probe; also bytes, render,
 * startup, steady, idle, idle5).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { FleetBenchRow } from './fleet.js';
import { processSample, spawnPty, type PtyProcess } from './pty.js';

// React must be in production mode before anything imports it (see DESIGN.md).
process.env.NODE_ENV ??= 'production';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist/synctop.js');
const STARTUP_RUNS = 9;
const STEADY_SECONDS = 25;
const PAUSED_SECONDS = 8;
const RENDER_SECONDS = 12;
const WARMUP_MS = 3000;
const MARKER = '10.20.0.11'; // an NTP source of the `healthy` scenario: the device's data is on screen

const { startSimulator } = await import('../../src/sim/server.js');
type Sim = Awaited<ReturnType<typeof startSimulator>>;

/** One row of the printed table (the fleet part builds its own rows of the same shape). */
type Row = FleetBenchRow;
const rows: Row[] = [];
const notes: string[] = [];
const benchStarted = performance.now();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const totalRequests = (sim: Sim) => Object.values(sim.stats.requests).reduce((a, b) => a + b, 0);

function progress(message: string) {
  process.stderr.write(`[bench ${fmt((performance.now() - benchStarted) / 1000, 0).padStart(3)} s] ${message}\n`);
}

// ---------------------------------------------------------------------------------------------
// Start-up
// ---------------------------------------------------------------------------------------------

/** An anchor app of test/bench/ (hello.tsx, ink-rows.tsx, http-floor.ts), built with its packages unbundled. */
async function buildAnchor(name: 'hello' | 'ink-rows' | 'http-floor'): Promise<string> {
  const dir = join(ROOT, 'node_modules/.cache/synctop-bench');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, `test/bench/${name}`)],
    outfile: out,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    logLevel: 'error',
  });
  return out;
}

async function timeToMarker(command: string, marker: string): Promise<number> {
  const pty = spawnPty(command, { columns: 100, rows: 30 }, { ...process.env, NODE_ENV: 'production' });
  try {
    return await pty.waitFor(marker);
  } finally {
    await pty.stop();
  }
}

async function startup(sim: Sim): Promise<void> {
  progress(`start-up: ${STARTUP_RUNS} runs each`);
  const hello = await buildAnchor('hello');
  const cases = [
    { name: 'synctop', cmd: `node ${BIN} ${sim.url}`, marker: MARKER },
    { name: 'hello', cmd: `node ${hello}`, marker: 'hello from a bare Ink app' },
    { name: 'node', cmd: `node -e "process.stdout.write('ready')"`, marker: 'ready' },
  ];
  const times: Record<string, number[]> = { synctop: [], hello: [], node: [] };
  // Interleaved, after one unmeasured round that warms the file cache.
  for (let run = 0; run <= STARTUP_RUNS; run++) {
    for (const c of cases) {
      const ms = await timeToMarker(c.cmd, c.marker);
      if (run > 0) times[c.name]!.push(ms);
    }
  }
  const app = median(times.synctop!);
  const ink = median(times.hello!);
  const node = median(times.node!);
  rows.push({
    figure: 'start-up: first frame with device data (pty, 100x30)',
    value: `${fmt(app)} ms`,
    floor: `Ink hello ${fmt(ink)} ms`,
    ratio: `${fmt(app / ink, 2)}x`,
    goal: '<= Ink hello-world',
    met: app <= ink,
  });
  rows.push({ figure: '  floor: bare Ink hello-world (unbundled Ink)', value: `${fmt(ink)} ms`, floor: `node -e ${fmt(node)} ms`, ratio: `${fmt(ink / node, 2)}x` });
  rows.push({ figure: '  floor: node -e "" (process start)', value: `${fmt(node)} ms` });
  rows.push({ figure: '  synctop above process start', value: `${fmt(app - node)} ms`, floor: `Ink: ${fmt(ink - node)} ms` });
}

// ---------------------------------------------------------------------------------------------
// Steady state of the real binary
// ---------------------------------------------------------------------------------------------

interface SteadyResult {
  interval: number;
  cpu: number;
  rss: number;
  hwm: number;
  bytesPerSecond: number;
  requestsPerMinute: number;
  connectionsPerMinute: number;
  paused?: { cpu: number; bytesPerSecond: number; requestsPerMinute: number };
}

/** The floor beside the steady figures: a bare Ink app left running (CPU and RSS while idle). */
async function idleInkFloor(): Promise<{ cpu: number; rss: number; hwm: number }> {
  const hello = await buildAnchor('hello');
  const pty = spawnPty(`node ${hello}`, { columns: 100, rows: 30 }, { ...process.env, NODE_ENV: 'production' });
  try {
    await pty.waitFor('hello from a bare Ink app');
    await sleep(WARMUP_MS);
    const pid = pty.programPid();
    const s0 = processSample(pid);
    const t0 = performance.now();
    await sleep(STEADY_SECONDS * 1000);
    const s1 = processSample(pid);
    return { cpu: ((s1.cpuSeconds - s0.cpuSeconds) / ((performance.now() - t0) / 1000)) * 100, rss: s1.rssMb, hwm: s1.hwmMb };
  } finally {
    await pty.stop();
  }
}
let inkFloor: { cpu: number; rss: number; hwm: number } | undefined;

async function steady(intervalSeconds: number, pauseAfter: boolean): Promise<SteadyResult> {
  const sim = await startSimulator({ scenario: 'healthy' });
  const pty: PtyProcess = spawnPty(`node ${BIN} ${sim.url} --interval ${intervalSeconds}`, { columns: 100, rows: 30 });
  try {
    await pty.waitFor(MARKER);
    await sleep(WARMUP_MS);
    const pid = pty.programPid();
    const window = async (seconds: number) => {
      const s0 = processSample(pid);
      const b0 = pty.bytes();
      const r0 = totalRequests(sim);
      const c0 = sim.stats.connections;
      const t0 = performance.now();
      await sleep(seconds * 1000);
      const dt = (performance.now() - t0) / 1000;
      const s1 = processSample(pid);
      return {
        cpu: ((s1.cpuSeconds - s0.cpuSeconds) / dt) * 100,
        rss: s1.rssMb,
        hwm: s1.hwmMb,
        bytesPerSecond: (pty.bytes() - b0) / dt,
        requestsPerMinute: ((totalRequests(sim) - r0) / dt) * 60,
        connectionsPerMinute: ((sim.stats.connections - c0) / dt) * 60,
      };
    };
    const live = await window(STEADY_SECONDS);
    const result: SteadyResult = { interval: intervalSeconds, ...live };
    if (pauseAfter) {
      pty.type(' ');
      await sleep(1500);
      if (!pty.text().includes('PAUSED')) notes.push('the pause key did not show PAUSED on screen');
      const paused = await window(PAUSED_SECONDS);
      result.paused = { cpu: paused.cpu, bytesPerSecond: paused.bytesPerSecond, requestsPerMinute: paused.requestsPerMinute };
    }
    return result;
  } finally {
    await pty.stop();
    await sim.close();
  }
}

// ---------------------------------------------------------------------------------------------
// In-process: bytes per update at the writer boundary, render time
// ---------------------------------------------------------------------------------------------

class FakeTerminal extends EventEmitter {
  isTTY = true;
  bytes = 0;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (chunk: string) => {
    this.bytes += Buffer.byteLength(chunk);
    return true;
  };
}

class FakeKeyboard extends EventEmitter {
  isTTY = true;
  read = () => null;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

// Longer than Ink's render throttle (maxFps 10 -> 100 ms), so each update is out before the next.
const settle = () => sleep(150);

async function bytesPerUpdate(columns: number, height: number): Promise<void> {
  const { runLiveMonitor } = await import('../../src/ui/run.js');
  const { fakeController, healthyState, NOW } = await import('../ui/fixtures.js');
  type State = ReturnType<typeof healthyState>;
  type LineDiffWriter = import('../../src/ui/terminal/line-diff-writer.js').LineDiffWriter;
  let clock = NOW;
  const controller = fakeController(healthyState());
  controller.now = () => clock;
  const terminal = new FakeTerminal(columns, height);
  let writer: LineDiffWriter | undefined;
  const done = runLiveMonitor(controller, {
    color: true,
    ascii: false,
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new FakeKeyboard() as unknown as NodeJS.ReadStream,
    stderr: new FakeTerminal(80, 24) as unknown as NodeJS.WriteStream,
    onWriter: (w) => (writer = w),
    coalesce: false, // every update rendered: this measures bytes per update
  });
  await settle();
  const w = writer!;
  if (process.env.BENCH_DEBUG) console.error('first frame', terminal.bytes, JSON.stringify(w.stats), w.screenText().slice(0, 300));
  const poll = (change: (s: State) => State): State => {
    const s = controller.getState();
    return change({ ...s, lastUpdateAt: clock, ntp: { ...s.ntp, receivedAt: clock, attemptedAt: clock }, version: s.version + 1 });
  };
  const measure = async (runs: number, step: () => void) => {
    const full: number[] = [];
    const diff: number[] = [];
    for (let i = 0; i < runs; i++) {
      const in0 = w.stats.bytesIn;
      const out0 = w.stats.bytesOut;
      step();
      await settle();
      full.push(w.stats.bytesIn - in0);
      diff.push(w.stats.bytesOut - out0);
    }
    return { full: median(full), diff: median(diff) };
  };
  let k = 0;
  const cases: [string, () => void][] = [
    [
      'a poll, one value changed, 1 s later',
      () => {
        clock += 1000;
        controller.setState(
          poll((s) => {
            const data = s.ntp.data!;
            const sources = data.sources.map((src, i) => (i === 1 ? { ...src, offsetNs: 40_000 + (++k % 7) * 1300 } : src));
            return { ...s, ntp: { ...s.ntp, data: { ...data, sources } } };
          }),
        );
      },
    ],
    [
      'a poll, nothing changed, 1 s later',
      () => {
        clock += 1000;
        controller.setState(poll((s) => s));
      },
    ],
    [
      'no poll: the clock ticks 1 s (ages)',
      () => {
        clock += 1000;
        const s = controller.getState();
        controller.setState({ ...s, version: s.version + 1 });
      },
    ],
    [
      'nothing changed at all (re-render)',
      () => {
        const s = controller.getState();
        controller.setState({ ...s, version: s.version + 1 });
      },
    ],
  ];
  for (const [name, step] of cases) {
    const r = await measure(5, step);
    const zeroCase = name.startsWith('nothing changed at all');
    rows.push({
      figure: `bytes/update ${columns}x${height}: ${name}`,
      value: `${fmt(r.diff)} B`,
      floor: `full redraw ${fmt(r.full)} B`,
      ratio: r.full > 0 ? `${fmt((100 * r.diff) / r.full, 1)}%` : '-',
      ...(zeroCase ? { goal: '0 B', met: r.diff === 0 } : {}),
    });
  }
  if (w.stats.fallbacks > 0) notes.push(`writer fell back ${w.stats.fallbacks}x at ${columns}x${height}: ${w.stats.lastFallback}`);
  process.emit('SIGTERM', 'SIGTERM');
  await done;
  process.exitCode = 0;
}

async function renderTime(): Promise<void> {
  const { runLiveMonitor } = await import('../../src/ui/run.js');
  const { DeviceClient } = await import('../../src/api/client.js');
  const { Poller } = await import('../../src/monitor/poller.js');
  const { resolveConfig } = await import('../../src/config.js');
  const sim = await startSimulator({ scenario: 'many' });
  const config = resolveConfig(sim.url, { interval: 0.5 }, {}, { oneShot: false });
  const client = new DeviceClient({ baseUrl: config.connection.url, ...config.connection });
  const poller = new Poller(client, { intervalMs: config.intervalMs, ptpPorts: config.ptpPorts, showSecrets: false, thresholds: config.thresholds });
  const times: number[] = [];
  const terminal = new FakeTerminal(200, 60);
  poller.start();
  const done = runLiveMonitor(poller, {
    color: true,
    ascii: false,
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new FakeKeyboard() as unknown as NodeJS.ReadStream,
    stderr: new FakeTerminal(80, 24) as unknown as NodeJS.WriteStream,
    onRender: ({ renderTime }) => times.push(renderTime),
    coalesce: false, // every answer rendered: more frames to take the percentiles of
  });
  await sleep(RENDER_SECONDS * 1000);
  process.emit('SIGTERM', 'SIGTERM');
  await done;
  process.exitCode = 0;
  poller.stop();
  client.destroy();
  await sim.close();
  const steadyTimes = times.slice(5); // the first frames include warm-up (JIT)
  rows.push({
    figure: `render time/frame, many scenario, 200x60 (${steadyTimes.length} frames)`,
    value: `p50 ${fmt(median(steadyTimes), 2)} ms`,
    floor: `p99 ${fmt(quantile(steadyTimes, 0.99), 2)} ms`,
  });
}

// ---------------------------------------------------------------------------------------------
// Idle cost against the bare Ink app and top, side by side
// ---------------------------------------------------------------------------------------------

const IDLE_REPEATS = 3;
const IDLE_WARMUP_MS = 10_000;
const IDLE_CPU_WINDOW_MS = 45_000;
/** With the five-minute reading: CPU again over the minute before it, after the JIT's warm-up. */
const LATE_CPU_WINDOW_MS = 60_000;

async function idle(rssAtMs: number[]): Promise<void> {
  const { benchIdle } = await import('./idle.js');
  type IdleSample = import('./idle.js').IdleSample;
  type CpuShare = import('./idle.js').CpuShare;
  const { requestCycle } = await import('./request-cycle.js');
  const inkRows = await buildAnchor('ink-rows');
  const r = await benchIdle({
    synctop: `node ${BIN}`,
    inkRows: `node ${inkRows}`,
    pollRequests: requestCycle('healthy'),
    marker: MARKER,
    startSimulator: () => startSimulator({ scenario: 'healthy' }),
    repeats: IDLE_REPEATS,
    warmupMs: IDLE_WARMUP_MS,
    cpuWindowMs: IDLE_CPU_WINDOW_MS,
    rssAtMs,
    ...(rssAtMs.length > 1 ? { lateWindowMs: LATE_CPU_WINDOW_MS } : {}),
    progress,
  });
  const spread = (xs: number[], digits: number, unit: string) =>
    `${fmt(median(xs), digits)}${unit} (${fmt(Math.min(...xs), digits)}-${fmt(Math.max(...xs), digits)})`;
  const names = {
    synctop: 'synctop --interval 1',
    ink: 'bare Ink, 28 rows 1/s',
    inkPoll: 'bare Ink + the same requests',
    top: 'top -d 1',
  } as const;
  const whoRenders = ['synctop', 'ink', 'inkPoll'] as const;
  // Against the bare app (the ratio) and against the bare app that also makes synctop's
  // requests (the least a monitor polling at 1 s can cost: what is over it is synctop's own).
  const ratios = (m: number, ink: number, inkPoll: number, who: string) =>
    who === 'synctop' ? `${fmt(m / ink, 2)}x (${fmt(m / inkPoll, 2)}x floor)` : `${fmt(m / ink, 2)}x`;
  const inkCpu = median(r.ink.map((s) => s.cpuPercent));
  const inkPollCpu = median(r.inkPoll.map((s) => s.cpuPercent));
  for (const who of ['synctop', 'ink', 'inkPoll', 'top'] as const) {
    const cpu = r[who].map((s) => s.cpuPercent);
    if (cpu.length === 0) continue;
    const m = median(cpu);
    rows.push({
      figure: `idle CPU, ${names[who]} (${IDLE_CPU_WINDOW_MS / 1000} s, median (min-max) of ${cpu.length})`,
      value: spread(cpu, 2, '%'),
      ratio: ratios(m, inkCpu, inkPollCpu, who),
      ...(who === 'synctop' ? { goal: '<= 1.2x Ink, <= 1.5%', met: m <= 1.2 * inkCpu && m <= 1.5 } : {}),
    });
  }
  // Where the difference is: the main thread (JavaScript, rendering, I/O) or V8's helper threads
  // (optimizing compiler, GC), which a long JIT warm-up keeps busy for minutes.
  const threadRows = (label: string, pick: (s: IdleSample) => CpuShare | undefined) => {
    const main = (who: (typeof whoRenders)[number]) => r[who].map((s) => pick(s)!.mainPercent);
    const other = (who: (typeof whoRenders)[number]) => r[who].map((s) => pick(s)!.cpuPercent - pick(s)!.mainPercent);
    for (const who of whoRenders) {
      rows.push({
        figure: `  ${label}main thread, ${names[who]}`,
        value: spread(main(who), 2, '%'),
        ratio: ratios(median(main(who)), median(main('ink')), median(main('inkPoll')), who),
      });
      rows.push({
        figure: `  ${label}other threads, ${names[who]}`,
        value: spread(other(who), 2, '%'),
        ratio: ratios(median(other(who)), median(other('ink')), median(other('inkPoll')), who),
      });
    }
  };
  threadRows('', (s) => s);
  if (whoRenders.every((who) => r[who].every((s) => s.late))) {
    const late = (who: (typeof whoRenders)[number]) => r[who].map((s) => s.late!.cpuPercent);
    const inkLate = median(late('ink'));
    for (const who of whoRenders) {
      rows.push({
        figure: `idle CPU, ${names[who]} (the minute before ${rssAtMs[rssAtMs.length - 1]! / 60_000} min)`,
        value: spread(late(who), 2, '%'),
        ratio: ratios(median(late(who)), inkLate, median(late('inkPoll')), who),
        ...(who === 'synctop' ? { goal: '<= 1.2x Ink', met: median(late(who)) <= 1.2 * inkLate } : {}),
      });
    }
    threadRows('late: ', (s) => s.late);
  }
  rssAtMs.forEach((at, i) => {
    const inkRss = median(r.ink.map((s) => s.rssMb[i]!));
    for (const who of ['synctop', 'ink', 'inkPoll', 'top'] as const) {
      const rss = r[who].map((s) => s.rssMb[i]!);
      if (rss.length === 0) continue;
      const m = median(rss);
      rows.push({
        figure: `  RSS at ${at / 60_000} min, ${names[who]}`,
        value: spread(rss, 1, ' MB'),
        ratio: `${fmt(m / inkRss, 2)}x`,
        ...(who === 'synctop' ? { goal: '<= 1.0x Ink (stretch 100 MB)', met: m <= inkRss } : {}),
      });
    }
  });
  rows.push({ figure: '  (ratios: medians against the bare Ink app of the same run; "floor": against the bare app making the same requests)', value: '' });
}

// ---------------------------------------------------------------------------------------------
// Exporter
// ---------------------------------------------------------------------------------------------

async function exporter(): Promise<void> {
  const path = join(ROOT, 'test/bench/exporter.ts');
  if (!existsSync(path)) {
    rows.push({ figure: 'exporter: 500 devices x 4 operations / 10 s', value: 'not measured', floor: 'test/bench/exporter.ts is absent' });
    return;
  }
  progress('exporter: 500 devices, 10 s');
  const { benchExporter } = (await import('./exporter.js')) as typeof import('./exporter.js');
  const r = await benchExporter({ devices: 500, intervalMs: 10_000, durationMs: 10_000 });
  rows.push({
    figure: `exporter: ${r.devices} devices x 4 ops / ${r.intervalMs / 1000} s (window ${r.durationMs / 1000} s)`,
    value: `CPU ${fmt(r.cpuPercentOfOneCore, 1)}%`,
    floor: `${fmt(r.operationsPerSecond, 1)} of ${fmt(r.expectedOperationsPerSecond, 1)} ops/s, RSS ${fmt(r.rssMb)} MB`,
    goal: '< 50% of a core',
    met: r.cpuPercentOfOneCore < 50 && r.operationsPerSecond >= 0.95 * r.expectedOperationsPerSecond,
  });
}

// ---------------------------------------------------------------------------------------------
// /probe: the multi-target pattern
// ---------------------------------------------------------------------------------------------

async function probeBench(): Promise<void> {
  const { benchProbe } = await import('./probe.js');
  for (const exporters of [1, 2]) {
    progress(`probe: 500 devices every 10 s, ${exporters} exporter process${exporters === 1 ? '' : 'es'}`);
    const r = await benchProbe({ devices: 500, exporters, intervalMs: 10_000, windowMs: 20_000 });
    const who = `${r.exporters} exporter${r.exporters === 1 ? '' : 's'}${r.exporters > 1 ? ' round-robin' : ''}`;
    rows.push({
      figure: `probe: ${r.devices} devices / ${r.intervalMs / 1000} s, ${who} (window ${r.windowMs / 1000} s)`,
      value: `p50 ${fmt(r.p50Ms, 1)} ms`,
      floor: `p99 ${fmt(r.p99Ms, 1)} ms, max ${fmt(r.maxMs, 1)} ms`,
      goal: 'p99 < 1 s, none failed',
      met: r.p99Ms < 1000 && r.failed === 0,
    });
    rows.push({
      figure: `  ${who}: probes/s answered, failed`,
      value: `${fmt(r.probesPerSecond, 1)}/s`,
      floor: `${r.probes} probes, ${r.failed} failed`,
    });
    rows.push({
      figure: `  ${who}: CPU of one core, RSS (per process)`,
      value: r.cpuPercent.map((c) => `${fmt(c, 1)}%`).join(' + '),
      floor: r.rssMb.map((m) => `${fmt(m)} MB`).join(' + '),
      goal: '< 50% of a core each',
      met: r.cpuPercent.every((c) => c < 50),
    });
  }
}

// ---------------------------------------------------------------------------------------------

function printTable(): void {
  const header: Row = { figure: 'figure', value: 'measured', floor: 'floor / beside it', ratio: 'ratio', goal: 'goal', met: undefined };
  const cells = (r: Row) => [r.figure, r.value, r.floor ?? '', r.ratio ?? '', r.goal ?? '', r.met === undefined ? '' : r.met ? 'yes' : 'NO'];
  const all = [header, ...rows].map(cells);
  const widths = all[0]!.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 1 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join(' | ').trimEnd();
  const out = [line(all[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...all.slice(1).map(line)];
  process.stdout.write(`\n${out.join('\n')}\n`);
  for (const n of notes) process.stdout.write(`note: ${n}\n`);
  process.stdout.write(`(Node ${process.version}, ${availableParallelism()} CPUs; medians of ${STARTUP_RUNS} start-ups, of 5 updates)\n`);
}

async function main(): Promise<void> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: npm run build first`);
  // --only / BENCH_ONLY=bytes|render|startup|steady|probe: one part, while working on it.
  const flagAt = process.argv.indexOf('--only');
  const only = flagAt > 0 ? process.argv[flagAt + 1] : process.env.BENCH_ONLY;
  if (only) {
    if (only === 'probe') await probeBench();
    else if (only === 'fleet') await fleetBench();
    else if (only === 'bytes') {
      await bytesPerUpdate(100, 30);
      await bytesPerUpdate(200, 60);
    } else if (only === 'render') await renderTime();
    else if (only === 'startup') {
      const sim = await startSimulator({ scenario: 'healthy' });
      await startup(sim);
      await sim.close();
    } else if (only === 'steady') {
      const [one, two] = await Promise.all([steady(1, true), steady(2, false), idleInkFloor().then((f) => (inkFloor = f))]);
      steadyRows(one, two);
    } else if (only === 'idle') await idle([60_000]);
    else if (only === 'idle5') await idle([60_000, 300_000]);
    else throw new Error(`--only takes bytes, render, startup, steady, idle, idle5, fleet or probe (got ${only})`);
    printTable();
    return;
  }
  const sim = await startSimulator({ scenario: 'healthy' });
  try {
    await startup(sim);
  } finally {
    await sim.close();
  }

  progress(`steady state: 1 s and 2 s polling at once, ${STEADY_SECONDS} s each, then paused ${PAUSED_SECONDS} s`);
  const steadyRuns = Promise.all([steady(1, true), steady(2, false), idleInkFloor().then((f) => (inkFloor = f))]);
  // In-process figures meanwhile (one core each for the two monitors would be plenty; these
  // measure bytes, which do not depend on timing, and render time, which barely does).
  await sleep(WARMUP_MS + 2000);
  await bytesPerUpdate(100, 30);
  await bytesPerUpdate(200, 60);
  progress('render time: many scenario');
  await renderTime();
  const [one, two] = await steadyRuns;
  steadyRows(one, two);
  await idle([60_000]);
  await exporter();
  await probeBench();
  await fleetBench();
  const total = (performance.now() - benchStarted) / 1000;
  rows.push({ figure: 'whole bench', value: `${fmt(total)} s`, goal: '< 300 s', met: total < 300 });
  printTable();
}

async function fleetBench(): Promise<void> {
  const { benchFleet } = await import('./fleet.js');
  rows.push(...(await benchFleet(BIN, await buildAnchor('http-floor'), progress)));
}

function steadyRows(...results: SteadyResult[]): void {
  for (const s of results) {
    const at = `${s.interval} s polling (${STEADY_SECONDS} s window)`;
    const floor = inkFloor;
    rows.push({
      figure: `steady CPU, ${at}`,
      value: `${fmt(s.cpu, 2)}%`,
      ...(floor ? { floor: `idle Ink hello ${fmt(floor.cpu, 2)}%` } : {}),
      goal: s.interval === 1 ? '< 2% of a core' : '',
      ...(s.interval === 1 ? { met: s.cpu < 2 } : {}),
    });
    rows.push({
      figure: `RSS (peak), ${at}`,
      value: `${fmt(s.rss, 1)} MB (${fmt(s.hwm, 1)})`,
      ...(floor ? { floor: `idle Ink hello ${fmt(floor.rss, 1)} MB (${fmt(floor.hwm, 1)})`, ratio: `${fmt(s.rss / floor.rss, 2)}x` } : {}),
      goal: '< 100 MB',
      met: s.hwm < 100,
    });
    rows.push({
      figure: `bytes/s to the terminal 100x30, ${at}`,
      value: `${fmt(s.bytesPerSecond)} B/s`,
      ...(s.interval === 1 ? { goal: '< 1,500 B/s', met: s.bytesPerSecond < 1500 } : {}),
    });
    // healthy: NTP, GNSS, alarm, and PTP once per slave port (2): 5 requests a cycle; cycles are
    // interval x (1 + jitter 0..5%) apart.
    rows.push({
      figure: `requests/min/device, ${at}`,
      value: fmt(s.requestsPerMinute, 1),
      floor: `5 req/cycle x ${fmt(60 / s.interval / 1.025, 1)} cycles = ${fmt((5 * 60) / s.interval / 1.025, 1)}`,
      ratio: `${fmt(s.requestsPerMinute / ((5 * 60) / s.interval / 1.025), 2)}x`,
    });
    rows.push({ figure: `TCP connections/min/device, ${at}`, value: fmt(s.connectionsPerMinute, 2), goal: 'keep-alive: ~0' });
    if (s.paused) {
      rows.push({ figure: `paused (space), ${PAUSED_SECONDS} s window: CPU`, value: `${fmt(s.paused.cpu, 2)}%` });
      rows.push({ figure: '  paused: bytes/s to the terminal (ages tick)', value: `${fmt(s.paused.bytesPerSecond)} B/s` });
      rows.push({ figure: '  paused: requests/min', value: fmt(s.paused.requestsPerMinute, 1), goal: '0', met: s.paused.requestsPerMinute === 0 });
    }
  }
}

await main();
process.exit(process.exitCode ?? 0);
