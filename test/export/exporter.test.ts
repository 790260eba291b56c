/**
 * The exporter in-process against simulated devices over real HTTP: /metrics parsed by a
 * Prometheus text-format parser, device and operation liveness kept apart, series that vanish
 * with their source, a stalled device that never delays a scrape, no secret in the output.
 */
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { startExporter, type Exporter, type ExporterOptions } from '../../src/export/exporter.js';
import { metricDefs } from '../../src/export/metrics.js';
import type { Simulator } from '../../src/sim/server.js';
import { cleanups, sims } from './simulators.js';


async function exporter(devices: Simulator[] | string[], over: Partial<ExporterOptions> = {}, timeoutMs = 400): Promise<Exporter> {
  const urls = devices.map((d) => (typeof d === 'string' ? d : d.url));
  const e = await startExporter({
    host: '127.0.0.1',
    port: 0,
    devices: urls.map((baseUrl) => ({ baseUrl, timeoutMs })),
    intervalMs: 250,
    ptpPorts: 'auto',
    spreadMs: 0,
    ...over,
  });
  cleanups.push(() => e.close());
  return e;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

type Families = Map<string, ParsedFamily>;

async function scrape(e: Exporter): Promise<{ text: string; families: Families; type: string | null }> {
  const res = await fetch(`${e.url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, families: new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])), type: res.headers.get('content-type') };
}

/** The value of one series, undefined when the series is absent. */
function value(families: Families, name: string, labels: Record<string, string>): number | undefined {
  const series = families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return series?.value === undefined ? undefined : Number(series.value);
}

function series(families: Families, name: string, labels: Record<string, string> = {}) {
  return (families.get(name)?.metrics ?? []).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

const allPolled = (e: Exporter) => e.fleet.devices.every((d) => Object.values(d.polled).every(Boolean)) || undefined;

describe('exporter', () => {
  it('exports every device with the documented names, labels and base units', async () => {
    const [a, b, c] = await sims({ scenario: 'healthy' }, { scenario: 'gnss-antenna-open' }, { scenario: 'no-gnss' });
    const e = await exporter([a!, b!, c!]);
    await until(() => allPolled(e), 'every operation of every device polled');
    const { families, type, text } = await scrape(e);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);

    // Every device family is a gauge from the table, with the table's labels and no others; the
    // rest are the exporter's own (process and synctop_exporter_*).
    for (const [name, family] of families) {
      if (!name.startsWith('synctop_') || name.startsWith('synctop_exporter_')) continue;
      const def = metricDefs[name as keyof typeof metricDefs];
      expect(def, `${name} is in the table`).toBeDefined();
      expect(family.type).toBe('GAUGE');
      for (const m of family.metrics) expect(Object.keys(m.labels ?? {}).sort()).toEqual([...def.labels].sort());
    }
    for (const name of ['synctop_up', 'synctop_operation_up', 'synctop_ntp_synchronized', 'synctop_ntp_source_offset_seconds', 'synctop_ntp_source_error_seconds', 'synctop_ntp_source_stratum', 'synctop_ntp_source_reachability_ratio', 'synctop_ntp_source_poll_interval_seconds', 'synctop_ntp_source_state_info', 'synctop_ntp_source_is_sync_source', 'synctop_gnss_receiver_status_info', 'synctop_gnss_antenna_status_info', 'synctop_gnss_pps_valid', 'synctop_gnss_satellites', 'synctop_gnss_dop', 'synctop_ptp_port_state_info', 'synctop_ptp_offset_from_master_seconds', 'synctop_ptp_mean_path_delay_seconds', 'synctop_ptp_cumulative_rate_offset_ratio', 'synctop_ptp_gm_clock_class', 'synctop_ptp_gm_present', 'synctop_alarm_email_enabled', 'synctop_poll_duration_seconds', 'synctop_health_status', 'synctop_last_poll_timestamp_seconds']) {
      expect(families.has(name), name).toBe(true);
    }

    const A = { device: a!.url };
    for (const d of [a!, b!, c!]) expect(value(families, 'synctop_up', { device: d.url })).toBe(1);
    expect(value(families, 'synctop_ntp_synchronized', A)).toBe(1);
    // Seconds, not nanoseconds: the PTP offsets are tens of ns, the path delays about a microsecond.
    const offset = value(families, 'synctop_ptp_offset_from_master_seconds', { ...A, port: '0' })!;
    expect(Math.abs(offset)).toBeGreaterThan(0);
    expect(Math.abs(offset)).toBeLessThan(1e-6);
    const delay = value(families, 'synctop_ptp_mean_path_delay_seconds', { ...A, port: '1' })!;
    expect(delay).toBeGreaterThan(1e-7);
    expect(delay).toBeLessThan(1e-5);
    expect(Math.abs(value(families, 'synctop_ptp_cumulative_rate_offset_ratio', { ...A, port: '0' })!)).toBeLessThan(1e-6);
    expect(value(families, 'synctop_ptp_gm_clock_class', { ...A, port: '0' })).toBe(6);
    expect(value(families, 'synctop_ptp_gm_present', { ...A, port: '0' })).toBe(1);
    expect(value(families, 'synctop_ptp_port_state_info', { ...A, port: '0', state: 'STABLE' })).toBe(1);
    expect(series(families, 'synctop_ptp_port_state_info', A)).toHaveLength(2);

    const gps = { ...A, source: 'GPS' };
    expect(Math.abs(value(families, 'synctop_ntp_source_offset_seconds', gps)!)).toBeLessThan(1e-5);
    expect(value(families, 'synctop_ntp_source_error_seconds', gps)).toBeLessThan(1e-4);
    expect(value(families, 'synctop_ntp_source_stratum', gps)).toBe(1);
    expect(value(families, 'synctop_ntp_source_poll_interval_seconds', gps)).toBe(16);
    expect(value(families, 'synctop_ntp_source_is_sync_source', gps)).toBe(1);
    expect(value(families, 'synctop_ntp_source_state_info', { ...gps, state: 'Best source' })).toBe(1);
    const ratio = value(families, 'synctop_ntp_source_reachability_ratio', { ...A, source: '192.168.10.20' })!;
    expect(ratio).toBeGreaterThanOrEqual(0);
    expect(ratio).toBeLessThanOrEqual(1);
    expect(ratio * 8).toBe(Math.round(ratio * 8));

    expect(value(families, 'synctop_gnss_satellites', { ...A, receiver: '0', constellation: 'gps' })).toBe(10);
    expect(value(families, 'synctop_gnss_pps_valid', { ...A, receiver: '0' })).toBe(1);
    expect(value(families, 'synctop_gnss_receiver_status_info', { ...A, receiver: '1', status: 'standby' })).toBe(1);
    expect(series(families, 'synctop_gnss_dop', { ...A, receiver: '0' }).map((m) => m.labels?.kind).sort()).toEqual(['h', 'p', 'v']);
    expect(value(families, 'synctop_alarm_email_enabled', A)).toBe(1);
    expect(value(families, 'synctop_health_status', A)).toBe(0);
    const duration = value(families, 'synctop_poll_duration_seconds', { ...A, operation: 'ntp' })!;
    expect(duration).toBeGreaterThan(0);
    expect(duration).toBeLessThan(0.4);
    const last = value(families, 'synctop_last_poll_timestamp_seconds', A)!;
    expect(Math.abs(last - Date.now() / 1000)).toBeLessThan(60);

    // The antenna device: CRITICAL verdict, antenna open, PPS invalid.
    const B = { device: b!.url };
    expect(value(families, 'synctop_health_status', B)).toBe(2);
    expect(value(families, 'synctop_gnss_antenna_status_info', { ...B, receiver: '0', antenna: 'open' })).toBe(1);
    expect(value(families, 'synctop_gnss_pps_valid', { ...B, receiver: '0' })).toBe(0);

    // No GNSS receiver (40003): that operation is down, the device is not.
    const C = { device: c!.url };
    expect(value(families, 'synctop_operation_up', { ...C, operation: 'gnss' })).toBe(0);
    expect(value(families, 'synctop_operation_up', { ...C, operation: 'ntp' })).toBe(1);
    expect(series(families, 'synctop_gnss_satellites', C)).toHaveLength(0);

    expect(text).not.toContain('Demo-Smtp-Pa55');
    expect(text).not.toContain('smtp');
  });

  it('a refused permission is operation_up 0 and up 1; the bearer token and SMTP password never appear', async () => {
    const [denied] = await sims({ deny: ['alarm'], token: 'tok-SECRET-123' });
    const e = await startExporter({
      host: '127.0.0.1',
      port: 0,
      devices: [{ baseUrl: denied!.url, timeoutMs: 400, headers: { Authorization: 'Bearer tok-SECRET-123' } }],
      intervalMs: 250,
      ptpPorts: 'auto',
      spreadMs: 0,
    });
    cleanups.push(() => e.close());
    await until(() => allPolled(e), 'polled');
    const { families, text } = await scrape(e);
    const D = { device: denied!.url };
    expect(value(families, 'synctop_up', D)).toBe(1);
    expect(value(families, 'synctop_operation_up', { ...D, operation: 'alarm' })).toBe(0);
    expect(value(families, 'synctop_operation_up', { ...D, operation: 'ntp' })).toBe(1);
    expect(value(families, 'synctop_alarm_email_enabled', D)).toBeUndefined();
    // A refused operation is unreadable to the rule table: a warning, not a device down.
    expect(value(families, 'synctop_health_status', D)).toBe(1);
    expect(text).not.toContain('tok-SECRET-123');
    expect(text).not.toContain('Demo-Smtp-Pa55');
  });

  it('a device that goes away drops to up 0 and loses its data series; the others stay up', async () => {
    const [a, b] = await sims({}, {});
    const e = await exporter([a!, b!]);
    await until(() => allPolled(e), 'polled');
    const before = await scrape(e);
    expect(value(before.families, 'synctop_up', { device: a!.url })).toBe(1);
    expect(series(before.families, 'synctop_ntp_source_offset_seconds', { device: a!.url }).length).toBeGreaterThan(0);

    await a!.close();
    const after = await until(async () => {
      const s = await scrape(e);
      return value(s.families, 'synctop_up', { device: a!.url }) === 0 ? s : undefined;
    }, 'synctop_up 0 for the closed device');
    expect(value(after.families, 'synctop_up', { device: b!.url })).toBe(1);
    expect(value(after.families, 'synctop_health_status', { device: a!.url })).toBe(2);
    expect(series(after.families, 'synctop_ntp_source_offset_seconds', { device: a!.url })).toHaveLength(0);
    expect(series(after.families, 'synctop_ptp_port_state_info', { device: a!.url })).toHaveLength(0);
    expect(series(after.families, 'synctop_ntp_source_offset_seconds', { device: b!.url }).length).toBeGreaterThan(0);
  });

  it('a rebooting device comes back to up 1', async () => {
    const [a] = await sims({});
    const e = await exporter([a!]);
    await until(() => allPolled(e), 'polled');
    const rebooted = a!.reboot(1200);
    await until(async () => (value((await scrape(e)).families, 'synctop_up', { device: a!.url }) === 0 ? true : undefined), 'down during reboot');
    await rebooted;
    // Backoff grows from the interval (250 ms) and is capped; the device is back within seconds.
    await until(async () => (value((await scrape(e)).families, 'synctop_up', { device: a!.url }) === 1 ? true : undefined), 'up after reboot', 15_000);
  });

  it('series of a source or port that disappears are removed', async () => {
    const [a] = await sims({ scenario: 'healthy' });
    const e = await exporter([a!], { ptpPorts: [0, 1] });
    await until(() => allPolled(e), 'polled');
    const A = { device: a!.url };
    const before = await scrape(e);
    expect(value(before.families, 'synctop_ntp_source_stratum', { ...A, source: 'GPS' })).toBe(1);
    expect(series(before.families, 'synctop_ptp_port_state_info', { ...A, port: '1' })).toHaveLength(1);

    // no-gnss: no GPS source, only PTP port 0 (port 1 now answers 40004), no receivers.
    a!.setScenario('no-gnss');
    const after = await until(async () => {
      const s = await scrape(e);
      return value(s.families, 'synctop_ntp_source_stratum', { ...A, source: 'GPS' }) === undefined &&
        series(s.families, 'synctop_gnss_satellites', A).length === 0 &&
        series(s.families, 'synctop_ptp_port_state_info', { ...A, port: '1' }).length === 0
        ? s
        : undefined;
    }, 'the GPS source, port 1 and the receivers gone');
    expect(series(after.families, 'synctop_ntp_source_state_info', A)).toHaveLength(3);
    expect(series(after.families, 'synctop_ptp_port_state_info', { ...A, port: '0' })).toHaveLength(1);
    expect(value(after.families, 'synctop_up', A)).toBe(1);
  });

  it('/metrics answers while a device stalls: it never waits on a device', async () => {
    const [stalled, fine] = await sims({}, {});
    // A long deadline, so the stalled request is still on the wire when we scrape.
    const e = await exporter([stalled!, fine!], {}, 10_000);
    await until(() => allPolled(e), 'polled');
    stalled!.setFault('all', { kind: 'stall-headers' });
    await until(() => (Object.values(stalled!.stats.inFlight).some((n) => n > 0) ? true : undefined), 'a stalled request in flight');
    const { families } = await scrape(e);
    // The scrape came back while the device still holds the request.
    expect(Object.values(stalled!.stats.inFlight).some((n) => n > 0)).toBe(true);
    expect(value(families, 'synctop_up', { device: fine!.url })).toBe(1);
    expect(value(families, 'synctop_up', { device: stalled!.url })).toBe(1);
  });

  it('serves a page with a link at /, 404 elsewhere, 405 for other methods', async () => {
    const e = await exporter(['http://127.0.0.1:1']);
    const page = await fetch(`${e.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<a href="/metrics">');
    const missing = await fetch(`${e.url}/metrics/extra`);
    expect(missing.status).toBe(404);
    await missing.text();
    const post = await fetch(`${e.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.text();
  });

  it('before the first answer a device has no up series, then up 0 when nothing listens', async () => {
    const e = await exporter(['http://127.0.0.1:1'], {}, 300);
    const s = await until(async () => {
      const x = await scrape(e);
      return value(x.families, 'synctop_up', { device: 'http://127.0.0.1:1' }) !== undefined ? x : undefined;
    }, 'an up series');
    expect(value(s.families, 'synctop_up', { device: 'http://127.0.0.1:1' })).toBe(0);
    expect(series(s.families, 'synctop_ntp_source_offset_seconds')).toHaveLength(0);
  });

  it('keeps the fleet under its cap of requests in flight', async () => {
    const devices = await sims(...Array.from({ length: 8 }, () => ({})));
    const e = await exporter(devices, { maxInFlight: 2, intervalMs: 200 });
    await until(() => allPolled(e), 'polled');
    expect(e.fleet.limiter.peak).toBeGreaterThanOrEqual(1);
    expect(e.fleet.limiter.peak).toBeLessThanOrEqual(2);
    for (const d of devices) for (const n of Object.values(d.stats.maxInFlight)) expect(n).toBeLessThanOrEqual(1);
  });
});
