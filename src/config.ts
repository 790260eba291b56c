/**
 * Flags + environment (+ files they name) -> one validated Config. Every mistake becomes one
 * sentence that names the flag or file; nothing here prints a secret.
 */
import { readFileSync } from 'node:fs';
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

/** Header names that carry credentials: passing them in argv shows them to every user in `ps`. */
const secretHeaders = new Set(['authorization', 'cookie', 'x-auth-token', 'x-api-key', 'proxy-authorization']);

export function resolveConfig(
  url: string,
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  opts: { oneShot: boolean; readFile?: (path: string) => string; profileToken?: string },
): Config {
  const read = opts.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const warnings: string[] = [];
  const intervalMs = boundedIntervalMs(flags.interval ?? DEFAULT_INTERVAL_S);
  // Below the interval, so a slow answer ends before the next poll is due.
  const timeoutMs = boundedTimeoutMs(flags.timeout ?? (opts.oneShot ? ONE_SHOT_TIMEOUT_MS : Math.min(ONE_SHOT_TIMEOUT_MS, Math.round(intervalMs * 0.9))));

  const headers: Record<string, string> = {};
  for (const h of flags.header ?? []) {
    // No pattern part can match the same spaces two ways: a long header must not cost quadratic time.
    const m = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)[ \t]*:(.*)$/.exec(h);
    if (!m) throw new UsageError(`--header must look like "Name: value" (got ${JSON.stringify(h.replace(/:.*/, ': …'))})`);
    const [, name, rawValue] = m as unknown as [string, string, string];
    const value = rawValue.trim();
    if (secretHeaders.has(name.toLowerCase())) {
      warnings.push(`the ${name} header on the command line is visible to every user in ps; use SYNCTOP_TOKEN, --token-file or --cookie-file`);
    }
    headers[name] = value;
  }
  // SYNCTOP_TOKEN, then --token-file, then the profile's token (its variable or inline value).
  const token = env.SYNCTOP_TOKEN?.trim() || (flags.tokenFile ? readSecretFile(read, flags.tokenFile, '--token-file') : undefined) || opts.profileToken;
  if (token) headers.Authorization = /^(bearer|basic)\s/i.test(token) ? token : `Bearer ${token}`;
  if (flags.cookieFile) headers.Cookie = parseCookieFile(readSecretFile(read, flags.cookieFile, '--cookie-file'), flags.cookieFile);

  const ca = flags.ca ? readPlainFile(read, flags.ca, '--ca') : undefined;
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(`--ca ${flags.ca}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  if (flags.pinSha256 !== undefined && !/^([0-9a-fA-F]{2}:?){32}$/.test(flags.pinSha256.replace(/^sha256\//i, ''))) {
    throw new UsageError('--pin-sha256 must be the 64 hex digits of the certificate SHA-256 fingerprint (colons optional)');
  }

  return {
    connection: {
      url: checkUrl(url),
      timeoutMs,
      headers,
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
  };
}

/** --ptp-warn 1us, --ntp-crit 100ms ...: a quantity with a unit (ns, us, µs, ms, s); a bare number is ns. */
export function parseThresholdNs(text: string, flag: string): number {
  const trimmed = text.trim();
  const ns = /^[+-]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : parseQuantityNs(trimmed);
  if (ns === null || !Number.isFinite(ns) || ns <= 0) {
    throw new UsageError(`${flag} takes a positive time with a unit, such as 1us, 250us, 10ms (got "${text}")`);
  }
  return ns;
}

/** --ptp-max-age 60s, --frozen-after 10s ...: a time with a unit; a bare number is seconds. */
export function parseThresholdSeconds(text: string, flag: string): number {
  const trimmed = text.trim();
  const ns = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1e9 : parseQuantityNs(trimmed);
  if (ns === null || !Number.isFinite(ns) || ns <= 0) {
    throw new UsageError(`${flag} takes a positive time, in seconds or with a unit, such as 10s or 500ms (got "${text}")`);
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
  if (!Number.isInteger(t.minSats) || t.minSats < 0) throw new UsageError(`--min-sats takes a whole number of satellites (got ${flags.minSats})`);
  return t;
}

export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`"${url}" is not a URL; give the device's base URL, e.g. https://10.0.0.5`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`the device URL must start with http:// or https:// (got ${parsed.protocol})`);
  }
  if (parsed.username || parsed.password) {
    throw new UsageError('put no credentials in the URL (they would show in ps and in every report); use SYNCTOP_TOKEN, --token-file or --cookie-file');
  }
  return parsed.href.replace(/\/+$/, '');
}

export function parsePtpPorts(text: string): PtpPortSelection {
  if (text === 'auto') return 'auto';
  const ids = text.split(',').map((s) => s.trim());
  if (ids.length === 0 || ids.some((s) => !/^\d{1,3}$/.test(s))) {
    throw new UsageError(`--ptp-ports takes "auto" or a list of port ids such as 0,2 (got "${text}")`);
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

/**
 * A cookie file is either the value of a Cookie header (`name=value; other=value`) or a
 * Netscape cookie jar as written by `curl -c` (tab-separated, name and value last).
 */
export function parseCookieFile(text: string, path: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !(l.startsWith('#') && !l.startsWith('#HttpOnly_')));
  const jar = lines.map((l) => l.split('\t')).filter((f) => f.length >= 7);
  const value = jar.length > 0 ? jar.map((f) => `${f[5]}=${f[6]}`).join('; ') : (lines[0] ?? '');
  if (!/^[^=;\s]+=[^;]*(;\s*[^=;\s]+=[^;]*)*;?$/.test(value)) {
    throw new UsageError(`--cookie-file ${path}: expected "name=value" pairs or a curl cookie jar`);
  }
  return value;
}

function readSecretFile(read: (p: string) => string, path: string, flag: string): string {
  const value = readPlainFile(read, path, flag).trim();
  if (!value) throw new UsageError(`${flag} ${path}: the file is empty`);
  return value;
}

function readPlainFile(read: (p: string) => string, path: string, flag: string): string {
  try {
    return read(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unreadable');
    throw new UsageError(`${flag} ${path}: ${why}`);
  }
}
