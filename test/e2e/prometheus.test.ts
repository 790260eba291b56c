/**
 * The multi-target pattern against a real Prometheus server (Debian's prometheus package; CI
 * installs it): the SHIPPED contrib/prometheus/prometheus.yml and rules, with only addresses,
 * targets and intervals replaced, scrape two simulated devices through the real exporter
 * binary's /probe — one by URL through file_sd, one by profile name with its token in the
 * exporter's config file. Asserted through Prometheus' HTTP query API: synctop_up 1 for both,
 * the PTP offsets the simulator serves, and after one device is stopped, synctop_up 0 in the
 * very first scrape that started after it stopped.
 *
 * No skip: without prometheus this fails, loudly.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { pollOnce } from '../../src/monitor/once.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { startExporterProcess, type ExporterProcess } from './exporter-process.js';
import { hasBuild, root } from './tmux.js';

const TOKEN = 'tok-GM-B-only-in-the-config-file';
let work: string;
let byUrl: Simulator;
let byProfile: Simulator;
let exporter: ExporterProcess;
let prometheus: ChildProcess | undefined;
let api: string;
let prometheusLog = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The shipped config with exactly these replacements; each must hit, so the file is what is proven. */
function testConfig(exporterAddress: string): string {
  let text = readFileSync(join(root, 'contrib/prometheus/prometheus.yml'), 'utf8');
  const replace = (from: string, to: string, times: number) => {
    const hits = text.split(from).length - 1;
    if (hits !== times) throw new Error(`contrib/prometheus/prometheus.yml: expected "${from}" ${times} times, found ${hits}`);
    text = text.split(from).join(to);
  };
  replace('scrape_interval: 15s', 'scrape_interval: 1s', 1);
  replace('scrape_timeout: 10s', 'scrape_timeout: 1s', 1);
  replace('evaluation_interval: 15s', 'evaluation_interval: 1s', 1);
  replace('127.0.0.1:9469', exporterAddress, 5); // 3 replacements and 2 comments
  replace('targets: [lab-gm, site-7]', 'targets: [gm-b]', 1);
  return text;
}

interface Series {
  metric: Record<string, string>;
  value?: [number, string];
  values?: [number, string][];
}

async function query(promql: string): Promise<Series[]> {
  const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: Series[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
  return body.data.result;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nprometheus said:\n${prometheusLog.slice(-2000)}\nexporter said:\n${exporter?.stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const upOf = async (instance: string) => {
  const [s] = await query(`synctop_up{instance="${instance}"}`);
  return s?.value ? Number(s.value[1]) : undefined;
};

beforeAll(async () => {
  try {
    execFileSync('prometheus', ['--version'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`prometheus is required for this test and was not found (apt-get install prometheus; .ci/run does): ${(err as Error).message}`);
  }
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  work = mkdtempSync(join(tmpdir(), 'synctop-prometheus-'));
  // Frozen device clocks (timeScale 0): every answer is the same, so values can be compared.
  [byUrl, byProfile] = await Promise.all([startSimulator({ scenario: 'healthy', timeScale: 0 }), startSimulator({ scenario: 'healthy', timeScale: 0, token: TOKEN })]);
  const profiles = join(work, 'config.json');
  writeFileSync(profiles, JSON.stringify({ devices: { 'gm-b': { url: byProfile.url, token: TOKEN } } }), { mode: 0o600 });
  exporter = await startExporterProcess(['--config', profiles, '--allow-target', byUrl.url]);

  const address = new URL(exporter.url).host;
  writeFileSync(join(work, 'prometheus.yml'), testConfig(address));
  copyFileSync(join(root, 'contrib/prometheus/synctop-rules.yml'), join(work, 'synctop-rules.yml'));
  mkdirSync(join(work, 'synctop-targets'));
  writeFileSync(join(work, 'synctop-targets/devices.yml'), `- targets: ["${byUrl.url}"]\n  labels:\n    site: test\n`);
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    'prometheus',
    [`--config.file=${join(work, 'prometheus.yml')}`, `--storage.tsdb.path=${join(work, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: work },
  );
  prometheus.stdout!.on('data', (d: Buffer) => (prometheusLog += d.toString()));
  prometheus.stderr!.on('data', (d: Buffer) => (prometheusLog += d.toString()));
  await until(async () => ((await fetch(`${api}/-/ready`)).ok ? true : undefined), 'Prometheus to be ready');
}, 60_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus!.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await exporter?.stop();
  await byUrl?.close();
  await byProfile?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a real Prometheus server with the shipped configuration', () => {
  it('scrapes both devices through /probe, with the simulator values, and sees a stopped device down at the next scrape', async () => {
    // Both devices up: one by URL (file_sd), one by profile name.
    await until(async () => ((await upOf(byUrl.url)) === 1 && (await upOf('gm-b')) === 1 ? true : undefined), 'synctop_up 1 for both devices');
    const [success] = await query(`synctop_probe_success{instance="gm-b"}`);
    expect(success?.value?.[1]).toBe('1');
    const [scrapeUp] = await query(`up{job="synctop"}`);
    expect(scrapeUp?.value?.[1]).toBe('1');

    // The PTP offsets Prometheus stored are the ones the simulated device serves.
    const client = new DeviceClient({ baseUrl: byUrl.url, timeoutMs: 2000 });
    const snapshot = await pollOnce(client, { ptpPorts: 'auto', showSecrets: false });
    client.destroy();
    expect(snapshot.ptp.ok).toBe(true);
    const served = new Map((snapshot.ptp.ok ? snapshot.ptp.data.ports : []).map((p) => [String(p.id), p.offsetFromMasterNs! / 1e9]));
    expect(served.size).toBe(2);
    const stored = await query(`synctop_ptp_offset_from_master_seconds{instance="${byUrl.url}"}`);
    expect(new Map(stored.map((s) => [s.metric.port!, Number(s.value![1])]))).toEqual(served);
    // The instance label is the target; the profile's token never reached Prometheus.
    expect(stored[0]!.metric.job).toBe('synctop');
    const targets = await (await fetch(`${api}/api/v1/targets`)).text();
    expect(targets).toContain('profile=gm-b');
    expect(targets).not.toContain(TOKEN);

    // Stop one device: the first scrape that starts after it is gone says synctop_up 0.
    await byUrl.close();
    const stoppedAt = Date.now() / 1000;
    const after = await until(async () => {
      const [s] = await query(`synctop_up{instance="${byUrl.url}"}[30s]`);
      const later = (s?.values ?? []).filter(([t]) => t > stoppedAt);
      return later.length > 0 ? later : undefined;
    }, 'a scrape after the device stopped');
    expect(after[0]![1]).toBe('0');
    expect(await upOf('gm-b')).toBe(1);
  });
});
