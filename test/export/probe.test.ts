/**
 * /probe in-process against simulated devices over real HTTP: the same families as the static
 * fleet plus the probe's two, a device that goes away is down at the very next probe, partial
 * failures keep what was read, single flight, the allow list (403), bad requests (400), the caps
 * (503), the scrape budget, profiles whose token never travels in the scrape URL, and hostile
 * label strings that stay inside their label values.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { loadConfigFile } from '../../src/config-file.js';
import { startExporter, type Exporter, type ExporterOptions } from '../../src/export/exporter.js';
import { fleetMetrics, metricDefs, probeOnlyMetrics } from '../../src/export/metrics.js';
import { parseAllowPattern, profileConfigs, TargetBook } from '../../src/export/targets.js';
import type { Simulator } from '../../src/sim/server.js';
import { cleanups, sims } from './simulators.js';


/** An exporter that may probe exactly `urls` (and what `patterns` allow) with these flags. */
async function exporter(urls: string[], over: Partial<ExporterOptions> = {}, flags: { timeout?: number; patterns?: string[]; ptpPorts?: string } = {}): Promise<Exporter> {
  const commandLine = resolveConfig(urls[0] ?? 'http://target.invalid', { timeout: flags.timeout ?? 1000, ptpPorts: flags.ptpPorts ?? 'auto' }, {}, { oneShot: true });
  const targets = new TargetBook({ commandLine, urls, patterns: (flags.patterns ?? []).map(parseAllowPattern), profiles: new Map() });
  const e = await startExporter({ host: '127.0.0.1', port: 0, devices: [], intervalMs: 10_000, ptpPorts: 'auto', targets, ...over });
  cleanups.push(() => e.close());
  return e;
}

type Families = Map<string, ParsedFamily>;
interface Answer {
  status: number;
  text: string;
  families: Families;
}

async function probe(e: Exporter, query: string, headers: Record<string, string> = { 'X-Prometheus-Scrape-Timeout-Seconds': '3' }): Promise<Answer> {
  const res = await fetch(`${e.url}/probe?${query}`, { headers });
  const text = await res.text();
  const families = res.status === 200 ? new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])) : new Map();
  return { status: res.status, text, families };
}

const target = (url: string) => `target=${encodeURIComponent(url)}`;

function value(families: Families, name: string, labels: Record<string, string> = {}): number | undefined {
  const m = families.get(name)?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return m?.value === undefined ? undefined : Number(m.value);
}

const series = (families: Families, name: string) => families.get(name)?.metrics ?? [];
const totalRequests = (s: Simulator) => Object.values(s.stats.requests).reduce((a, b) => a + b, 0);

