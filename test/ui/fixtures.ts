/**
 * Hand-written MonitorState fixtures for the view tests, and a tiny fake MonitorController (a
 * plain object holding a state and counting commands; not an HTTP mock).
 */
import type { AlarmData, GnssReceiver, NtpSource, PtpPort, Snapshot } from '../../src/model/snapshot.js';
import { SNAPSHOT_SCHEMA_ID } from '../../src/model/snapshot.js';
import { HistoryStore, seriesKey } from '../../src/monitor/history.js';
import type { DeviceChoice, MonitorController, MonitorState, SectionState } from '../../src/monitor/state.js';
import { initialState } from '../../src/monitor/state.js';

/** 2026-11-22 14:02:30 UTC. */
export const NOW = Date.UTC(2026, 10, 22, 14, 2, 30);
export const DEVICE = 'https://10.20.0.5';
export const INTERVAL = 2000;

function good<T>(data: T, ageMs = 1500): SectionState<T> {
  return { data, receivedAt: NOW - ageMs, error: null, errorSince: null, attemptedAt: NOW - ageMs };
}

export function ntpSource(over: Partial<NtpSource> & { name: string }): NtpSource {
  return {
    mode: 'Server',
    state: 'Selectable',
    isSyncSource: false,
    stratum: 2,
    pollSeconds: 64,
    reach: '377',
    reachCount: 8,
    lastRxSeconds: 35,
    offsetNs: 12_300,
    measuredOffsetNs: 12_800,
    errorNs: 450_000,
    ...over,
  };
}

export const healthySources: NtpSource[] = [
  ntpSource({ name: 'ntp1.example.net', state: 'Best source', isSyncSource: true, stratum: 1, offsetNs: -850, measuredOffsetNs: -900, errorNs: 21_000 }),
  ntpSource({ name: 'ntp2.example.net', state: 'Combined with best', offsetNs: 41_200, measuredOffsetNs: 40_900 }),
  ntpSource({ name: '192.168.10.4', state: 'Selectable', reach: '177', reachCount: 7, offsetNs: -1_250_000 }),
  ntpSource({ name: 'time.bad.example', state: 'False ticker', stratum: 3, offsetNs: 2_500_000_000, reach: '017', reachCount: 4, lastRxSeconds: 1020 }),
  ntpSource({ name: 'PPS0', mode: 'Reference clock', state: 'Too variable', stratum: 0, pollSeconds: 16, offsetNs: 120_000 }),
  ntpSource({ name: '[fe80::1]', state: 'Not selectable', reach: '000', reachCount: 0, lastRxSeconds: null, offsetNs: null, measuredOffsetNs: null, errorNs: null }),
];

export function receiver(over: Partial<GnssReceiver>): GnssReceiver {
  return {
    id: 0,
    status: 'working',
    antenna: 'normal',
    ppsValid: true,
    latitudeDeg: 22.543096,
    longitudeDeg: -113.950012,
    altitudeM: 43.5,
    hdop: 0.9,
    vdop: 1.2,
    pdop: 1.5,
    utc: '2026-11-22T14:02:28.000Z',
    gpsLeapSeconds: 18,
    bdsLeapSeconds: 4,
    satellites: { gps: 12, glonass: 8, bds: 11, galileo: 2 },
    satellitesTotal: 33,
    ...over,
  };
}

export function ptpPort(over: Partial<PtpPort> & { id: number }): PtpPort {
  return {
    ok: true,
    portNumber: over.id + 1,
    syncState: 'STABLE',
    offsetFromMasterNs: 12,
    meanPathDelayNs: 1_480,
    masterOffsetNs: -8,
    stepsRemoved: 1,
    cumulativeRateOffsetPpm: 0.012,
    gmPresent: true,
    gmIdentity: '001122.3344.556677',
    parentPortIdentity: '001122.3344.556677-1',
    gmClockClass: 6,
    gmClockAccuracy: 0x21,
    gmOffsetScaledLogVariance: 20061,
    gmPriority1: 128,
    gmPriority2: 128,
    lastUpdate: Math.floor(NOW / 1000) - 3,
    ...over,
  };
}

export const healthyAlarm: AlarmData = {
  emailAlertEnabled: true,
  senderEmail: 'timeserver@example.net',
  senderName: 'Time Server 5',
  recipientEmails: ['noc@example.net', 'ops@example.net'],
  alertLevel: 'major',
  includeDeviceId: true,
  smtpServer: 'smtp.example.net',
  smtpPort: 587,
  smtpTimeout: 30,
  smtpUseTLS: true,
  smtpUseAuth: true,
  smtpUsername: 'timeserver@example.net',
  smtpPassword: '***',
  emailSubjectPrefix: '[TS5]',
  checkInterval: 60,
  maxEmailsPerHour: 20,
  retryCount: 3,
  retryDelay: 10,
};

