/**
 * Every parser and normalizer that reads device, file or flag text works in linear time: a
 * field of a megabyte costs about a thousand times a field of a kilobyte, never a million times
 * (a backtracking regular expression once spent 44 s of CPU on "1" + 200,000 spaces + "1" in a
 * latitude, and froze every output mode with it).
 *
 * Measured as a ratio, not against a clock: the CPU time of one 1 MiB field over that of 1,024
 * fields of 1 KiB (the same number of bytes). Linear code gives about 1 (caches and the garbage
 * collector move it a little); quadratic code gives about 1,000. A 64 KiB step comes first, so
 * quadratic code fails in seconds instead of running for minutes.
 */
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/api/client.js';
import type { OperationName } from '../../src/api/endpoints.js';
import type { RawAlarmEmail, RawPtpSlave } from '../../src/api/schemas.js';
import { checkUrl, isUtf8Locale, parsePtpPorts, parseThresholdNs, resolveConfig } from '../../src/config.js';
import { parseConfigFile } from '../../src/config-file.js';
import { parseCookieJar } from '../../src/cookie-jar.js';
import { cookieHeader } from '../../src/credentials.js';
import { parseListen } from '../../src/export/command.js';
import { lintAlarm } from '../../src/model/alarm-lint.js';
import { normalizeAlarm } from '../../src/model/alarm.js';
import { normalizeGnss } from '../../src/model/gnss.js';
import { normalizeNtp } from '../../src/model/ntp.js';
import { normalizePtp } from '../../src/model/ptp.js';
import type { AlarmData } from '../../src/model/snapshot.js';
import { sanitizeLabel, sanitizeText } from '../../src/model/sanitize.js';
import { looksLikeSample, parseCoordinate, parseLastRxSeconds, parseLastSample, parseQuantityNs, parseUtc, reachRegister } from '../../src/model/units.js';
import { parseRecordingLine } from '../../src/record/reader.js';
import { parsePluginRange } from '../../src/report/plugin-range.js';
import { parseFaultSpec } from '../../src/sim/faults.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The fields: the three the issue names, and the shapes that broke backtracking patterns. */
const fields: [name: string, make: (n: number) => string][] = [
  ['spaces', (n) => ' '.repeat(n)],
  ['digits', (n) => '1'.repeat(n)],
  ['letters', (n) => 'a'.repeat(n)],
  ['"1", spaces, "1"', (n) => `1${' '.repeat(n - 2)}1`],
  ['dots then a space', (n) => `${'.'.repeat(n - 1)} `],
];

/** Ignores the usage errors flag parsers throw: only the time spent matters here. */
const attempt = (f: () => unknown) => () => {
  try {
    f();
  } catch {
    // a sentence for the user; not what is measured
  }
};

/** Device answers of each operation with the field in every string. */
const deviceAnswers: Record<OperationName, (s: string) => unknown> = {
  ntp: (s) => ({
    overallStatus: s,
    syncSourceName: s,
    sources: [{ nameIp: s, mode: s, state: s, reach: s, lastRx: s, lastSample: s }],
  }),
  gnss: (s) => [
    {
      id: 0,
      status: s,
      position: { latitude: s, longitude: s },
      utcDate: s,
      utcTime: s,
      antStatus: s,
      ppsValid: s,
      indicatorValid: s,
      signal: [{ type: s, count: 1 }],
    },
  ],
  alarm: (s) => ({ senderEmail: `a@${s}`, senderName: s, recipientEmails: [s, `${s}@x`], alertLevel: s, smtpServer: s, smtpUsername: `${s}@b`, smtpPassword: s, emailSubjectPrefix: s, smtpUseAuth: true }),
  ptp: (s) => ({ syncState: s, gmIdentity: s, parentPortIdentity: s }),
};

const normalizers: Record<OperationName, (raw: never) => unknown> = {
  ntp: normalizeNtp,
  gnss: normalizeGnss,
  alarm: (raw: RawAlarmEmail) => normalizeAlarm(raw, { showSecrets: true }),
  ptp: (raw: RawPtpSlave) => normalizePtp([{ id: 0, result: { ok: true, data: raw } }]),
};

