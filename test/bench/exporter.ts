/**
 * Exporter benchmark: one exporter polling many simulated devices, measured over a window.
 *
 * The simulated devices run in a child process (N simulators on loopback, one port each: the
 * simulator answers the API paths only at its root), so the CPU figure is the exporter's own:
 * polling, decoding, normalizing, the rule table, and a /metrics scrape every 10 s the way
 * Prometheus would scrape it.
 *
 * Goal: 500 devices x 4 operations every 10 s under 50 % of one core.
 *
 *   npx tsx test/bench/exporter.ts [devices] [durationMs] [intervalMs]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startExporter } from '../../src/export/exporter.js';
import type { ScenarioName } from '../../src/sim/scenarios.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';

export interface ExporterBenchOptions {
  devices?: number;
  intervalMs?: number;
  /** Length of the measured window, after every device has been polled once. */
  durationMs?: number;
  scenario?: ScenarioName;
  maxInFlight?: number;
  /** How often /metrics is scraped during the window. */
  scrapeEveryMs?: number;
}

export interface ExporterBenchResult {
  devices: number;
  intervalMs: number;
  durationMs: number;
  /** Section polls completed per second (one per operation per device per interval is the goal). */
  operationsPerSecond: number;
  /** What the goal asks: devices x 4 / interval. */
  expectedOperationsPerSecond: number;
  /** HTTP requests the devices served per second (PTP costs one request per slave port). */
  requestsPerSecond: number;
  /** Exporter CPU (user + system) as % of one core over the window. */
  cpuPercentOfOneCore: number;
  rssMb: number;
  heapUsedMb: number;
  peakInFlight: number;
  scrapes: number;
  scrapeMsMax: number;
  scrapeBytes: number;
  series: number;
}

const SELF = fileURLToPath(import.meta.url);
const CHILD_FLAG = '--sim-fleet';

/** The child: N simulators; answers "urls" once, "requests" on demand. */
async function simFleetChild(count: number, scenario: ScenarioName): Promise<void> {
  const sims: Simulator[] = [];
  for (let i = 0; i < count; i++) sims.push(await startSimulator({ scenario, seed: i + 1 }));
  const total = () => sims.reduce((n, s) => n + Object.values(s.stats.requests).reduce((a, b) => a + b, 0), 0);
  process.on('message', (msg: unknown) => {
    if (msg === 'requests') process.send?.({ requests: total() });
    if (msg === 'close') void Promise.all(sims.map((s) => s.close())).then(() => process.exit(0));
  });
  process.send?.({ urls: sims.map((s) => s.url) });
}

/** Sends `msg` to a child process and resolves with the `key` of its first answer that has one. */
export function request<T>(child: ChildProcess, msg: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (m && typeof m === 'object' && key in m) {
        child.off('message', on);
        resolve((m as Record<string, T>)[key]!);
      }
    };
    child.on('message', on);
    if (msg) child.send(msg);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function benchExporter(opts: ExporterBenchOptions = {}): Promise<ExporterBenchResult> {
  const devices = opts.devices ?? 500;
  const intervalMs = opts.intervalMs ?? 10_000;
  const durationMs = opts.durationMs ?? 30_000;
  const scrapeEveryMs = opts.scrapeEveryMs ?? 10_000;
  const child = fork(SELF, [CHILD_FLAG, String(devices), opts.scenario ?? 'healthy'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const urls = await request<string[]>(child, '', 'urls');
    const exporter = await startExporter({
      host: '127.0.0.1',
      port: 0,
      devices: urls.map((baseUrl) => ({ baseUrl, timeoutMs: Math.min(5000, Math.round(intervalMs * 0.9)) })),
      intervalMs,
      ptpPorts: 'auto',
      ...(opts.maxInFlight !== undefined ? { maxInFlight: opts.maxInFlight } : {}),
    });
    try {
      let polls = 0;
      for (const d of exporter.fleet.devices) d.poller.store.onResult(() => polls++);
      // Warm-up: starts are spread over one interval, and PTP discovery asks 8 ids once.
      const deadline = Date.now() + intervalMs * 3;
      while (!exporter.fleet.devices.every((d) => Object.values(d.polled).every(Boolean)) && Date.now() < deadline) await sleep(100);
      await sleep(Math.min(intervalMs, 2000));

      const polls0 = polls;
      const requests0 = await request<number>(child, 'requests', 'requests');
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let scrapes = 0;
      let scrapeMsMax = 0;
      let scrapeBytes = 0;
      let series = 0;
      const end = t0 + durationMs;
      let nextScrape = t0;
      while (performance.now() < end) {
        if (performance.now() >= nextScrape) {
          const s0 = performance.now();
          const text = await (await fetch(`${exporter.url}/metrics`)).text();
          scrapeMsMax = Math.max(scrapeMsMax, performance.now() - s0);
          scrapeBytes = text.length;
          series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
          scrapes++;
          nextScrape += scrapeEveryMs;
        }
        await sleep(Math.min(250, Math.max(0, end - performance.now())));
      }
      const elapsedS = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const requests = (await request<number>(child, 'requests', 'requests')) - requests0;
      const mem = process.memoryUsage();
      const round = (n: number) => Math.round(n * 10) / 10;
      return {
        devices,
        intervalMs,
        durationMs,
        operationsPerSecond: round((polls - polls0) / elapsedS),
        expectedOperationsPerSecond: round((devices * 4) / (intervalMs / 1000)),
        requestsPerSecond: round(requests / elapsedS),
        cpuPercentOfOneCore: round(((cpu.user + cpu.system) / 1000 / (elapsedS * 1000)) * 100),
        rssMb: mb(mem.rss),
        heapUsedMb: mb(mem.heapUsed),
        peakInFlight: exporter.fleet.limiter.peak,
        scrapes,
        scrapeMsMax: round(scrapeMsMax),
        scrapeBytes,
        series,
      };
    } finally {
      await exporter.close();
    }
  } finally {
    child.send('close');
    await exited(child);
  }
}

/** Resolves when the child has exited; one that has not after `ms` is killed. */
export function exited(child: ChildProcess, ms = 5000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const [, , first, second, third] = process.argv;
if (first === CHILD_FLAG) {
  void simFleetChild(Number(second), (third ?? 'healthy') as ScenarioName);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchExporter({
    ...(first ? { devices: Number(first) } : {}),
    ...(second ? { durationMs: Number(second) } : {}),
    ...(third ? { intervalMs: Number(third) } : {}),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