function withHistory(state: MonitorState): MonitorState {
  for (let i = 0; i < 30; i++) {
    for (const src of state.ntp.data?.sources ?? []) {
      state.history.push(seriesKey.ntpOffset(src.name), src.offsetNs === null ? null : src.offsetNs + Math.sin(i / 3) * 2000);
    }
    for (const rx of state.gnss.data?.receivers ?? []) {
      for (const c of ['gps', 'glonass', 'bds', 'galileo'] as const) {
        const n = rx.satellites[c];
        state.history.push(seriesKey.gnssCount(rx.id, c), n === null ? null : n - (i % 3));
      }
      state.history.push(seriesKey.gnssTotal(rx.id), rx.satellitesTotal);
    }
    for (const p of state.ptp.data?.ports ?? []) state.history.push(seriesKey.ptpOffset(p.id), p.offsetFromMasterNs === null ? null : p.offsetFromMasterNs + (i % 5) - 2);
  }
  return state;
}

export function healthyState(): MonitorState {
  const s = initialState(DEVICE, INTERVAL);
  s.lastUpdateAt = NOW - 1500;
  s.ntp = good({ overallStatus: 'Synchronized', syncSource: 'ntp1.example.net', sourceCount: healthySources.length, sources: healthySources });
  s.gnss = good({ receivers: [receiver({ id: 0 }), receiver({ id: 1, status: 'standby', satellites: { gps: 10, glonass: 0, bds: 9, galileo: 0 }, satellitesTotal: 19 })] });
  s.ptp = good({ ports: [ptpPort({ id: 0 }), ptpPort({ id: 1, syncState: 'ACQUIRING', offsetFromMasterNs: 15_300, gmClockClass: 7 })] });
  s.alarm = good(healthyAlarm);
  s.version = 1;
  return withHistory(s);
}

/** Nulls everywhere the device may omit, a standby receiver with almost nothing, unknown enum text. */
export function irregularState(): MonitorState {
  const s = initialState(DEVICE, INTERVAL);
  s.lastUpdateAt = NOW - 1500;
  s.ntp = good({
    overallStatus: 'Not synchronized',
    syncSource: null,
    sourceCount: null,
    sources: [
      ntpSource({ name: 'ntp1.example.net', state: 'Warming up', mode: null, stratum: null, pollSeconds: null, reach: null, reachCount: null, lastRxSeconds: null, offsetNs: null, measuredOffsetNs: null, errorNs: null }),
      ntpSource({ name: '时间服务器.例子.cn', state: 'Selectable', offsetNs: 9_000 }),
    ],
  });
  const standby: GnssReceiver = {
    id: 1,
    status: 'standby',
    antenna: null,
    ppsValid: null,
    latitudeDeg: 22.5,
    longitudeDeg: 113.9,
    altitudeM: null,
    hdop: null,
    vdop: null,
    pdop: null,
    utc: null,
    gpsLeapSeconds: null,
    bdsLeapSeconds: null,
    satellites: { gps: null, glonass: null, bds: null, galileo: null },
    satellitesTotal: null,
  };
  s.gnss = good({ receivers: [standby, receiver({ id: 0, antenna: 'open', ppsValid: false, hdop: null, utc: null })] });
  s.ptp = good({
    ports: [
      ptpPort({ id: 0, syncState: null, offsetFromMasterNs: null, gmPresent: null, gmIdentity: null, gmClockClass: null, gmClockAccuracy: 0x99, lastUpdate: null }),
      { ...ptpPort({ id: 1 }), ok: false, error: { kind: 'device', code: '40004', message: 'no PTP slave port with that id' } },
    ],
  });
  s.alarm = good({
    ...healthyAlarm,
    emailAlertEnabled: false,
    senderName: null,
    recipientEmails: [],
    smtpPassword: null,
    smtpServer: null,
    smtpPort: null,
    retryCount: null,
    alertLevel: null,
  });
  s.version = 1;
  return withHistory(s);
}

/** GNSS refused with 40003 (no receiver or no permission); the rest healthy. */
export function gnssNoReceiverState(): MonitorState {
  const s = healthyState();
  s.gnss = { data: null, receivedAt: null, error: { kind: 'device', code: '40003', message: 'no GNSS receiver, or no permission to see it' }, errorSince: NOW - 10_000, attemptedAt: NOW - 1500 };
  return s;
}

export const PTP_AUTH_MESSAGE = 'permission refused (HTTP 403): the user lacks ptp:status_list';

/** PTP refused by permission, with last good data from a minute ago. */
export function ptpAuthRefusedState(): MonitorState {
  const s = healthyState();
  s.ptp = { ...s.ptp, receivedAt: NOW - 60_000, error: { kind: 'auth', code: '403', message: PTP_AUTH_MESSAGE }, errorSince: NOW - 30_000 };
  return s;
}

export const OUTAGE_REASON = 'connection refused: nothing listens at that address and port';

/** The device stopped answering 40 s ago; every section keeps its last data, now stale. */
export function unreachableState(): MonitorState {
  const s = healthyState();
  const err = { kind: 'network' as const, code: 'ECONNREFUSED', message: OUTAGE_REASON };
  for (const name of ['ntp', 'gnss', 'ptp', 'alarm'] as const) {
    const sec = s[name] as SectionState<unknown>;
    sec.receivedAt = NOW - 45_000;
    sec.error = err;
    sec.errorSince = NOW - 40_000;
  }
  s.lastUpdateAt = NOW - 45_000;
  s.unreachable = { since: NOW - 40_000, retryAt: NOW + 8_000, reason: OUTAGE_REASON };
  return s;
}

