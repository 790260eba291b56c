import { describe, expect, it } from 'vitest';
import { checkUrl, colorEnabled, isUtf8Locale, parseCookieFile, parsePtpPorts, resolveConfig, UsageError } from '../src/config.js';

const files: Record<string, string> = {
  '/t/token': 'abc123\n',
  '/t/empty': '  \n',
  '/t/cookie': 'SESSION=xyz; lang=en\n',
  '/t/jar': '# Netscape HTTP Cookie File\n10.0.0.5\tFALSE\t/\tFALSE\t0\tSESSION\txyz\n',
  '/t/ca.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  '/t/notpem': 'hello',
};
const readFile = (p: string) => {
  if (p in files) return files[p]!;
  throw Object.assign(new Error('nope'), { code: p.includes('denied') ? 'EACCES' : 'ENOENT' });
};
const resolve = (flags: Parameters<typeof resolveConfig>[1], env: NodeJS.ProcessEnv = {}, oneShot = false) =>
  resolveConfig('http://10.0.0.5', flags, env, { oneShot, readFile });

describe('resolveConfig', () => {
  it('defaults: 2 s interval, timeout below it, auto ports, color on', () => {
    const c = resolve({}, { LANG: 'en_US.UTF-8' });
    expect(c.intervalMs).toBe(2000);
    expect(c.connection.timeoutMs).toBe(1800);
    expect(c.connection.timeoutMs).toBeLessThan(c.intervalMs);
    expect(c.ptpPorts).toBe('auto');
    expect(c.color).toBe(true);
    expect(c.ascii).toBe(false);
    expect(c.connection.headers).toEqual({});
  });

  it('takes the bounds themselves: a day between polls, ten minutes for an answer', () => {
    expect(resolve({ interval: 86_400, timeout: 600_000 })).toMatchObject({ intervalMs: 86_400_000, connection: { timeoutMs: 600_000 } });
  });

  it('ASCII when asked for, or when the locale is not UTF-8 even though meow gives the absent flag as false', () => {
    expect(resolve({ ascii: false }, { LC_ALL: 'C' }).ascii).toBe(true);
    expect(resolve({ ascii: false }, { LANG: 'en_US.UTF-8' }).ascii).toBe(false);
    expect(resolve({ ascii: true }, { LANG: 'en_US.UTF-8' }).ascii).toBe(true);
    expect(resolve({}, { LC_ALL: 'C', LANG: 'en_US.UTF-8' }).ascii).toBe(true);
  });

  it('one-shot modes get a 5 s timeout', () => {
    expect(resolve({}, {}, true).connection.timeoutMs).toBe(5000);
  });

  it.each([
    [{ interval: 0.2 }, /--interval must be .* at least 0.5/],
    [{ interval: Number.NaN }, /--interval/],
    [{ timeout: 10 }, /--timeout/],
    // Beyond 2^31-1 ms Node's timers fire after 1 ms: a flood of requests, or every request failed at once.
    [{ interval: 1e9 }, /--interval must be a number of seconds, at least 0.5 and at most 86400 \(a day\) \(got 1000000000\)/],
    [{ interval: 86_400.5 }, /--interval .* at most 86400/],
    [{ timeout: 2_147_483_648 }, /--timeout must be a number of milliseconds, at least 50 and at most 600000 \(ten minutes\) \(got 2147483648\)/],
    [{ timeout: 1e10 }, /--timeout .* at most 600000/],
    [{ timeout: Number.POSITIVE_INFINITY }, /--timeout/],
    [{ header: ['NoColonHere'] }, /--header must look like "Name: value"/],
    [{ tokenFile: '/t/missing' }, /--token-file \/t\/missing: no such file/],
    [{ tokenFile: '/t/denied' }, /--token-file \/t\/denied: permission denied/],
    [{ tokenFile: '/t/empty' }, /--token-file \/t\/empty: the file is empty/],
    [{ ca: '/t/notpem' }, /--ca \/t\/notpem: the file holds no PEM certificate/],
    [{ pinSha256: 'abcd' }, /--pin-sha256 must be the 64 hex digits/],
    [{ ptpPorts: 'one,two' }, /--ptp-ports takes "auto" or a list/],
  ])('rejects %j with a sentence naming the flag', (flags, message) => {
    expect(() => resolve(flags)).toThrow(UsageError);
    expect(() => resolve(flags)).toThrow(message);
  });

  it('takes the bearer token from SYNCTOP_TOKEN before --token-file', () => {
    expect(resolve({ tokenFile: '/t/token' }).connection.headers.Authorization).toBe('Bearer abc123');
    expect(resolve({ tokenFile: '/t/token' }, { SYNCTOP_TOKEN: 'envtok' }).connection.headers.Authorization).toBe('Bearer envtok');
  });

  it('reads a cookie header value or a curl cookie jar', () => {
    expect(resolve({ cookieFile: '/t/cookie' }).connection.headers.Cookie).toBe('SESSION=xyz; lang=en');
    expect(resolve({ cookieFile: '/t/jar' }).connection.headers.Cookie).toBe('SESSION=xyz');
  });

  it('warns when a credential header is given in argv, without repeating it', () => {
    const c = resolve({ header: ['Authorization: Bearer s3cret', 'X-Site: north'] });
    expect(c.connection.headers).toEqual({ Authorization: 'Bearer s3cret', 'X-Site': 'north' });
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/visible to every user in ps/);
    expect(c.warnings[0]).not.toContain('s3cret');
  });

  it('reads a CA file and keeps a pin', () => {
    const pin = 'AB:'.repeat(31) + 'AB';
    const c = resolve({ ca: '/t/ca.pem', pinSha256: pin });
    expect(c.connection.ca).toContain('BEGIN CERTIFICATE');
    expect(c.connection.pinSha256).toBe(pin);
  });
});

