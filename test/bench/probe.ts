/**
 * /probe benchmark: the real exporter binary answering probes for many simulated devices, the
 * way Prometheus would ask them: every device once per scrape interval, the scrapes spread
 * evenly over the interval, each with X-Prometheus-Scrape-Timeout-Seconds. With several exporter
 * processes the probes go round-robin, as through a load balancer.
 *
 * The simulated devices run in a child process (test/bench/exporter.ts's simulator fleet), the
 * exporters in their own processes, the load generator here: the CPU and RSS figures are the
 * exporters' own (from /proc), the latency is what the scraper sees.
 *
 *   npx tsx test/bench/probe.ts [devices] [exporters] [windowMs]
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exited } from './exporter.js';
import { processSample } from './pty.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = `${ROOT}dist/synctop.js`;
const SIM_FLEET = fileURLToPath(new URL('./exporter.ts', import.meta.url));

export interface ProbeBenchOptions {
  devices?: number;
  exporters?: number;
  intervalMs?: number;
  /** Measured window, after one unmeasured interval (connections, PTP port discovery). */
  windowMs?: number;
}

export interface ProbeBenchResult {
  devices: number;
  exporters: number;
  intervalMs: number;
  windowMs: number;
  probes: number;
  failed: number;
  probesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Per exporter process: CPU % of one core over the window, RSS at its end (MB). */
  cpuPercent: number[];
  rssMb: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** N simulated devices in a child process of their own (their CPU is not the measured one's). */
export function simFleet(devices: number): Promise<{ child: ChildProcess; urls: string[] }> {
  const child = fork(SIM_FLEET, ['--sim-fleet', String(devices), 'healthy'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => {
    child.on('message', (m: unknown) => {
      if (m && typeof m === 'object' && 'urls' in m) resolve({ child, urls: (m as { urls: string[] }).urls });
    });
  });
}

function startExporter(): Promise<{ child: ChildProcess; url: string }> {
  // The devices are on loopback: one allow pattern covers them all.
  const child = spawn(process.execPath, [BIN, 'export', '--listen', '127.0.0.1:0', '--allow-target', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, url: out.split('\n')[0]!.replace(/\/metrics$/, '') });
    });
    child.once('exit', (code) => reject(new Error(`the exporter exited with ${code}`)));
  });
}

export async function benchProbe(opts: ProbeBenchOptions = {}): Promise<ProbeBenchResult> {
  const devices = opts.devices ?? 500;
  const exporterCount = opts.exporters ?? 1;
  const intervalMs = opts.intervalMs ?? 10_000;
  const windowMs = opts.windowMs ?? 20_000;
  const fleet = await simFleet(devices);
  const exporters = await Promise.all(Array.from({ length: exporterCount }, startExporter));
  const headers = { 'X-Prometheus-Scrape-Timeout-Seconds': String(intervalMs / 1000) };
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  let measuring = false;
  const inFlight = new Set<Promise<void>>();

  const probeOnce = async (url: string) => {
    const exporter = exporters[next++ % exporters.length]!;
    const started = performance.now();
    try {
      const res = await fetch(`${exporter.url}/probe?target=${encodeURIComponent(url)}`, { headers });
      const text = await res.text();
      if (res.status !== 200 || !text.includes('synctop_probe_success{device=') || /synctop_up\{[^}]*\} 0/.test(text)) throw new Error(`status ${res.status}`);
      if (measuring) latencies.push(performance.now() - started);
    } catch {
      if (measuring) failed++;
    }
  };

  try {
    // Each device is scraped once per interval at its own offset, as Prometheus spreads targets.
    const start = performance.now();
    const end = start + intervalMs + windowMs;
    let windowStart = 0;
    let samples: { cpuSeconds: number; rssMb: number }[] = [];
    for (let k = 0; ; k++) {
      const at = start + (k * intervalMs) / devices;
      if (at >= end) break;
      const wait = at - performance.now();
      if (wait > 0) await sleep(wait);
      if (!measuring && at >= start + intervalMs) {
        measuring = true;
        windowStart = performance.now();
        samples = exporters.map((e) => processSample(e.child.pid!));
      }
      const p = probeOnce(fleet.urls[k % devices]!);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await Promise.all(inFlight);
    const elapsedS = (performance.now() - windowStart) / 1000;
    const after = exporters.map((e) => processSample(e.child.pid!));
    return {
      devices,
      exporters: exporterCount,
      intervalMs,
      windowMs,
      probes: latencies.length + failed,
      failed,
      probesPerSecond: round((latencies.length + failed) / elapsedS),
      p50Ms: round(quantile(latencies, 0.5)),
      p99Ms: round(quantile(latencies, 0.99)),
      maxMs: round(Math.max(...latencies)),
      cpuPercent: after.map((s, i) => round(((s.cpuSeconds - samples[i]!.cpuSeconds) / elapsedS) * 100)),
      rssMb: after.map((s) => round(s.rssMb, 0)),
    };
  } finally {
    for (const e of exporters) e.child.kill('SIGTERM');
    fleet.child.send('close');
    await Promise.all([...exporters.map((e) => e.child), fleet.child].map((c) => exited(c)));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [, , devices, exporters, windowMs] = process.argv;
  const result = await benchProbe({
    ...(devices ? { devices: Number(devices) } : {}),
    ...(exporters ? { exporters: Number(exporters) } : {}),
    ...(windowMs ? { windowMs: Number(windowMs) } : {}),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
