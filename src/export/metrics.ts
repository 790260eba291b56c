/**
 * What /metrics says about one device, as data: the metric table (name, help, labels) and a pure
 * function from what the fleet knows of a device to samples. Base units per Prometheus naming
 * (seconds, ratios), names in the style of the chrony exporter.
 *
 * A value the device did not send is no sample at all, never a made-up number; an operation that
 * failed contributes only its synctop_operation_up 0. Series of a source or port that is gone
 * vanish because samples are rebuilt from the latest results at every scrape.
 * Nothing from the alarm configuration but its on/off switch is exported.
 */
import { boundedText, idKey, uniqueKeys } from '../model/keys.js';
import type { GnssReceiver, NtpSource, PtpPort, SectionName, Snapshot } from '../model/snapshot.js';
import { severityRank, type Verdict } from '../monitor/health.js';

interface MetricDef {
  help: string;
  labels: readonly string[];
}

const source = ['device', 'source'] as const;
const receiver = ['device', 'receiver'] as const;
const port = ['device', 'port'] as const;

/** Every metric the exporter can produce. Key = name. */
export const metricDefs = {
  synctop_up: { help: 'Whether the device answered the latest poll of any operation (1) or none (0).', labels: ['device'] },
  synctop_operation_up: {
    help: 'Whether the latest poll of the operation was read (1) or failed (0): network, HTTP, refused permission, device error such as 40003.',
    labels: ['device', 'operation'],
  },
  synctop_poll_duration_seconds: { help: 'Wall time of the latest poll of the operation (PTP: all its port requests).', labels: ['device', 'operation'] },
  synctop_last_poll_timestamp_seconds: { help: 'Unix time when the latest poll of any operation of the device ended.', labels: ['device'] },
  synctop_health_status: { help: 'Health verdict of the synctop rule table: 0 ok, 1 warning, 2 critical.', labels: ['device'] },
  synctop_device_list_items_sent: {
    help: 'Items of a list the device sent when it sent more than synctop keeps; only the first ones are used and exported (absent when nothing was cut).',
    labels: ['device', 'list'],
  },

  synctop_ntp_synchronized: { help: 'Whether NTP overallStatus is Synchronized (1) or not (0).', labels: ['device'] },
  synctop_ntp_source_offset_seconds: { help: 'Adjusted offset of the last sample of the NTP source (positive: local clock ahead).', labels: source },
  synctop_ntp_source_error_seconds: { help: 'Error bound (root distance) of the last sample of the NTP source.', labels: source },
  synctop_ntp_source_stratum: { help: 'Stratum of the NTP source.', labels: source },
  synctop_ntp_source_reachability_ratio: { help: 'Successful polls among the last 8 of the NTP source, as a ratio.', labels: source },
  synctop_ntp_source_poll_interval_seconds: { help: 'Polling interval of the NTP source.', labels: source },
  synctop_ntp_source_state_info: { help: 'Selection state of the NTP source (the state label; always 1).', labels: [...source, 'state'] },
  synctop_ntp_source_is_sync_source: { help: 'Whether the NTP source is the one in use (1) or not (0).', labels: source },

  synctop_gnss_receiver_status_info: { help: 'Status of the GNSS receiver (the status label; always 1).', labels: [...receiver, 'status'] },
  synctop_gnss_antenna_status_info: { help: 'Antenna status of the GNSS receiver (the antenna label; always 1).', labels: [...receiver, 'antenna'] },
  synctop_gnss_pps_valid: { help: 'Whether the receiver flags its PPS as valid (1) or not (0).', labels: receiver },
  synctop_gnss_satellites: { help: 'Satellites tracked by the receiver per constellation.', labels: [...receiver, 'constellation'] },
  synctop_gnss_dop: { help: 'Dilution of precision of the receiver: h horizontal, v vertical, p position.', labels: [...receiver, 'kind'] },

  synctop_ptp_port_state_info: { help: 'Synchronization state of the PTP slave port (the state label; always 1).', labels: [...port, 'state'] },
  synctop_ptp_offset_from_master_seconds: { help: 'Offset of the PTP port from its master.', labels: port },
  synctop_ptp_mean_path_delay_seconds: { help: 'Mean path delay to the PTP master.', labels: port },
  synctop_ptp_cumulative_rate_offset_ratio: { help: 'Cumulative rate offset of the PTP port (ppm * 1e-6).', labels: port },
  synctop_ptp_gm_clock_class: { help: 'Clock class of the grandmaster seen by the PTP port (6: locked to a primary reference).', labels: port },
  synctop_ptp_gm_present: { help: 'Whether the PTP port sees a grandmaster (1) or not (0).', labels: port },

  synctop_alarm_email_enabled: { help: 'Whether alarm e-mail is switched on (1) or off (0).', labels: ['device'] },

  // Only in /probe answers (the multi-target pattern), named as the blackbox exporter names them.
  synctop_probe_success: {
    help: 'Whether the device answered every operation within the probe budget (1) or some operation got no answer (0); an answer that is an error, such as 40003 or a refused permission, counts as an answer.',
    labels: ['device'],
  },
  synctop_probe_duration_seconds: { help: 'Wall time of the probe: every operation of the device, asked at scrape time.', labels: ['device'] },
} as const satisfies Record<string, MetricDef>;