/** The same answers with the field in one string: JSON and the schema check cost the same per byte wherever it is. */
const oneField: Record<OperationName, (s: string) => unknown> = {
  ntp: (s) => ({ overallStatus: 'Synchronized', sources: [{ nameIp: s, reach: '377' }] }),
  gnss: (s) => [{ id: 0, position: { latitude: s } }],
  alarm: (s) => ({ senderName: s, recipientEmails: ['a@b.c'] }),
  ptp: (s) => ({ syncState: 'STABLE', gmIdentity: s }),
};
const body = (op: OperationName, field: string) => JSON.stringify({ success: true, data: oneField[op](field) });

const alarmBase: AlarmData = {
  emailAlertEnabled: true,
  senderEmail: null,
  senderName: null,
  recipientEmails: [],
  alertLevel: null,
  includeDeviceId: null,
  smtpServer: null,
  smtpPort: 587,
  smtpTimeout: null,
  smtpUseTLS: true,
  smtpUseAuth: true,
  smtpUsername: null,
  smtpPassword: null,
  emailSubjectPrefix: null,
  checkInterval: null,
  maxEmailsPerHour: null,
  retryCount: null,
  retryDelay: null,
};

const recordingLine = (s: string) =>
  JSON.stringify({ at: '2026-11-22T10:00:00Z', section: 'ntp', result: { ok: true, data: { overallStatus: s, syncSource: s, sourceCount: 1, sources: [] } } });

/** Each entry takes a field of n characters (n: its size) and does its work on it. */
const parsers: [name: string, prepare: (field: string) => () => unknown][] = [
  // Device text: the units and the sanitizer.
  ['parseCoordinate', (f) => () => parseCoordinate(f, 'lat')],
  ['parseCoordinate (hemisphere last)', (f) => () => parseCoordinate(`${f}N`, 'lat')],
  ['parseQuantityNs', (f) => () => parseQuantityNs(f)],
  ['parseLastSample', (f) => () => parseLastSample(`+${f}[${f}] +/- ${f}`)],
  ['looksLikeSample', (f) => () => looksLikeSample(f)],
  ['parseLastRxSeconds', (f) => () => parseLastRxSeconds(f)],
  ['reachRegister', (f) => () => reachRegister(f)],
  ['parseUtc', (f) => () => parseUtc(f, `2026-11-22 ${f}`)],
  ['sanitizeText', (f) => () => sanitizeText(f)],
  ['sanitizeLabel', (f) => () => sanitizeLabel(f)],
  ['lintAlarm (raw addresses)', (f) => () => lintAlarm({ ...alarmBase, senderEmail: `a@${f}`, smtpUsername: `${f}@b${f}`, recipientEmails: [f, `a@b${f}`] })],
  // Device answers: the JSON and schema check of each operation, then its normalizer.
  ...(Object.keys(deviceAnswers) as OperationName[]).flatMap((op): [string, (f: string) => () => unknown][] => [
    [`decode ${op}`, (f) => { const text = body(op, f); return () => decode(op, text); }],
    [`normalize ${op}`, (f) => { const raw = deviceAnswers[op](f); return () => normalizers[op](raw as never); }],
  ]),
  // File text: a recording line, the config file, a cookie file.
  ['replay: one recording line', (f) => { const line = recordingLine(f); return () => parseRecordingLine(line); }],
  ['config file', (f) => { const text = JSON.stringify({ devices: { a: { url: `http://${f}`, thresholds: { ptpWarn: '1us' } } } }); return attempt(() => parseConfigFile(text, 'c.json')); }],
  ['cookie file', (f) => attempt(() => cookieHeader(`a=${f};${f}=b; c${f}`, 'jar', new URL('http://192.0.2.1'), 0, []))],
  ['cookie jar', (f) => attempt(() => parseCookieJar(`# Netscape HTTP Cookie File\n192.0.2.1\tFALSE\t/${f}\tFALSE\t0\ta${f}\t${f}\n`))],
  // Flag text.
  ['--header', (f) => attempt(() => resolveConfig('http://192.0.2.1', { header: [`X-A:${f}x\ny`] }, {}, { oneShot: true }))],
  ['--ptp-warn', (f) => attempt(() => parseThresholdNs(f, '--ptp-warn'))],
  ['--ptp-ports', (f) => attempt(() => parsePtpPorts(f))],
  ['-w / -c range', (f) => () => parsePluginRange(`@${f}:${f}x`)],
  ['--listen', (f) => attempt(() => parseListen(`[${f}:${f}`))],
  ['device URL', (f) => attempt(() => checkUrl(`http://${f}`))],
  ['--faults', (f) => () => parseFaultSpec(`ntp=${f},${f}:${f}`)],
  ['LANG', (f) => () => isUtf8Locale({ LANG: f })],
];

