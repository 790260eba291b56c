/**
 * What the simulated device knows: each scenario is a table of sources, receivers, ports and an
 * alarm configuration, and the device's answers are pure functions of that table, a seed and the
 * device's elapsed time. Nothing here keeps state, so a given (scenario, seed, time) always gives
 * the same answer, tests can ask for any point of a timeline, and a reboot is just "time restarts
 * from zero with another seed".
 *
 * Every value is written in the device's own text formats (chrony's lastSample and lastRx, the
 * receiver's quote-and-hemisphere latitude, dotted clock identities), because the point of the
 * simulator is to exercise the parsers, not to bypass them.
 */
import type { OperationName } from '../api/endpoints.js';
import type { RawAlarmEmail, RawGnssReceiver, RawNtpSource, RawNtpStatus, RawPtpSlave } from '../api/schemas.js';

// ---------------------------------------------------------------------------------------------
// The device clock
// ---------------------------------------------------------------------------------------------

export interface DeviceClock {
  seed: number;
  /** 0 for the first boot; each reboot adds one, which reseeds everything that moves. */
  boot: number;
  /** Device seconds since the scenario began or the device last booted (already time-scaled). */
  t: number;
  /**
   * True after a reboot: polls, sample counts and PTP locks restart from nothing. False when the
   * simulator starts, which shows a device that has been up for days (reach 377, ports STABLE).
   */
  coldStart: boolean;
  /** Device UTC at t = 0, in milliseconds since the epoch. */
  wallStartMs: number;
}

/** How long a warm device has been up when the simulator starts it. */
const WARM_UPTIME_S = 3 * 86_400;

// ---------------------------------------------------------------------------------------------
// Deterministic noise: one integer hash is the only source of randomness
// ---------------------------------------------------------------------------------------------

