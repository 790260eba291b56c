/**
 * Flags + environment (+ files they name) -> one validated Config. Every mistake becomes one
 * sentence that names the flag or file; nothing here prints a secret.
 */
import { CredentialError, readCaFile, resolveCredentials } from './credentials.js';
import { redactUserinfo, sanitizeText } from './model/sanitize.js';
import { formatOffset, parseQuantityNs } from './model/units.js';
import { defaultThresholds, type Thresholds } from './monitor/health.js';
import type { PtpPortSelection } from './monitor/ptp-discovery.js';

export interface CommonFlags {
  interval?: number;
  timeout?: number;
  ptpPorts?: string;
  header?: string[];
  tokenFile?: string;
  cookieFile?: string;
  insecure?: boolean;
  ca?: string;
  pinSha256?: string;
  color?: boolean;
  ascii?: boolean;
  showSecrets?: boolean;
  record?: string;
  ptpWarn?: string;
  ptpCrit?: string;
  ntpWarn?: string;
  ntpCrit?: string;
  minSats?: number;
  ptpMaxAge?: string;
  utcMaxDiff?: string;
  frozenAfter?: string;
  bell?: boolean;
}

export interface ConnectionConfig {
  url: string;
  timeoutMs: number;
  headers: Record<string, string>;
  /** Where the credential in `headers` came from, named when the device refuses it. */
  credentialSource?: string;
  insecure: boolean;
  ca?: string;
  pinSha256?: string;
}

export interface Config {
  connection: ConnectionConfig;
  intervalMs: number;
  ptpPorts: PtpPortSelection;
  color: boolean;
  ascii: boolean;
  showSecrets: boolean;
  record?: string;
  thresholds: Thresholds;
  /** Ring the terminal bell when the verdict worsens. */
  bell: boolean;
  /** Sentences for stderr: things that work but should not be done this way. */
  warnings: string[];
  /** Sentences for stderr: what was chosen (which cookies of a jar are sent). */
  notices: string[];
}

export class UsageError extends Error {}

export const DEFAULT_INTERVAL_S = 2;
export const MIN_INTERVAL_S = 0.5;
/**
 * Bounds on every interval and deadline, wherever it comes from (flags, a profile, the exporter):
 * Node's timers hold at most 2^31-1 ms (24.8 days) and fire after 1 ms beyond that, which would
 * flood the device with requests or fail every request at once. A day between polls and ten
 * minutes for one answer are far beyond any use.
 */
export const MAX_INTERVAL_S = 86_400;
export const MIN_TIMEOUT_MS = 50;
export const MAX_TIMEOUT_MS = 600_000;
/** One-shot modes have no interval to stay under. */
export const ONE_SHOT_TIMEOUT_MS = 5000;

/** --min-sats bound. */
export const MAX_MIN_SATS = 200;

/** A poll interval in ms from seconds as given; a usage error names `source` and the bounds. */
export function boundedIntervalMs(seconds: number, source = '--interval'): number {
  if (!Number.isFinite(seconds) || seconds < MIN_INTERVAL_S || seconds > MAX_INTERVAL_S) {
    throw new UsageError(`${source} must be a number of seconds, at least ${MIN_INTERVAL_S} and at most ${MAX_INTERVAL_S} (a day) (got ${seconds})`);
  }
  return Math.round(seconds * 1000);
}

/** A request deadline in ms as given; a usage error names `source` and the bounds. */
export function boundedTimeoutMs(ms: number, source = '--timeout'): number {
  if (!Number.isFinite(ms) || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw new UsageError(`${source} must be a number of milliseconds, at least ${MIN_TIMEOUT_MS} and at most ${MAX_TIMEOUT_MS} (ten minutes) (got ${ms})`);
  }
  return Math.round(ms);
}