describe('/probe', () => {
  it('asks the device now and answers the static fleet families plus probe success and duration', async () => {
    const [a] = await sims({});
    const e = await exporter([a!.url]);
    const before = totalRequests(a!);
    const { status, families } = await probe(e, target(a!.url));
    expect(status).toBe(200);
    // The device was asked by this probe: NTP, GNSS, alarm and the PTP port ids.
    expect(totalRequests(a!)).toBeGreaterThan(before + 3);
    // Exactly the table's families: the fleet's and the probe's own.
    expect(new Set(families.keys())).toEqual(new Set(Object.keys(metricDefs)));
    for (const name of fleetMetrics) expect(metricDefs[name]).toBeDefined();
    const A = { device: a!.url };
    expect(value(families, 'synctop_up', A)).toBe(1);
    expect(value(families, 'synctop_probe_success', A)).toBe(1);
    const duration = value(families, 'synctop_probe_duration_seconds', A)!;
    expect(duration).toBeGreaterThan(0);
    expect(duration).toBeLessThan(3);
    expect(value(families, 'synctop_health_status', A)).toBe(0);
    expect(value(families, 'synctop_ptp_gm_clock_class', { ...A, port: '0' })).toBe(6);
    expect(value(families, 'synctop_ntp_source_stratum', { ...A, source: 'GPS' })).toBe(1);
    expect(value(families, 'synctop_gnss_satellites', { ...A, receiver: '0', constellation: 'gps' })).toBe(10);
    for (const op of ['ntp', 'gnss', 'ptp', 'alarm']) expect(value(families, 'synctop_operation_up', { ...A, operation: op })).toBe(1);

    // The second probe asks only the PTP ports found by the first (2 of the 8 ids).
    const ptpBefore = a!.stats.requests.ptp;
    await probe(e, target(a!.url));
    expect(a!.stats.requests.ptp - ptpBefore).toBe(2);
  });

  it('a device that goes away is down at the very next probe, with no data series', async () => {
    const [a, b] = await sims({}, {});
    const e = await exporter([a!.url, b!.url]);
    expect(value((await probe(e, target(a!.url))).families, 'synctop_up', { device: a!.url })).toBe(1);
    await a!.close();
    const down = await probe(e, target(a!.url));
    expect(down.status).toBe(200);
    expect(value(down.families, 'synctop_up', { device: a!.url })).toBe(0);
    expect(value(down.families, 'synctop_probe_success', { device: a!.url })).toBe(0);
    expect(value(down.families, 'synctop_health_status', { device: a!.url })).toBe(2);
    expect(series(down.families, 'synctop_ntp_source_offset_seconds')).toHaveLength(0);
    expect(value((await probe(e, target(b!.url))).families, 'synctop_up', { device: b!.url })).toBe(1);
  });

  it('one failing operation does not mark the device down; what was read is answered', async () => {
    // GNSS stalls past the request deadline (300 ms) inside a 3 s budget; the alarm is refused.
    const [a] = await sims({ deny: ['alarm'] });
    a!.setFault('gnss', { kind: 'stall-headers' });
    const e = await exporter([a!.url], {}, { timeout: 300 });
    const { families } = await probe(e, target(a!.url));
    const A = { device: a!.url };
    expect(value(families, 'synctop_up', A)).toBe(1);
    expect(value(families, 'synctop_operation_up', { ...A, operation: 'gnss' })).toBe(0);
    expect(value(families, 'synctop_operation_up', { ...A, operation: 'alarm' })).toBe(0);
    expect(value(families, 'synctop_operation_up', { ...A, operation: 'ntp' })).toBe(1);
    expect(value(families, 'synctop_operation_up', { ...A, operation: 'ptp' })).toBe(1);
    expect(value(families, 'synctop_ntp_source_stratum', { ...A, source: 'GPS' })).toBe(1);
    expect(value(families, 'synctop_ptp_gm_clock_class', { ...A, port: '0' })).toBe(6);
    // GNSS got no answer: the probe was not complete. The refusal was an answer.
    expect(value(families, 'synctop_probe_success', A)).toBe(0);
    const self = await (await fetch(`${e.url}/metrics`)).text();
    expect(self).toMatch(/synctop_exporter_probe_errors_total\{kind="network"\} 1/);
    expect(self).toMatch(/synctop_exporter_probe_errors_total\{kind="auth"\} 1/);
  });

  it('concurrent probes of one target share one device poll; never two requests in flight', async () => {
    const [a] = await sims({});
    const e = await exporter([a!.url]);
    await probe(e, target(a!.url)); // discovery done, connection open
    const ntpBefore = a!.stats.requests.ntp;
    const answers = await Promise.all([probe(e, target(a!.url)), probe(e, target(a!.url)), probe(e, target(a!.url))]);
    for (const x of answers) expect(value(x.families, 'synctop_up', { device: a!.url })).toBe(1);
    expect(a!.stats.requests.ntp - ntpBefore).toBe(1);
    expect(e.probes.stats.shared).toBe(2);
    // Every probe so far went over the one kept-alive connection.
    expect(a!.stats.connections).toBe(1);
    for (const n of Object.values(a!.stats.maxInFlight)) expect(n).toBeLessThanOrEqual(1);
  });

  it('a device of the static fleet that is also probed still has one request in flight at a time', async () => {
    const [a] = await sims({});
    // Alarm answers never come: each alarm request holds the device until its 150 ms deadline.
    // The fleet polls every 100 ms while probes keep coming.
    a!.setFault('alarm', { kind: 'stall-headers' });
    const e = await exporter([a!.url], { devices: [{ baseUrl: a!.url, timeoutMs: 150 }], intervalMs: 100, spreadMs: 0 }, { timeout: 150 });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([probe(e, target(a!.url)), probe(e, target(a!.url))]);
      for (const x of answers) expect(value(x.families, 'synctop_up', { device: a!.url })).toBe(1);
    }
    expect(a!.stats.maxInFlightAll).toBe(1);
    const fleet = await (await fetch(`${e.url}/metrics`)).text();
    expect(fleet).toMatch(/synctop_up\{device="[^"]+"\} 1/);
  });

  it('the budget comes from X-Prometheus-Scrape-Timeout-Seconds less a margin, else from --timeout', async () => {
    const [a] = await sims({});
    a!.setFault('all', { kind: 'stall-headers' });
    // The request deadline (10 s) is far beyond the scrape's 1 s: the budget ends the probe.
    const e = await exporter([a!.url], {}, { timeout: 10_000 });
    const started = performance.now();
    const { families } = await probe(e, target(a!.url), { 'X-Prometheus-Scrape-Timeout-Seconds': '1' });
    const tookS = (performance.now() - started) / 1000;
    const duration = value(families, 'synctop_probe_duration_seconds', { device: a!.url })!;
    // 1 s less its margin (a quarter of it): answered before Prometheus gives up.
    expect(duration).toBeLessThan(1);
    expect(tookS).toBeLessThan(1);
    expect(value(families, 'synctop_up', { device: a!.url })).toBe(0);

    const quick = await exporter([a!.url], {}, { timeout: 400 });
    const noHeader = await probe(quick, target(a!.url), {});
    expect(value(noHeader.families, 'synctop_probe_duration_seconds', { device: a!.url })).toBeLessThan(1);
  });

  it('refuses targets it was not given (403), and bad requests (400), with one sentence each', async () => {
    const [a] = await sims({});
    const e = await exporter([a!.url], {}, { patterns: ['*.lab.example', '10.9.0.0/16'] });
    const cases: [string, number, RegExp][] = [
      [target('http://127.0.0.1:1'), 403, /not allowed.*--allow-target/],
      [target(`${a!.url}/other`), 403, /not allowed/],
      [target('10.9.8.7'), 400, /base URL with its scheme/],
      [target('ftp://gm.lab.example'), 400, /http:\/\/ or https:\/\//],
      [target('https://admin:secret@gm.lab.example'), 400, /credentials/],
      [target(`http://x${'a'.repeat(2000)}.lab.example`), 400, /longer than 1024/],
      ['', 400, /target=URL or \/probe\?profile=NAME/],
      [`${target(a!.url)}&${target(a!.url)}`, 400, /give target once/],
      [`${target(a!.url)}&module=http`, 400, /not "module"/],
      [`${target(a!.url)}&profile=x`, 403, /no usable device profile/],
      ['profile=nope', 403, /no usable device profile/],
    ];
    for (const [query, status, message] of cases) {
      const answer = await probe(e, query);
      expect(answer.status, query.slice(0, 80)).toBe(status);
      expect(answer.text).toMatch(message);
      expect(answer.text.trim().split('\n')).toHaveLength(1);
      expect(answer.text).not.toContain('secret');
    }
    const badHeader = await probe(e, target(a!.url), { 'X-Prometheus-Scrape-Timeout-Seconds': '1e400' });
    expect(badHeader.status).toBe(400);
    expect(badHeader.text).toMatch(/positive number of seconds/);
    // Patterns: a host glob and a CIDR block (nothing listens there: up 0, but it was asked).
    expect((await probe(e, target('http://10.9.200.1:1'), { 'X-Prometheus-Scrape-Timeout-Seconds': '0.4' })).status).toBe(200);
    const self = await (await fetch(`${e.url}/metrics`)).text();
    expect(self).toMatch(/synctop_exporter_probes_total\{code="403"\} 4/);
  });

  it('over its caps it answers 503 with one sentence, and keeps at most --max-targets targets', async () => {
    const [stalled, fine, other] = await sims({}, {}, {});
    stalled!.setFault('all', { kind: 'stall-headers' });
    const urls = [stalled!.url, fine!.url, other!.url];
    const e = await exporter(urls, { maxProbes: 1 }, { timeout: 5000 });
    const hung = probe(e, target(stalled!.url), { 'X-Prometheus-Scrape-Timeout-Seconds': '2' });
    await waitFor(() => e.probes.inFlight === 1);
    const busy = await probe(e, target(fine!.url));
    expect(busy.status).toBe(503);
    expect(busy.text).toMatch(/1 probe is in flight.*--max-probes/);
    expect((await hung).status).toBe(200);

    const lru = await exporter(urls, { maxTargets: 1 }, { timeout: 5000 });
    const hung2 = probe(lru, target(stalled!.url), { 'X-Prometheus-Scrape-Timeout-Seconds': '2' });
    await waitFor(() => lru.probes.inFlight === 1);
    const full = await probe(lru, target(fine!.url));
    expect(full.status).toBe(503);
    expect(full.text).toMatch(/the 1 target this exporter holds is being probed.*--max-targets/);
    await hung2;
    // Idle now: the least recently used target makes room.
    expect((await probe(lru, target(fine!.url))).status).toBe(200);
    expect((await probe(lru, target(other!.url))).status).toBe(200);
    expect(lru.probes.held).toBe(1);
    expect(lru.probes.stats.evicted).toBe(2);
  });

  it('a profile is probed with its own token, by name or by its URL; the token never appears', async () => {
    const [locked] = await sims({ token: 'tok-PROFILE-42' });
    const dir = mkdtempSync(join(tmpdir(), 'synctop-probe-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ devices: { 'lab-gm': { url: locked!.url, token: 'tok-PROFILE-42', ptpPorts: [0] } } }), { mode: 0o600 });
    // The command line's token (SYNCTOP_TOKEN, --token-file) is not the profile's.
    const profiles = profileConfigs(loadConfigFile(file, {}), { tokenFile: '/nonexistent/token' }, { SYNCTOP_TOKEN: 'tok-COMMAND-LINE' }, (w) => {
      throw new Error(w);
    });
    const commandLine = resolveConfig('http://target.invalid', { timeout: 1000 }, {}, { oneShot: true });
    const e = await startExporter({
      host: '127.0.0.1',
      port: 0,
      devices: [],
      intervalMs: 10_000,
      ptpPorts: 'auto',
      targets: new TargetBook({ commandLine, urls: [], patterns: [], profiles }),
    });
    cleanups.push(() => e.close());
    for (const query of ['profile=lab-gm', target(locked!.url), `${target(locked!.url)}&profile=lab-gm`]) {
      const { status, text, families } = await probe(e, query);
      expect(status).toBe(200);
      expect(value(families, 'synctop_operation_up', { device: locked!.url, operation: 'ntp' })).toBe(1);
      // ptpPorts [0] from the profile: exactly one port.
      expect(series(families, 'synctop_ptp_port_state_info')).toHaveLength(1);
      expect(text).not.toContain('tok-PROFILE-42');
    }
  });

  it('hostile device strings stay inside label values; repeated names are separate series', async () => {
    const [a] = await sims({ scenario: 'label-clash' });
    const e = await exporter([a!.url]);
    const { text, families } = await probe(e, target(a!.url));
    // One synctop_up series only: nothing was injected by the source name.
    expect(series(families, 'synctop_up')).toHaveLength(1);
    expect(text).not.toMatch(/^synctop_up\{device="evil"\}/m);
    const sources = series(families, 'synctop_ntp_source_stratum').map((m) => m.labels?.source);
    expect(sources).toEqual(['GPS', 'GPS#2', 'x"} 1\\x0asynctop_up{device="evil"} 0\\x0a\\']);
    const receivers = series(families, 'synctop_gnss_receiver_status_info').map((m) => m.labels?.receiver);
    expect(receivers).toEqual(['0', '1', '2', '0#2']);
  });
});

describe('the exporter HTTP server', () => {
  it('closes a connection that never finishes its headers, and caps connections per client address', async () => {
    const [a] = await sims({});
    const e = await exporter([a!.url], { http: { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnectionsPerAddress: 4 } });
    const { port } = new URL(e.url);
    const { connect } = await import('node:net');
    const open = (localAddress: string) =>
      new Promise<import('node:net').Socket>((resolve, reject) => {
        const s = connect({ host: '127.0.0.1', port: Number(port), localAddress }, () => resolve(s));
        s.on('error', reject);
        s.resume(); // read what the server says (its 408), so its close is seen
      });
    const slow = await Promise.all(Array.from({ length: 6 }, () => open('127.0.0.1')));
    const closed = slow.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())));
    for (const s of slow) {
      s.on('error', () => undefined); // the two over the cap are reset
      s.write('GET /metrics HTTP/1.1\r\nHost: x\r\n'); // and never the blank line
    }
    // Two over the per-address cap are dropped; another address still gets its scrape.
    const scrape = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: Number(port), path: '/metrics', localAddress: '127.0.0.2' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(scrape).toBe(200);
    // The header deadline closes the rest.
    await Promise.all(closed);
    const self = await (await fetch(`${e.url}/metrics`)).text();
    expect(self).toMatch(/synctop_exporter_connections_refused_total 2/);
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The table covers both modes: the probe's families are the fleet's plus two.
it('probe-only families are exactly the two probe metrics', () => {
  expect([...probeOnlyMetrics].sort()).toEqual(['synctop_probe_duration_seconds', 'synctop_probe_success']);
  expect(fleetMetrics.length + probeOnlyMetrics.length).toBe(Object.keys(metricDefs).length);
});