/** A 32-bit hash of integers (murmur3 finalizer per key). */
function hash(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const key of keys) {
    h = Math.imul(h ^ (Math.floor(key) | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** Uniform in [0, 1). */
function uniform(...keys: number[]): number {
  return hash(...keys) / 2 ** 32;
}

/** Bell-shaped in [-1, 1]: measurement jitter. */
function jitter(...keys: number[]): number {
  return (uniform(...keys, 1) + uniform(...keys, 2) + uniform(...keys, 3) - 1.5) / 1.5;
}

/** Smooth value noise in [-1, 1] along x: neighbouring x give neighbouring values. */
function smooth(seed: number, channel: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const s = f * f * (3 - 2 * f);
  const a = uniform(seed, channel, i) * 2 - 1;
  const b = uniform(seed, channel, i + 1) * 2 - 1;
  return a + (b - a) * s;
}

/** A random walk in [-1, 1]: slow drift with faster wiggles on top, O(1) for any x. */
function wander(seed: number, channel: number, x: number): number {
  return 0.6 * smooth(seed, channel, x) + 0.3 * smooth(seed, channel + 7919, x * 3) + 0.1 * smooth(seed, channel + 104_729, x * 9);
}

/** Separate noise streams per purpose, so a source's offset and its reach are unrelated. */
const stream = { phase: 1, poll: 2, offset: 3, sampleJitter: 4, error: 5, satellites: 6, dop: 7, position: 8, ptp: 9, delay: 10, rate: 11 } as const;
const channel = (purpose: number, index: number) => purpose * 1000 + index;

const bootSeed = (clock: DeviceClock) => hash(clock.seed, clock.boot);
const uptimeOf = (clock: DeviceClock) => (clock.coldStart ? clock.t : clock.t + WARM_UPTIME_S);
const deviceNowMs = (clock: DeviceClock) => clock.wallStartMs + clock.t * 1000;

// ---------------------------------------------------------------------------------------------
// The device's text formats
// ---------------------------------------------------------------------------------------------

const timeUnits: ReadonlyArray<readonly [string, number]> = [
  ['ns', 1],
  ['us', 1e3],
  ['ms', 1e6],
  ['s', 1e9],
];

/** chrony keeps at most four digits and moves to the next unit beyond: 9999ns, then 10us. */
function scaled(ns: number): { digits: number; unit: string } {
  for (const [unit, per] of timeUnits) {
    const digits = Math.round(Math.abs(ns) / per);
    if (digits <= 9999 || unit === 's') return { digits, unit };
  }
  return { digits: Math.round(Math.abs(ns) / 1e9), unit: 's' };
}

function signedQuantity(ns: number): { number: string; unit: string } {
  const { digits, unit } = scaled(ns);
  return { number: `${ns < 0 && digits !== 0 ? '-' : '+'}${digits}`, unit };
}

/** `+12us[ +15us] +/-  120us`: adjusted offset, [measured offset], root distance. */
export function formatLastSample(adjustedNs: number, measuredNs: number, errorNs: number): string {
  const adjusted = signedQuantity(adjustedNs);
  const measured = signedQuantity(measuredNs);
  const error = scaled(errorNs);
  return `${adjusted.number}${adjusted.unit}[${measured.number.padStart(4)}${measured.unit}] +/- ${String(error.digits).padStart(4)}${error.unit}`;
}

/** chrony's interval style: seconds up to 1024, then minutes, hours, days, years. */
const intervalSteps: ReadonlyArray<readonly [number, number, string]> = [
  [1024, 1, ''],
  [36_000, 60, 'm'],
  [345_600, 3600, 'h'],
  [44_236_800, 86_400, 'd'],
  [Infinity, 31_536_000, 'y'],
];

export function formatLastRx(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const step = intervalSteps.find(([limit]) => s <= limit) ?? intervalSteps[intervalSteps.length - 1]!;
  return `${Math.floor(s / step[1])}${step[2]}`;
}

/** The reach shift register as three octal digits, newest poll in the lowest bit. */
export function formatReach(bits: number): string {
  return (bits & 0xff).toString(8).padStart(3, '0');
}

/** `22.543096'N` and `113.958321'E`, as in the device's sample. */
function formatCoordinate(deg: number, positive: string, negative: string): string {
  return `${Math.abs(deg).toFixed(6)}'${deg < 0 ? negative : positive}`;
}

/** `001122.fffe.334455` from a 12-hex-digit MAC-like id: the EUI-64 clock identity. */
export function clockIdentity(mac12: string): string {
  return `${mac12.slice(0, 6)}.fffe.${mac12.slice(6, 12)}`;
}

const round = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;

// ---------------------------------------------------------------------------------------------
// Scenario tables
// ---------------------------------------------------------------------------------------------

type NtpState = 'Best source' | 'Combined with best' | 'Selectable' | 'False ticker' | 'Too variable' | 'Not selectable';

/** Irregular shapes the device's own sample shows, applied to a finished source. */
type SourceQuirk = 'sampleInLastRx' | 'lastRxDash' | 'lastRxMax';

interface SourceSetup {
  nameIp: string;
  mode: string;
  /** The state it settles in once it has answered enough polls. */
  state: NtpState;
  stratum: number;
  /** log2 of the polling interval in seconds. */
  poll: number;
  /** Share of polls answered: 1 steady, 0.7 flaky, 0 unreachable. */
  answers: number;
  offsetNs: number;
  /** Amplitude of the offset's random walk. */
  wanderNs: number;
  /** Root distance (the +/- part). */
  errorNs: number;
  quirk?: SourceQuirk;
}

type GnssSystem = 'gps' | 'glonass' | 'bds' | 'galileo';

/** Irregular receiver shapes of the device's sample. */
type ReceiverQuirk = 'indicatorValid' | 'combinedDateTime';

interface ReceiverSetup {
  id: number;
  status: 'working' | 'standby' | 'offline';
  antStatus: string;
  ppsValid: 'valid' | 'invalid';
  satellites: Partial<Record<GnssSystem, number>>;
  latitude: number;
  longitude: number;
  altitude: number;
  /** Mean PDOP; fewer satellites, worse geometry. */
  pdop: number;
  quirks?: ReceiverQuirk[];
  /** Replaces the formatted latitude text (hostile strings). */
  latitudeText?: string;
}

interface PortSetup {
  id: number;
  gmIdentity: string;
  parentPortIdentity: string;
  stepsRemoved: number;
  meanPathDelayNs: number;
  offsetMeanNs: number;
  jitterNs: number;
  clockClass: number;
  clockAccuracy: number;
  logVariance: number;
  priority1: number;
  priority2: number;
  rateOffsetPpm: number;
  /** Goes LOST -> ACQUIRING -> ACQUIRED -> STABLE from the scenario's start, not from boot. */
  acquiresFromStart?: boolean;
}

/** A device error code in place of an operation's data. */
interface DeviceRefusal {
  errorCode: string;
}

/**
 * A daemon that hangs: from `fromS` device seconds on, for `forS` seconds, the section answers
 * what it had at `fromS` (every field, timestamps included), then recovers. The management API
 * keeps answering meanwhile, which is what makes it hard to see.
 */
interface Hang {
  section: 'ptp' | 'gnss';
  fromS: number;
  forS: number;
}

export interface Scenario {
  summary: string;
  hang?: Hang;
  ntp: SourceSetup[] | DeviceRefusal;
  gnss: ReceiverSetup[] | DeviceRefusal;
  alarm: RawAlarmEmail | DeviceRefusal;
  /** The PTP ports acting as slave; any other id answers 40004. */
  ptp: PortSetup[];
}

const gpsRefclock: SourceSetup = {
  nameIp: 'GPS',
  mode: 'Reference clock',
  state: 'Best source',
  stratum: 1,
  poll: 4,
  answers: 1,
  offsetNs: 40,
  wanderNs: 400,
  errorNs: 950,
};

const lanServer: SourceSetup = {
  nameIp: '10.20.0.11',
  mode: 'Server',
  state: 'Combined with best',
  stratum: 2,
  poll: 6,
  answers: 1,
  offsetNs: -18_000,
  wanderNs: 9_000,
  errorNs: 310_000,
};

const poolServer: SourceSetup = {
  nameIp: 'ntp1.example.net',
  mode: 'Server',
  state: 'Selectable',
  stratum: 2,
  poll: 6,
  answers: 0.97,
  offsetNs: 412_000,
  wanderNs: 150_000,
  errorNs: 14_500_000,
};

const flakyPeer: SourceSetup = {
  nameIp: '192.168.10.20',
  mode: 'Peer',
  state: 'Selectable',
  stratum: 3,
  poll: 5,
  answers: 0.7,
  offsetNs: 1_250_000,
  wanderNs: 700_000,
  errorNs: 42_000_000,
};

const workingReceiver: ReceiverSetup = {
  id: 0,
  status: 'working',
  antStatus: 'normal',
  ppsValid: 'valid',
  satellites: { gps: 10, glonass: 7, bds: 9, galileo: 5 },
  latitude: 22.543096,
  longitude: 113.958321,
  altitude: 48.6,
  pdop: 1.3,
};

const standbyReceiver: ReceiverSetup = {
  id: 1,
  status: 'standby',
  antStatus: 'normal',
  ppsValid: 'valid',
  satellites: { gps: 0, bds: 0 },
  latitude: 22.543101,
  longitude: 113.958307,
  altitude: 47.9,
  pdop: 0,
};

const stablePort = (id: number, parentMac: string, parentPort: number): PortSetup => ({
  id,
  gmIdentity: clockIdentity('001122334455'),
  parentPortIdentity: `${clockIdentity(parentMac)}-${parentPort}`,
  stepsRemoved: 1 + (id % 2),
  meanPathDelayNs: 1_180 + id * 237,
  offsetMeanNs: id % 2 === 0 ? 12 : -21,
  jitterNs: 18,
  clockClass: 6,
  clockAccuracy: 0x21,
  logVariance: 0x4e5d,
  priority1: 128,
  priority2: 128,
  rateOffsetPpm: 0.0132 - id * 0.0041,
});

const healthyAlarm: RawAlarmEmail = {
  emailAlertEnabled: true,
  senderEmail: 'time-alarms@example.com',
  senderName: 'Grandmaster GM-01',
  recipientEmails: ['noc@example.com', 'oncall@example.com'],
  alertLevel: 'major',
  includeDeviceId: true,
  smtpServer: 'smtp.example.com',
  smtpPort: 587,
  smtpTimeout: 30,
  smtpUseTLS: true,
  smtpUseAuth: true,
  smtpUsername: 'time-alarms@example.com',
  smtpPassword: 'Demo-Smtp-Pa55',
  emailSubjectPrefix: '[TIME-ALARM]',
  checkInterval: 60,
  maxEmailsPerHour: 20,
  retryCount: 3,
  retryDelay: 30,
};

/** Terminal attacks a hostile or broken device could send in any string. */
export const hostile = {
  title: '\x1b]0;PWNED\x07',
  clipboard: '\x1b]52;c;cm0gLXJmIH4vKg==\x07',
  clear: '\x1b[2J\x1b[H',
  bidi: '\u202e',
} as const;

const hostileAlarm: RawAlarmEmail = {
  ...healthyAlarm,
  senderName: `Ops${hostile.title}Team`,
  recipientEmails: [`noc@example.com${hostile.clipboard}`, `${hostile.bidi}moc.elpmaxe@cco`],
  emailSubjectPrefix: `${hostile.clear}[ALARM]`,
  smtpServer: `smtp.example.com${hostile.bidi}`,
};

function manySources(): SourceSetup[] {
  const states: NtpState[] = ['Combined with best', 'Selectable', 'Selectable', 'Too variable', 'False ticker'];
  const servers = Array.from({ length: 9 }, (_, i): SourceSetup => ({
    nameIp: i % 3 === 0 ? `ntp${i + 1}.example.net` : `10.20.${i}.${10 + i}`,
    mode: i === 4 ? 'Peer' : 'Server',
    state: states[i % states.length]!,
    stratum: 2 + (i % 3),
    poll: 4 + (i % 3),
    answers: i === 7 ? 0.6 : 1,
    offsetNs: (i % 2 === 0 ? 1 : -1) * (20_000 + i * 37_000),
    wanderNs: 15_000 + i * 4_000,
    errorNs: 400_000 + i * 1_300_000,
  }));
  return [gpsRefclock, ...servers];
}

/** The healthy device, with one daemon that hangs 8 s after the start for 16 s. */
function hanging(summary: string, section: Hang['section']): Scenario {
  return {
    summary,
    hang: { section, fromS: 8, forS: 16 },
    ntp: [gpsRefclock, lanServer, poolServer, flakyPeer],
    gnss: [workingReceiver, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3), stablePort(1, 'a0b1c2aabbcc', 7)],
  };
}

export const scenarios = {
  healthy: {
    summary: 'a synchronized device: GPS reference clock as best source, one receiver working, PTP ports 0 and 1 STABLE',
    ntp: [gpsRefclock, lanServer, poolServer, flakyPeer],
    gnss: [workingReceiver, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3), stablePort(1, 'a0b1c2aabbcc', 7)],
  },
  'ntp-unsynced': {
    summary: 'NTP not synchronized: no best source, a false ticker, a too-variable source, the GPS clock unreachable',
    ntp: [
      { ...gpsRefclock, state: 'Not selectable', stratum: 16, answers: 0 },
      { ...lanServer, state: 'False ticker', offsetNs: 352_000_000, wanderNs: 2_000_000 },
      { ...poolServer, state: 'Too variable', wanderNs: 40_000_000, errorNs: 180_000_000 },
      { ...flakyPeer, state: 'Selectable' },
    ],
    gnss: [workingReceiver, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3)],
  },
  'gnss-antenna-open': {
    summary: 'GNSS antenna open: PPS invalid, no satellite tracked, the GPS reference clock not selectable, NTP on the LAN server',
    ntp: [{ ...gpsRefclock, state: 'Not selectable', answers: 0 }, { ...lanServer, state: 'Best source' }, poolServer, flakyPeer],
    // Without an antenna a receiver hears no satellite at all.
    gnss: [{ ...workingReceiver, antStatus: 'open', ppsValid: 'invalid', satellites: { gps: 0, glonass: 0, bds: 0, galileo: 0 }, pdop: 99.9 }, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3), stablePort(1, 'a0b1c2aabbcc', 7)],
  },
  'no-gnss': {
    summary: 'a device without a GNSS receiver: device_status_list answers 40003 gnss.no.device',
    ntp: [{ ...lanServer, state: 'Best source' }, poolServer, flakyPeer],
    gnss: { errorCode: '40003' },
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3)],
  },
  'ptp-acquiring': {
    summary: 'PTP port 0 acquiring: LOST, ACQUIRING, ACQUIRED, then STABLE, about 10 s per step; port 1 STABLE',
    ntp: [gpsRefclock, lanServer, poolServer, flakyPeer],
    gnss: [workingReceiver, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [{ ...stablePort(0, 'a0b1c2d3e4f5', 3), acquiresFromStart: true }, stablePort(1, 'a0b1c2aabbcc', 7)],
  },
  'frozen-ptp': hanging('the PTP daemon hangs 8 s in and serves its last answer (lastUpdate, offset, delay, rate) for 16 s, then recovers', 'ptp'),
  'frozen-gnss': hanging("the GNSS daemon hangs 8 s in and serves its last answer (the receiver's UTC stands still) for 16 s, then recovers", 'gnss'),
  'other-gm': {
    summary: 'healthy, but its PTP ports follow another grandmaster (00a0b0.fffe.c0d0e0) than the other scenarios',
    ntp: [gpsRefclock, lanServer, poolServer, flakyPeer],
    gnss: [workingReceiver, standbyReceiver],
    alarm: healthyAlarm,
    ptp: [0, 1].map((id) => ({ ...stablePort(id, 'a0b1c2d3e4f5', 3 + id), gmIdentity: clockIdentity('00a0b0c0d0e0') })),
  },
  'seed-sample': {
    summary: "every irregular shape of the device's documentation: sample text in lastRx, indicatorValid, combined date-times, a minimal standby receiver",
    ntp: [
      gpsRefclock,
      { ...lanServer, nameIp: '[::ffff:10.20.0.12]', quirk: 'sampleInLastRx' },
      // Never answered: the device writes "-" for one and 4294967295 (an unset uint32) for the other.
      { ...poolServer, quirk: 'lastRxDash', state: 'Not selectable', answers: 0 },
      { ...flakyPeer, nameIp: '192.168.10.21', quirk: 'lastRxMax', state: 'Not selectable', answers: 0 },
    ],
    gnss: [{ ...workingReceiver, quirks: ['indicatorValid', 'combinedDateTime'] }, standbyReceiver],
    alarm: {
      emailAlertEnabled: false,
      senderEmail: 'time-alarms@example.com',
      recipientEmails: ['noc@example.com'],
      alertLevel: 'critical',
      includeDeviceId: false,
      smtpPort: 25,
      smtpTimeout: 10,
      smtpUseTLS: false,
      smtpUseAuth: false,
      checkInterval: 30,
      maxEmailsPerHour: 10,
      retryCount: 0,
      retryDelay: 0,
    },
    ptp: [{ ...stablePort(0, 'a0b1c2d3e4f5', 3), logVariance: 0.5 }],
  },
  'hostile-strings': {
    summary: 'device strings carrying terminal escapes (title change, clipboard write, screen clear, bidi override)',
    ntp: [
      { ...gpsRefclock, nameIp: `GPS${hostile.title}` },
      { ...lanServer, nameIp: `10.20.0.11${hostile.clipboard}` },
      { ...poolServer, nameIp: `${hostile.bidi}ten.elpmaxe.1ptn`, mode: `Server${hostile.clear}` },
    ],
    gnss: [{ ...workingReceiver, antStatus: `normal${hostile.clear}`, latitudeText: `22.543096'N${hostile.title}` }, standbyReceiver],
    alarm: hostileAlarm,
    ptp: [
      {
        ...stablePort(0, 'a0b1c2d3e4f5', 3),
        gmIdentity: `001122.fffe.334455${hostile.title}`,
        parentPortIdentity: `${hostile.bidi}a0b1c2.fffe.d3e4f5-3${hostile.clipboard}`,
      },
    ],
  },
  'label-clash': {
    summary: 'names that would clash as labels: two NTP sources called GPS, a name with quotes, a backslash and a newline, GNSS receiver ids 1e21, 0.5 and 0 twice',
    ntp: [
      gpsRefclock,
      { ...lanServer, nameIp: 'GPS' },
      { ...poolServer, nameIp: 'x"} 1\nsynctop_up{device="evil"} 0\n\\' },
    ],
    gnss: [workingReceiver, { ...standbyReceiver, id: 1e21 }, { ...standbyReceiver, id: 0.5 }, { ...standbyReceiver, id: 0 }],
    alarm: healthyAlarm,
    ptp: [stablePort(0, 'a0b1c2d3e4f5', 3)],
  },
  many: {
    summary: 'a large device for benchmarks: 10 NTP sources, 2 receivers, 8 PTP slave ports',
    ntp: manySources(),
    gnss: [workingReceiver, { ...workingReceiver, id: 1, satellites: { gps: 9, glonass: 6, bds: 11, galileo: 6 }, latitude: 22.543104 }],
    alarm: healthyAlarm,
    ptp: Array.from({ length: 8 }, (_, id) => stablePort(id, `a0b1c2d3e4${(0xf0 + id).toString(16)}`, 1 + id)),
  },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof scenarios;
export const scenarioNames = Object.keys(scenarios) as ScenarioName[];

export function isScenarioName(name: string): name is ScenarioName {
  return Object.hasOwn(scenarios, name);
}

// ---------------------------------------------------------------------------------------------
// NTP: chrony's view of each source at a point in time
// ---------------------------------------------------------------------------------------------

/** How far back a source's poll history is looked at (lastRx beyond this is approximate). */
const HISTORY_POLLS = 64;

function ntpSource(setup: SourceSetup, index: number, clock: DeviceClock): RawNtpSource & { reachBits: number } {
  const seed = bootSeed(clock);
  const uptime = uptimeOf(clock);
  const interval = 2 ** setup.poll;
  const phase = uniform(seed, channel(stream.phase, index)) * interval;
  // Poll k happens at uptime (k + 1) * interval - phase; `done` polls have happened so far.
  const done = Math.floor((uptime + phase) / interval);
  const pollAt = (k: number) => (k + 1) * interval - phase;
  const answered = (k: number) => k >= 0 && uniform(seed, channel(stream.poll, index), k) < setup.answers;

  let reachBits = 0;
  for (let j = 0; j < 8; j++) if (answered(done - 1 - j)) reachBits |= 1 << j;
  let lastAnswered: number | undefined;
  let recentAnswers = 0;
  for (let k = done - 1; k >= Math.max(0, done - HISTORY_POLLS); k--) {
    if (!answered(k)) continue;
    lastAnswered ??= k;
    recentAnswers++;
  }

  // chrony wants a few samples before it selects a source: right after boot none is selectable.
  const state: NtpState = reachBits === 0 || recentAnswers < 3 ? 'Not selectable' : setup.state;
  const base = {
    nameIp: setup.nameIp,
    mode: setup.mode,
    state,
    isSyncSource: state === 'Best source',
    stratum: setup.stratum,
    poll: setup.poll,
    reach: formatReach(reachBits),
    reachBits,
  };

  if (lastAnswered === undefined) {
    const neverSinceBoot = done <= HISTORY_POLLS;
    const silentFor = uptime - Math.max(0, pollAt(done - HISTORY_POLLS - 1));
    return withQuirk(setup.quirk, {
      ...base,
      lastRx: neverSinceBoot ? '-' : formatLastRx(silentFor),
      lastSample: neverSinceBoot ? formatLastSample(0, 0, 0) : formatLastSample(setup.offsetNs, setup.offsetNs, setup.errorNs * 4),
    });
  }
  const sampledAt = pollAt(lastAnswered);
  const age = uptime - sampledAt;
  const measured =
    setup.offsetNs +
    setup.wanderNs * wander(seed, channel(stream.offset, index), sampledAt / (interval * 16)) +
    setup.errorNs * 0.02 * jitter(seed, channel(stream.sampleJitter, index), lastAnswered);
  // The adjusted offset shrinks as chronyd slews the clock after the measurement.
  const adjusted = measured * (1 - 0.3 * Math.min(1, age / interval));
  const error = setup.errorNs * (1 + 0.15 * wander(seed, channel(stream.error, index), sampledAt / 600));
  return withQuirk(setup.quirk, {
    ...base,
    lastRx: formatLastRx(age),
    lastSample: formatLastSample(adjusted, measured, error),
  });
}

const sourceQuirks: Record<SourceQuirk, (source: RawNtpSource) => RawNtpSource> = {
  // The device's sample: no lastSample field, its text in lastRx instead.
  sampleInLastRx: ({ lastSample, ...rest }) => ({ ...rest, lastRx: lastSample }),
  lastRxDash: (source) => ({ ...source, lastRx: '-' }),
  lastRxMax: (source) => ({ ...source, lastRx: '4294967295' }),
};

function withQuirk<S extends RawNtpSource>(quirk: SourceQuirk | undefined, source: S): S {
  return quirk ? (sourceQuirks[quirk](source) as S) : source;
}

export function ntpStatus(setups: readonly SourceSetup[], clock: DeviceClock): RawNtpStatus {
  const computed = setups.map((setup, i) => ntpSource(setup, i, clock));
  const best = computed.find((s) => s.isSyncSource);
  const overallStatus =
    computed.length === 0 || computed.every((s) => s.reachBits === 0) ? 'Unknown' : best ? 'Synchronized' : 'Not synchronized';
  return {
    overallStatus,
    syncSourceName: best?.nameIp ?? 'None',
    sourceCount: computed.length,
    sources: computed.map(({ reachBits, ...source }) => source),
  };
}

// ---------------------------------------------------------------------------------------------
// GNSS receivers
// ---------------------------------------------------------------------------------------------

const gnssSystems: GnssSystem[] = ['gps', 'glonass', 'bds', 'galileo'];

function satellitesOf(setup: ReceiverSetup, clock: DeviceClock): Array<{ type: string; active: number; count: number }> {
  const seed = bootSeed(clock);
  return gnssSystems.flatMap((type, i) => {
    const base = setup.satellites[type];
    if (base === undefined) return [];
    // Satellites rise and set: the count drifts by one around its base every half minute or so.
    const drift = base === 0 ? 0 : Math.round(1.4 * smooth(seed, channel(stream.satellites, setup.id * 10 + i), clock.t / 30));
    return [{ type, active: 1, count: Math.max(0, base + drift) }];
  });
}

function receiver(setup: ReceiverSetup, clock: DeviceClock): RawGnssReceiver {
  const seed = bootSeed(clock);
  const wobble = (k: number, scale: number) => scale * wander(seed, channel(stream.position, setup.id * 10 + k), clock.t / 20);
  const position = {
    latitude: setup.latitudeText ?? formatCoordinate(setup.latitude + wobble(0, 0.000002), 'N', 'S'),
    longitude: formatCoordinate(setup.longitude + wobble(1, 0.000002), 'E', 'W'),
    altitude: round(setup.altitude + wobble(2, 0.8), 1),
  };
  const signal = satellitesOf(setup, clock);
  if (setup.status === 'offline') return { id: setup.id, status: 'offline' };
  // A standby receiver omits dilution, time, leap seconds, antenna and validity, as in the sample.
  if (setup.status === 'standby') return { id: setup.id, status: 'standby', position, signal };

  const dop = (k: number, factor: number) => round(setup.pdop * factor * (1 + 0.08 * wander(seed, channel(stream.dop, setup.id * 10 + k), clock.t / 45)), 1);
  const [utcDate, utcTimeWithZone] = new Date(deviceNowMs(clock)).toISOString().split('T') as [string, string];
  const utcTime = utcTimeWithZone.replace('Z', '');
  const full: RawGnssReceiver = {
    id: setup.id,
    status: setup.status,
    position: { ...position, hdop: dop(0, 0.6), vdop: dop(1, 0.8), pdop: dop(2, 1) },
    utcDate,
    utcTime,
    gpsLeapSecond: 18,
    bdsLeapSecond: 4,
    antStatus: setup.antStatus,
    ppsValid: setup.ppsValid,
    signal,
  };
  return (setup.quirks ?? []).reduce((r, quirk) => receiverQuirks[quirk](r), full);
}

const receiverQuirks: Record<ReceiverQuirk, (r: RawGnssReceiver) => RawGnssReceiver> = {
  // The second element of the documented shape carries indicatorValid in place of ppsValid.
  indicatorValid: ({ ppsValid, ...rest }) => ({ ...rest, indicatorValid: ppsValid }),
  // The documented sample holds one combined date-time text in both fields.
  combinedDateTime: (r) => {
    const combined = `${r.utcDate} ${(r.utcTime ?? '').slice(0, 8)}`;
    return { ...r, utcDate: combined, utcTime: combined };
  },
};

// ---------------------------------------------------------------------------------------------
// PTP slave ports
// ---------------------------------------------------------------------------------------------

/** A port locking onto its master: each step lasts 10 device seconds, the offset shrinks. */
const acquisition: ReadonlyArray<{ state: string; untilS: number; fromNs: number; toNs: number; gmPresent: boolean }> = [
  { state: 'LOST', untilS: 10, fromNs: 850_000, toNs: 850_000, gmPresent: false },
  { state: 'ACQUIRING', untilS: 20, fromNs: 200_000, toNs: 2_000, gmPresent: true },
  { state: 'ACQUIRED', untilS: 30, fromNs: 2_000, toNs: 120, gmPresent: true },
];
export const PTP_STEP_S = 10;

/** This device's own clock identity, which a port without a grandmaster reports as its parent and grandmaster. */
const OWN_IDENTITY = clockIdentity('00a0c9123456');

function ptpPort(setup: PortSetup, clock: DeviceClock): RawPtpSlave {
  const seed = bootSeed(clock);
  const sample = Math.floor(clock.t); // one servo sample per second
  const noise = jitter(seed, channel(stream.ptp, setup.id), sample);
  const lockClock = clock.coldStart || setup.acquiresFromStart ? clock.t : Infinity;
  const stageIndex = acquisition.findIndex((s) => lockClock < s.untilS);
  const stage = acquisition[stageIndex];

  let syncState = 'STABLE';
  let offset = setup.offsetMeanNs + setup.jitterNs * noise;
  let gmPresent = true;
  if (stage) {
    const startS = stageIndex === 0 ? 0 : acquisition[stageIndex - 1]!.untilS;
    const progress = (lockClock - startS) / (stage.untilS - startS);
    const magnitude = stage.fromNs * (stage.toNs / stage.fromNs) ** progress;
    const sign = setup.offsetMeanNs < 0 ? -1 : 1;
    // After a reboot the port has never been synchronized, rather than lost.
    const never = clock.coldStart && stageIndex === 0;
    syncState = never ? 'NEVER' : stage.state;
    offset = never ? 0 : sign * magnitude * (1 + 0.05 * noise);
    gmPresent = !never && stage.gmPresent;
  }
  // Without a grandmaster the port reports its own clock's quality: a slave-only clock
  // (G.8275.1 T-TSC: clockClass 255, accuracy unknown 0xFE, variance 0xFFFF), not the old master's.
  const quality = gmPresent
    ? { gmIdentity: setup.gmIdentity, gmClockClass: setup.clockClass, gmClockAccuracy: setup.clockAccuracy, gmOffsetScaledLogVariance: setup.logVariance, gmPriority1: setup.priority1, gmPriority2: setup.priority2 }
    : { gmIdentity: OWN_IDENTITY, gmClockClass: 255, gmClockAccuracy: 0xfe, gmOffsetScaledLogVariance: 0xffff, gmPriority1: 128, gmPriority2: 255 };
  const offsetFromMaster = Math.round(offset);
  return {
    portId: setup.id,
    portNumber: setup.id + 1,
    syncState,
    offsetFromMaster,
    meanPathDelay: Math.round(setup.meanPathDelayNs + 2 * jitter(seed, channel(stream.delay, setup.id), sample)),
    masterOffset: offsetFromMaster,
    stepsRemoved: setup.stepsRemoved,
    cumulativeRateOffset: round(setup.rateOffsetPpm + 0.0004 * wander(seed, channel(stream.rate, setup.id), clock.t / 60), 6),
    gmPresent,
    parentPortIdentity: gmPresent ? setup.parentPortIdentity : `${OWN_IDENTITY}-${setup.id + 1}`,
    ...quality,
    lastUpdate: Math.floor(deviceNowMs(clock) / 1000),
  };
}

// ---------------------------------------------------------------------------------------------
// The device's answer to one valid request
// ---------------------------------------------------------------------------------------------

export type DeviceAnswer = { ok: true; data: unknown } | { ok: false; errorCode: string };

const refused = (x: object): x is DeviceRefusal => 'errorCode' in x;

/** The clock a section answers from: stuck at the moment its daemon hung, until it recovers. */
function sectionClock(scenario: Scenario, section: Hang['section'], clock: DeviceClock): DeviceClock {
  const h = scenario.hang;
  const hung = h !== undefined && h.section === section && clock.boot === 0 && clock.t >= h.fromS && clock.t < h.fromS + h.forS;
  return hung ? { ...clock, t: h.fromS } : clock;
}

/** What each operation answers in a scenario, for a request the device accepted. */
const answers: Record<OperationName, (scenario: Scenario, id: number | undefined, clock: DeviceClock) => DeviceAnswer> = {
  ntp: (scenario, _id, clock) =>
    refused(scenario.ntp) ? { ok: false, errorCode: scenario.ntp.errorCode } : { ok: true, data: ntpStatus(scenario.ntp, clock) },
  gnss: (scenario, id, clock) => {
    if (refused(scenario.gnss)) return { ok: false, errorCode: scenario.gnss.errorCode };
    const chosen = scenario.gnss.filter((r) => id === undefined || r.id === id);
    // An id without a receiver is answered like a device without receivers.
    if (chosen.length === 0) return { ok: false, errorCode: '40003' };
    return { ok: true, data: chosen.map((r) => receiver(r, sectionClock(scenario, 'gnss', clock))) };
  },
  alarm: (scenario) => (refused(scenario.alarm) ? { ok: false, errorCode: scenario.alarm.errorCode } : { ok: true, data: scenario.alarm }),
  ptp: (scenario, id, clock) => {
    const port = scenario.ptp.find((p) => p.id === id);
    return port ? { ok: true, data: ptpPort(port, sectionClock(scenario, 'ptp', clock)) } : { ok: false, errorCode: '40004' };
  },
};

export function answer(name: ScenarioName, op: OperationName, id: number | undefined, clock: DeviceClock): DeviceAnswer {
  return answers[op](scenarios[name], id, clock);
}

/** The slave port ids of a scenario (what port discovery should find). */
export function slavePortIds(name: ScenarioName): number[] {
  return scenarios[name].ptp.map((p) => p.id);
}