/** No answer yet at all. */
export function emptyState(): MonitorState {
  return initialState(DEVICE, INTERVAL);
}

export interface FakeController extends MonitorController {
  pollCount: number;
  pausedCalls: boolean[];
  setState(next: MonitorState): void;
}

export function fakeController(initial: MonitorState): FakeController {
  let state = initial;
  const listeners = new Set<() => void>();
  const publish = (next: MonitorState) => {
    state = next;
    for (const l of listeners) l();
  };
  const ctl: FakeController = {
    pollCount: 0,
    pausedCalls: [],
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pollNow() {
      ctl.pollCount++;
    },
    setPaused(paused) {
      ctl.pausedCalls.push(paused);
      publish({ ...state, paused, version: state.version + 1 });
    },
    setState: publish,
  };
  return ctl;
}

/** A controller that also records the replay steps and device switches the keys ask for. */
export interface RecordingController extends FakeController {
  steps: (1 | -1)[];
  switched: string[];
}

export function recordingController(initial: MonitorState, devices: DeviceChoice[] = [], clock?: () => number): RecordingController {
  const base = fakeController(initial);
  const ctl: RecordingController = Object.assign(base, {
    steps: [] as (1 | -1)[],
    switched: [] as string[],
    step(delta: 1 | -1) {
      ctl.steps.push(delta);
    },
    ...(devices.length > 0
      ? {
          devices: () => devices,
          switchDevice(name: string) {
            ctl.switched.push(name);
          },
        }
      : {}),
    ...(clock ? { now: clock } : {}),
  });
  return ctl;
}

/** The sections as a snapshot, for the state clock (which reads snapshots). */
export function snapshotOf(state: MonitorState, at: number): Snapshot {
  const section = <T,>(s: SectionState<T>) => (s.data !== null ? { ok: true as const, data: s.data } : { ok: false as const, error: s.error ?? { kind: 'network' as const, message: 'not polled yet' } });
  return {
    schema: SNAPSHOT_SCHEMA_ID,
    device: state.device,
    takenAt: new Date(at).toISOString(),
    ntp: section(state.ntp),
    gnss: section(state.gnss),
    ptp: section(state.ptp),
    alarm: section(state.alarm),
  } as Snapshot;
}

export const EVENT_TIMES = { info: NOW - 60_000, critical: NOW - 40_000, warning: NOW - 20_000, ok: NOW - 5_000 };

/**
 * What the field-insight views read: an event of each severity, time in state (most things
 * for 2h14m, the false ticker for 35s), a receiver whose GPS and BDS leap seconds disagree,
 * an alarm configuration that will not deliver (587 without TLS).
 */
export function insightState(): MonitorState {
  const s = healthyState();
  s.gnss = good({ receivers: [receiver({ id: 0, gpsLeapSeconds: 18, bdsLeapSeconds: 5 }), receiver({ id: 1, status: 'standby' })] });
  s.alarm = good({ ...healthyAlarm, smtpUseTLS: false });
  const before = structuredClone(snapshotOf(s, 0));
  if (before.ntp.ok) before.ntp.data.sources = before.ntp.data.sources.map((src) => (src.name === 'time.bad.example' ? { ...src, state: 'Selectable' } : src));
  s.stateClock.observe(before, NOW - (2 * 3600 + 14 * 60) * 1000);
  s.stateClock.observe(snapshotOf(s, 0), NOW - 35_000);
  s.events.add([
    { at: EVENT_TIMES.info, severity: 'info', section: 'ntp', message: 'source 192.168.10.4: Combined with best -> Selectable' },
    { at: EVENT_TIMES.critical, severity: 'critical', section: 'ptp', message: 'PTP port 0 STABLE -> LOST' },
  ]);
  s.events.add([{ at: EVENT_TIMES.warning, severity: 'warning', section: 'ptp', message: 'PTP port 0 LOST -> ACQUIRING' }]);
  s.events.add([{ at: EVENT_TIMES.ok, severity: 'ok', section: 'ptp', message: 'PTP port 0 ACQUIRED -> STABLE' }]);
  s.verdict = { severity: 'warning', findings: [{ rule: 'ntp-bad-source', severity: 'warning', section: 'ntp', subject: 'ntp source time.bad.example', topic: 'ntp-source', message: 'NTP source time.bad.example is false ticker' }] };
  return s;
}

/** Port 0 with hand-picked offsets 3, 5, 7, 9 ns and path delays 1.0, 1.2, 1.4, 1.6 µs. */
export function ptpStatsState(): MonitorState {
  const s = insightState();
  s.history = new HistoryStore();
  for (const v of [3, 5, 7, 9]) s.history.push(seriesKey.ptpOffset(0), v);
  for (const v of [1000, 1200, 1400, 1600]) s.history.push(seriesKey.ptpDelay(0), v);
  return s;
}
