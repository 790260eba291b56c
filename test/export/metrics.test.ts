/** deviceSamples, the pure core of /metrics: what becomes a sample and what does not. */
import { describe, expect, it } from 'vitest';
import { deviceSamples, type DeviceView } from '../../src/export/metrics.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { healthy, port, receiver, source } from '../monitor/snapshots.js';

const all = { ntp: true, gnss: true, ptp: true, alarm: true };
const none = { ntp: false, gnss: false, ptp: false, alarm: false };
const ms = { ntp: 12, gnss: 8, ptp: 30, alarm: null };

function view(snapshot: Snapshot, over: Partial<DeviceView> = {}): DeviceView {
  return { device: 'http://d', snapshot, polled: all, durationMs: ms, lastPollAt: 1_800_000_000_500, verdict: { severity: 'ok', findings: [] }, ...over };
}

const pick = (v: DeviceView, name: string) => deviceSamples(v).filter((s) => s.name === name);

describe('deviceSamples', () => {
  it('nothing before the first result', () => {
    expect(deviceSamples(view(healthy(), { polled: none }))).toEqual([]);
    expect(deviceSamples(view(healthy(), { snapshot: null }))).toEqual([]);
  });

  it.each([
    ['synctop_ntp_source_offset_seconds', { device: 'http://d', source: 'GPS' }, 50e-9],
    ['synctop_ntp_source_reachability_ratio', { device: 'http://d', source: 'GPS' }, 1],
    ['synctop_ptp_offset_from_master_seconds', { device: 'http://d', port: '0' }, 12e-9],
    ['synctop_ptp_mean_path_delay_seconds', { device: 'http://d', port: '0' }, 850e-9],
    ['synctop_ptp_cumulative_rate_offset_ratio', { device: 'http://d', port: '0' }, 0.01e-6],
    ['synctop_poll_duration_seconds', { device: 'http://d', operation: 'ptp' }, 0.03],
    ['synctop_last_poll_timestamp_seconds', { device: 'http://d' }, 1_800_000_000.5],
    ['synctop_health_status', { device: 'http://d' }, 0],
    ['synctop_up', { device: 'http://d' }, 1],
  ])('%s %j = %d (base units)', (name, labels, value) => {
    const found = pick(view(healthy()), name).find((s) => JSON.stringify(s.labels) === JSON.stringify(labels));
    expect(found?.value).toBeCloseTo(value, 15);
  });

  it('device-chosen names and ids become unique, bounded label values', () => {
    const snap = healthy();
    if (snap.ntp.ok) snap.ntp.data.sources = [source({ name: 'GPS' }), source({ name: 'GPS' }), source({ name: 'x'.repeat(5000) })];
    if (snap.gnss.ok) snap.gnss.data.receivers = [receiver({ id: 0 }), receiver({ id: 1e21 }), receiver({ id: 0.5 }), receiver({ id: 0 })];
    const v = view(snap);
    // Before, the two GPS sources were one series (the last won) and the ids were label text as sent.
    expect(pick(v, 'synctop_ntp_source_stratum').map((s) => s.labels.source)).toEqual(['GPS', 'GPS#2', `${'x'.repeat(127)}…`]);
    expect(pick(v, 'synctop_gnss_pps_valid').map((s) => s.labels.receiver)).toEqual(['0', '1', '2', '0#2']);
  });

  it('a value the device did not send is no sample, never 0', () => {
    const snap = healthy();
    if (snap.ntp.ok) snap.ntp.data.sources = [source({ name: 'n', offsetNs: null, stratum: null, reachCount: null })];
    if (snap.gnss.ok) snap.gnss.data.receivers = [receiver({ ppsValid: null, hdop: null, satellites: { gps: 3, glonass: null, bds: null, galileo: null } })];
    if (snap.ptp.ok) snap.ptp.data.ports = [port({ offsetFromMasterNs: null, gmPresent: null })];
    const v = view(snap);
    expect(pick(v, 'synctop_ntp_source_offset_seconds')).toEqual([]);
    expect(pick(v, 'synctop_ntp_source_stratum')).toEqual([]);
    expect(pick(v, 'synctop_ntp_source_reachability_ratio')).toEqual([]);
    expect(pick(v, 'synctop_gnss_pps_valid')).toEqual([]);
    expect(pick(v, 'synctop_gnss_satellites').map((s) => s.labels.constellation)).toEqual(['gps']);
    expect(pick(v, 'synctop_gnss_dop').map((s) => s.labels.kind)).toEqual(['v', 'p']);
    expect(pick(v, 'synctop_ptp_offset_from_master_seconds')).toEqual([]);
    expect(pick(v, 'synctop_ptp_gm_present')).toEqual([]);
    expect(pick(v, 'synctop_ptp_gm_clock_class')).toHaveLength(1);
  });

  it('a failed operation leaves only its operation_up 0; a pending one leaves nothing', () => {
    const snap = healthy();
    snap.ptp = { ok: false, error: { kind: 'auth', code: '403', message: 'permission refused' } };
    const v = view(snap, { polled: { ...all, alarm: false } });
    expect(pick(v, 'synctop_operation_up').map((s) => [s.labels.operation, s.value])).toEqual([
      ['ntp', 1],
      ['gnss', 1],
      ['ptp', 0],
    ]);
    expect(pick(v, 'synctop_ptp_port_state_info')).toEqual([]);
    expect(pick(v, 'synctop_alarm_email_enabled')).toEqual([]);
    expect(pick(v, 'synctop_up')[0]?.value).toBe(1);
  });

  it('up is 0 only when every polled operation failed on the network', () => {
    const snap = healthy();
    const down = { ok: false as const, error: { kind: 'network' as const, message: 'refused' } };
    Object.assign(snap, { ntp: down, gnss: down, ptp: down, alarm: down });
    expect(pick(view(snap), 'synctop_up')[0]?.value).toBe(0);
  });

  it('a port with its own error has no series; state labels carry "unknown" for a missing state', () => {
    const snap = healthy();
    if (snap.ptp.ok) snap.ptp.data.ports = [port({ id: 0, ok: false }), port({ id: 3, syncState: null })];
    expect(pick(view(snap), 'synctop_ptp_port_state_info').map((s) => s.labels)).toEqual([{ device: 'http://d', port: '3', state: 'unknown' }]);
  });

  it('exports nothing of the alarm configuration but the switch', () => {
    const snap = healthy();
    const text = JSON.stringify(deviceSamples(view(snap)));
    if (snap.alarm.ok) {
      for (const v of [snap.alarm.data.smtpPassword, snap.alarm.data.smtpUsername, snap.alarm.data.smtpServer]) if (v) expect(text).not.toContain(v);
    }
    expect(pick(view(snap), 'synctop_alarm_email_enabled')).toHaveLength(1);
  });
});