describe('small parsers', () => {
  it.each([
    ['https://10.0.0.5/', 'https://10.0.0.5'],
    ['http://dev.example:8080/prefix/', 'http://dev.example:8080/prefix'],
  ])('checkUrl(%s)', (input, out) => expect(checkUrl(input)).toBe(out));

  it.each([['10.0.0.5'], ['ftp://x'], ['https://admin:pw@10.0.0.5']])('checkUrl rejects %s', (input) => {
    expect(() => checkUrl(input)).toThrow(UsageError);
  });

  it.each([
    ['auto', 'auto'],
    ['0,2', [0, 2]],
    ['3', [3]],
    ['1, 1', [1]],
  ])('parsePtpPorts(%s)', (input, out) => expect(parsePtpPorts(input)).toEqual(out));

  it.each([
    [undefined, {}, true],
    [false, {}, false],
    [undefined, { NO_COLOR: '1' }, false],
    [undefined, { NO_COLOR: '' }, true],
  ])('colorEnabled(%s, %j) = %s', (flag, env, out) => expect(colorEnabled(flag, env)).toBe(out));

  it.each([
    [{ LANG: 'en_US.UTF-8' }, true],
    [{ LC_ALL: 'C.utf8' }, true],
    [{ LANG: 'C' }, false],
    [{ LC_ALL: 'C', LANG: 'en_US.UTF-8' }, false],
    [{}, false],
  ])('isUtf8Locale(%j) = %s', (env, out) => expect(isUtf8Locale(env)).toBe(out));

  it('rejects a cookie file that is neither form', () => {
    expect(() => parseCookieFile('just text', 'f')).toThrow(/--cookie-file f/);
  });
});

describe('thresholds', () => {
  it('defaults to 100 ns / 1 µs for PTP, 10 ms / 100 ms for NTP, 4 satellites, 60 s / 5 s / 10 s for age, UTC and frozen data', () => {
    expect(resolve({}).thresholds).toEqual({
      ptpWarnNs: 100,
      ptpCritNs: 1_000,
      ntpWarnNs: 10_000_000,
      ntpCritNs: 100_000_000,
      minSats: 4,
      ptpMaxAgeS: 60,
      utcMaxDiffS: 5,
      frozenAfterS: 10,
    });
  });

  it.each([
    ['ptpMaxAge', '120', 'ptpMaxAgeS', 120],
    ['utcMaxDiff', '2.5s', 'utcMaxDiffS', 2.5],
    ['frozenAfter', '90s', 'frozenAfterS', 90],
    ['frozenAfter', '500ms', 'frozenAfterS', 0.5],
  ] as const)('reads --%s %s in seconds', (flag, text, key, seconds) => {
    expect(resolve({ [flag]: text }).thresholds[key]).toBe(seconds);
  });

  it.each([
    ['250ns', 250],
    ['2us', 2000],
    ['2µs', 2000],
    ['1.5ms', 1_500_000],
    ['500', 500],
  ])('reads --ptp-warn %s as %i ns', (text, ns) => {
    expect(resolve({ ptpWarn: text, ptpCrit: '10s' }).thresholds.ptpWarnNs).toBe(ns);
  });

  it.each([
    [{ ptpWarn: 'fast' }, /--ptp-warn takes a positive time with a unit/],
    [{ ntpCrit: '-5ms' }, /--ntp-crit takes a positive time/],
    [{ ptpWarn: '200us' }, /--ptp-warn must not be above --ptp-crit \(default 1.00us: give --ptp-crit too\)/],
    [{ ptpWarn: '200us', ptpCrit: '100us' }, /--ptp-warn must not be above --ptp-crit$/],
    [{ frozenAfter: 'soon' }, /--frozen-after takes a positive time, in seconds or with a unit/],
    [{ utcMaxDiff: '0' }, /--utc-max-diff takes a positive time/],
    [{ minSats: 2.5 }, /--min-sats takes a whole number/],
  ])('rejects %j', (flags, message) => {
    expect(() => resolve(flags)).toThrow(message);
  });
});