export function resolveConfig(
  url: string,
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  opts: {
    oneShot: boolean;
    readFile?: (path: string) => string;
    /** A profile's token and headers: from the config file, not argv. */
    profileToken?: string;
    profileHeaders?: Record<string, string>;
  },
): Config {
  const warnings: string[] = [];
  const intervalMs = boundedIntervalMs(flags.interval ?? DEFAULT_INTERVAL_S);
  // Below the interval, so a slow answer ends before the next poll is due.
  const timeoutMs = boundedTimeoutMs(flags.timeout ?? (opts.oneShot ? ONE_SHOT_TIMEOUT_MS : Math.min(ONE_SHOT_TIMEOUT_MS, Math.round(intervalMs * 0.9))));

  const device = parseDeviceUrl(url);
  const credentials = withUsageErrors(() =>
    resolveCredentials(
      device,
      {
        argvHeaders: flags.header ?? [],
        ...(opts.profileHeaders ? { profileHeaders: opts.profileHeaders } : {}),
        ...(env.SYNCTOP_TOKEN !== undefined ? { envToken: env.SYNCTOP_TOKEN } : {}),
        ...(flags.tokenFile ? { tokenFile: flags.tokenFile } : {}),
        ...(opts.profileToken ? { profileToken: opts.profileToken } : {}),
        ...(flags.cookieFile ? { cookieFile: flags.cookieFile } : {}),
      },
      opts.readFile ? { read: opts.readFile } : {},
    ),
  );
  warnings.push(...credentials.warnings);
  const headers = credentials.headers;
  if (device.protocol === 'http:' && (flags.ca || flags.pinSha256)) {
    // A certificate option on a plain-HTTP URL would be ignored while the token goes out in clear.
    throw new UsageError(`${flags.ca ? '--ca' : '--pin-sha256'} verifies the device's TLS certificate, but ${device.origin} is plain http:// (no certificate): use https://`);
  }
  const ca = flags.ca ? withUsageErrors(() => readCaFile(flags.ca!, opts.readFile)) : undefined;
  if (flags.pinSha256 !== undefined && !/^([0-9a-fA-F]{2}:?){32}$/.test(flags.pinSha256.replace(/^sha256\//i, ''))) {
    throw new UsageError('--pin-sha256 must be the 64 hex digits of the certificate SHA-256 fingerprint (colons optional)');
  }

  return {
    connection: {
      url: checkUrl(url),
      timeoutMs,
      headers,
      ...(credentials.credentialSource ? { credentialSource: credentials.credentialSource } : {}),
      insecure: flags.insecure ?? false,
      ...(ca ? { ca } : {}),
      ...(flags.pinSha256 ? { pinSha256: flags.pinSha256.replace(/^sha256\//i, '') } : {}),
    },
    intervalMs,
    ptpPorts: parsePtpPorts(flags.ptpPorts ?? 'auto'),
    color: colorEnabled(flags.color, env),
    // meow gives an absent boolean flag `false`, so only `true` may override the locale check.
    ascii: flags.ascii === true || !isUtf8Locale(env),
    showSecrets: flags.showSecrets ?? false,
    ...(flags.record ? { record: flags.record } : {}),
    thresholds: resolveThresholds(flags),
    bell: flags.bell ?? false,
    warnings,
    notices: credentials.notices,
  };
}

/** --ptp-warn 1us, --ntp-crit 100ms ...: a quantity with a unit (ns, us, µs, ms, s); a bare number is ns. */
export function parseThresholdNs(text: string, flag: string): number {
  const trimmed = text.trim();
  const ns = /^[+-]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : parseQuantityNs(trimmed);
  if (ns === null || !Number.isFinite(ns) || ns <= 0) {
    throw new UsageError(`${flag} takes a positive time with a unit, such as 1us, 250us, 10ms (got ${quoteArgument(text)})`);
  }
  return ns;
}

/** --ptp-max-age 60s, --frozen-after 10s ...: a time with a unit; a bare number is seconds. */
export function parseThresholdSeconds(text: string, flag: string): number {
  const trimmed = text.trim();
  const ns = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1e9 : parseQuantityNs(trimmed);
  if (ns === null || !Number.isFinite(ns) || ns <= 0) {
    throw new UsageError(`${flag} takes a positive time, in seconds or with a unit, such as 10s or 500ms (got ${quoteArgument(text)})`);
  }
  return ns / 1e9;
}

type ThresholdFlags = Pick<CommonFlags, 'ptpWarn' | 'ptpCrit' | 'ntpWarn' | 'ntpCrit' | 'minSats' | 'ptpMaxAge' | 'utcMaxDiff' | 'frozenAfter'>;

export function resolveThresholds(flags: ThresholdFlags): Thresholds {
  const ns = (text: string | undefined, flag: string, fallback: number) => (text !== undefined ? parseThresholdNs(text, flag) : fallback);
  const seconds = (text: string | undefined, flag: string, fallback: number) => (text !== undefined ? parseThresholdSeconds(text, flag) : fallback);
  const d = defaultThresholds;
  const t: Thresholds = {
    ptpWarnNs: ns(flags.ptpWarn, '--ptp-warn', d.ptpWarnNs),
    ptpCritNs: ns(flags.ptpCrit, '--ptp-crit', d.ptpCritNs),
    ntpWarnNs: ns(flags.ntpWarn, '--ntp-warn', d.ntpWarnNs),
    ntpCritNs: ns(flags.ntpCrit, '--ntp-crit', d.ntpCritNs),
    minSats: flags.minSats ?? d.minSats,
    ptpMaxAgeS: seconds(flags.ptpMaxAge, '--ptp-max-age', d.ptpMaxAgeS),
    utcMaxDiffS: seconds(flags.utcMaxDiff, '--utc-max-diff', d.utcMaxDiffS),
    frozenAfterS: seconds(flags.frozenAfter, '--frozen-after', d.frozenAfterS),
  };
  // A warning limit above the default critical one needs a critical limit of its own: say so.
  const order = (name: string, given: string | undefined, critNs: number) =>
    `--${name}-warn must not be above --${name}-crit${given === undefined ? ` (default ${formatOffset(critNs, { ascii: true }).slice(1)}: give --${name}-crit too)` : ''}`;
  if (t.ptpWarnNs > t.ptpCritNs) throw new UsageError(order('ptp', flags.ptpCrit, t.ptpCritNs));
  if (t.ntpWarnNs > t.ntpCritNs) throw new UsageError(order('ntp', flags.ntpCrit, t.ntpCritNs));
  // More than any sky holds (GPS, GLONASS, Galileo and BeiDou together are under 150) is a typo.
  if (!Number.isInteger(t.minSats) || t.minSats < 0 || t.minSats > MAX_MIN_SATS) throw new UsageError(`--min-sats takes a whole number of satellites from 0 to ${MAX_MIN_SATS} (got ${flags.minSats})`);
  return t;
}

/** The device's base URL, checked: http or https, no credentials in it. */
export function parseDeviceUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // fe80::1%eth0: neither Node's URL parser nor undici takes a zone id.
    if (/\[[0-9a-f:.]*%/i.test(url)) throw new UsageError(`${quoteArgument(url)}: IPv6 zone ids (%eth0) are not supported; use the device's global or unique-local address, or its host name`);
    throw new UsageError(`${quoteArgument(url)} is not a URL; give the device's base URL, e.g. https://10.0.0.5`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`the device URL must start with http:// or https:// (got ${quoteArgument(parsed.protocol)})`);
  }
  if (parsed.username || parsed.password) {
    throw new UsageError('put no credentials in the URL (they would show in ps and in every report); use SYNCTOP_TOKEN, --token-file or --cookie-file');
  }
  return parsed;
}

export function checkUrl(url: string): string {
  return parseDeviceUrl(url).href.replace(/\/+$/, '');
}

/** An argument echoed in a message: user-info redacted, escape sequences made visible, at most 200 characters, quoted. */
export function quoteArgument(text: string): string {
  return `"${sanitizeText(redactUserinfo(text), 200)}"`;
}

/** A credential problem is bad usage: exit 2 (check: UNKNOWN). */
function withUsageErrors<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof CredentialError) throw new UsageError(err.message);
    throw err;
  }
}

export function parsePtpPorts(text: string): PtpPortSelection {
  if (text === 'auto') return 'auto';
  const ids = text.split(',').map((s) => s.trim());
  if (ids.length === 0 || ids.some((s) => !/^\d{1,3}$/.test(s))) {
    throw new UsageError(`--ptp-ports takes "auto" or a list of port ids such as 0,2 (got ${quoteArgument(text)})`);
  }
  return [...new Set(ids.map(Number))];
}

/** NO_COLOR (any non-empty value, https://no-color.org) and --no-color both turn color off. */
export function colorEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return true;
}

export function isUtf8Locale(env: NodeJS.ProcessEnv): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return /utf-?8/i.test(locale);
}