export type MetricName = keyof typeof metricDefs;

/** The families only a /probe answer has; /metrics (the static fleet) has every other one. */
export const probeOnlyMetrics: readonly MetricName[] = ['synctop_probe_success', 'synctop_probe_duration_seconds'];
export const fleetMetrics: readonly MetricName[] = (Object.keys(metricDefs) as MetricName[]).filter((n) => !probeOnlyMetrics.includes(n));

export interface Sample {
  name: MetricName;
  labels: Record<string, string>;
  value: number;
}

/** What the exporter knows of one device without asking it (see Fleet). */
export interface DeviceView {
  device: string;
  snapshot: Snapshot | null;
  polled: Readonly<Record<SectionName, boolean>>;
  durationMs: Readonly<Record<SectionName, number | null>>;
  lastPollAt: number | null;
  /** null until every operation has a result. */
  verdict: Verdict | null;
}

const NS_PER_S = 1e9;
const bit = (b: boolean) => (b ? 1 : 0);
/** Division, not multiplication by 1e-9: 217 / 1e9 is 2.17e-7, 217 * 1e-9 is 2.1700000000000002e-7. */
const per = (v: number | null, divisor: number) => (v === null ? null : v / divisor);

/** One numeric metric per row: how each is read from the entity; null means no sample. */
type Row<T> = [MetricName, (x: T) => number | null];

const ntpRows: Row<NtpSource>[] = [
  ['synctop_ntp_source_offset_seconds', (s) => per(s.offsetNs, NS_PER_S)],
  ['synctop_ntp_source_error_seconds', (s) => per(s.errorNs, NS_PER_S)],
  ['synctop_ntp_source_stratum', (s) => s.stratum],
  ['synctop_ntp_source_reachability_ratio', (s) => per(s.reachCount, 8)],
  ['synctop_ntp_source_poll_interval_seconds', (s) => s.pollSeconds],
  ['synctop_ntp_source_is_sync_source', (s) => bit(s.isSyncSource)],
];

const ptpRows: Row<PtpPort>[] = [
  ['synctop_ptp_offset_from_master_seconds', (p) => per(p.offsetFromMasterNs, NS_PER_S)],
  ['synctop_ptp_mean_path_delay_seconds', (p) => per(p.meanPathDelayNs, NS_PER_S)],
  ['synctop_ptp_cumulative_rate_offset_ratio', (p) => per(p.cumulativeRateOffsetPpm, 1e6)],
  ['synctop_ptp_gm_clock_class', (p) => p.gmClockClass],
  ['synctop_ptp_gm_present', (p) => (p.gmPresent === null ? null : bit(p.gmPresent))],
];

const dopRows: [kind: string, (r: GnssReceiver) => number | null][] = [
  ['h', (r) => r.hdop],
  ['v', (r) => r.vdop],
  ['p', (r) => r.pdop],
];

/** Label values that come from the device may be null; "unknown" keeps the series apart. Bounded. */
const text = (v: string | null) => boundedText(v ?? 'unknown');

function rows<T>(out: Sample[], table: Row<T>[], entity: T, labels: Record<string, string>): void {
  for (const [name, read] of table) {
    const value = read(entity);
    if (value !== null && Number.isFinite(value)) out.push({ name, labels, value });
  }
}