/**
 * CPU time of the process in ms (user + system), not wall time: on a machine shared by many test
 * processes, wall time counts the waits for a core, which land on a long run more than on short ones.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function elapsed(run: () => unknown, times: number): number {
  const t0 = cpuMs();
  for (let i = 0; i < times; i++) run();
  return cpuMs() - t0;
}

/** Runs of the 1 KiB field that are timed; their mean stands for each of the size / 1 KiB. */
const SMALL_RUNS = 32;

/**
 * Tries at most: on a loaded machine one run of the large field can lose its core for a while.
 * Quadratic code is slow on every try, so retries cost time only when the code is linear.
 */
const TRIES = 5;

/**
 * Time of one field of `size` over the time of `size / 1 KiB` fields of 1 KiB (the mean of
 * SMALL_RUNS of them, multiplied out); the best of up to TRIES tries, so one collection pause or
 * one preemption does not decide.
 */
function ratio(prepare: (field: string) => () => unknown, make: (n: number) => string, size: number): number {
  const small = prepare(make(KiB));
  const large = prepare(make(size));
  small(); // warm-up: compile the code paths on the small field only
  let best = Number.POSITIVE_INFINITY;
  for (let attemptNo = 0; attemptNo < TRIES && best > LIMIT / 2; attemptNo++) {
    const tSmall = (elapsed(small, SMALL_RUNS) / SMALL_RUNS) * (size / KiB);
    const tLarge = elapsed(large, 1);
    best = Math.min(best, tLarge / Math.max(tSmall, 0.01));
  }
  return best;
}

/**
 * Linear code stays near 1; quadratic code reaches the size factor (64, then 1,024). Well
 * above what caches and the collector do to linear code, well below what quadratic code does.
 */
const LIMIT = 16;

const worst: { what: string; ratio: number }[] = [];

describe('every parser and normalizer of outside text works in linear time', () => {
  it.each(parsers)('%s', (name, prepare) => {
    for (const [fieldName, make] of fields) {
      const at64 = ratio(prepare, make, 64 * KiB);
      expect(at64, `${name}, 64 KiB of ${fieldName}: ratio ${at64.toFixed(1)} to 64 x 1 KiB`).toBeLessThan(LIMIT);
      const at1M = ratio(prepare, make, MiB);
      expect(at1M, `${name}, 1 MiB of ${fieldName}: ratio ${at1M.toFixed(1)} to 1,024 x 1 KiB`).toBeLessThan(LIMIT);
      worst.push({ what: `${name}, ${fieldName}`, ratio: Math.max(at64, at1M) });
    }
  }, 60_000);

  it('prints the worst ratios', () => {
    const top = [...worst].sort((a, b) => b.ratio - a.ratio).slice(0, 3);
    console.log(`linear-time: ${worst.length} parser x field pairs, 1 MiB against 1,024 x 1 KiB; worst ratios: ${top.map((w) => `${w.ratio.toFixed(2)} (${w.what})`).join(', ')}; limit ${LIMIT}`);
    expect(worst.length).toBe(parsers.length * fields.length);
  });
});