/** Samples of one device. Pure. */
export function deviceSamples(view: DeviceView): Sample[] {
  const out: Sample[] = [];
  const device = view.device;
  const snap = view.snapshot;
  const polled = (Object.keys(view.polled) as SectionName[]).filter((n) => view.polled[n]);
  if (polled.length === 0 || !snap) return out;

  // The device is up when any operation got an answer from it; a refusal (HTTP 403, 40003) is an answer.
  const answered = polled.some((n) => snap[n].ok || snap[n].error.kind !== 'network');
  out.push({ name: 'synctop_up', labels: { device }, value: bit(answered) });
  for (const operation of polled) {
    out.push({ name: 'synctop_operation_up', labels: { device, operation }, value: bit(snap[operation].ok) });
    const ms = view.durationMs[operation];
    if (ms !== null) out.push({ name: 'synctop_poll_duration_seconds', labels: { device, operation }, value: ms / 1000 });
  }
  if (view.lastPollAt !== null) out.push({ name: 'synctop_last_poll_timestamp_seconds', labels: { device }, value: view.lastPollAt / 1000 });
  if (view.verdict) out.push({ name: 'synctop_health_status', labels: { device }, value: severityRank[view.verdict.severity] });
  for (const operation of polled) {
    const section = snap[operation];
    for (const c of section.ok ? (section.data.capped ?? []) : []) out.push({ name: 'synctop_device_list_items_sent', labels: { device, list: c.list }, value: c.sent });
  }

  if (view.polled.ntp && snap.ntp.ok) {
    const ntp = snap.ntp.data;
    if (ntp.overallStatus !== null) out.push({ name: 'synctop_ntp_synchronized', labels: { device }, value: bit(ntp.overallStatus === 'Synchronized') });
    // Two sources with one name would collapse into one series (the last wins): keys are unique.
    const keys = uniqueKeys(ntp.sources.map((s) => boundedText(s.name)));
    ntp.sources.forEach((s, i) => {
      const labels = { device, source: keys[i]! };
      rows(out, ntpRows, s, labels);
      out.push({ name: 'synctop_ntp_source_state_info', labels: { ...labels, state: text(s.state) }, value: 1 });
    });
  }
  if (view.polled.gnss && snap.gnss.ok) {
    const receivers = snap.gnss.data.receivers;
    const keys = uniqueKeys(receivers.map((r, i) => idKey(r.id, i)));
    receivers.forEach((r, i) => {
      const labels = { device, receiver: keys[i]! };
      out.push({ name: 'synctop_gnss_receiver_status_info', labels: { ...labels, status: text(r.status) }, value: 1 });
      out.push({ name: 'synctop_gnss_antenna_status_info', labels: { ...labels, antenna: text(r.antenna) }, value: 1 });
      if (r.ppsValid !== null) out.push({ name: 'synctop_gnss_pps_valid', labels, value: bit(r.ppsValid) });
      for (const [constellation, count] of Object.entries(r.satellites)) {
        if (count !== null) out.push({ name: 'synctop_gnss_satellites', labels: { ...labels, constellation }, value: count });
      }
      for (const [kind, read] of dopRows) {
        const v = read(r);
        if (v !== null) out.push({ name: 'synctop_gnss_dop', labels: { ...labels, kind }, value: v });
      }
    });
  }
  if (view.polled.ptp && snap.ptp.ok) {
    const ports = snap.ptp.data.ports;
    const keys = uniqueKeys(ports.map((p, i) => idKey(p.id, i)));
    ports.forEach((p, i) => {
      // A port that answered with its own error has no data; its absence says so.
      if (!p.ok) return;
      const labels = { device, port: keys[i]! };
      out.push({ name: 'synctop_ptp_port_state_info', labels: { ...labels, state: text(p.syncState) }, value: 1 });
      rows(out, ptpRows, p, labels);
    });
  }
  if (view.polled.alarm && snap.alarm.ok && snap.alarm.data.emailAlertEnabled !== null) {
    out.push({ name: 'synctop_alarm_email_enabled', labels: { device }, value: bit(snap.alarm.data.emailAlertEnabled) });
  }
  return out;
}

/**
 * The two samples a /probe answer adds to the device's own: whether every operation got an
 * answer within the budget, and how long the probe took. Pure.
 */
export function probeSamples(device: string, snapshot: Snapshot, durationMs: number): Sample[] {
  const sections = [snapshot.ntp, snapshot.gnss, snapshot.ptp, snapshot.alarm];
  const answered = sections.every((s) => s.ok || s.error.kind !== 'network');
  return [
    { name: 'synctop_probe_success', labels: { device }, value: bit(answered) },
    { name: 'synctop_probe_duration_seconds', labels: { device }, value: durationMs / 1000 },
  ];
}
