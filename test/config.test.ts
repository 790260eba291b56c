import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkUrl, colorEnabled, isUtf8Locale, parsePtpPorts, resolveConfig, UsageError } from '../src/config.js';
import { redactUserinfo } from '../src/model/sanitize.js';
import { cookieHeader } from '../src/credentials.js';

const files: Record<string, string> = {
  '/t/token': 'abc123\n',
  '/t/empty': '  \n',
  '/t/cookie': 'SESSION=xyz; lang=en\n',
  '/t/jar': '# Netscape HTTP Cookie File\n10.0.0.5\tFALSE\t/\tFALSE\t0\tSESSION\txyz\n',
  '/t/ca.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  '/t/notpem': 'hello',
  '/t/multiline': 'abc\nline-two\n',
  '/t/cookie-ctl': 'S=a\u001b[2Jb\n',
};
const readFile = (p: string) => {
  if (p in files) return files[p]!;
  throw Object.assign(new Error('nope'), { code: p.includes('denied') ? 'EACCES' : 'ENOENT' });
};
const resolve = (flags: Parameters<typeof resolveConfig>[1], env: NodeJS.ProcessEnv = {}, oneShot = false) =>
  resolveConfig('https://10.0.0.5', flags, env, { oneShot, readFile });

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
    expect(() => cookieHeader('just text', 'f', new URL('http://10.0.0.5'), 0, [])).toThrow(/--cookie-file f/);
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

describe('credentials are checked before anything is sent', () => {
  const resolveAt = (url: string, flags: Parameters<typeof resolveConfig>[1], env: NodeJS.ProcessEnv = {}) => resolveConfig(url, flags, env, { oneShot: true, readFile });

  it.each([
    [{ header: ['Content-Length: 5'] }, {}, '--header: the Content-Length header cannot be set (synctop sets it from the request body)'],
    [{ header: ['Host: other.example'] }, {}, '--header: the Host header cannot be set (it comes from the device URL)'],
    [{ header: ['transfer-encoding: chunked'] }, {}, '--header: the transfer-encoding header cannot be set'],
    [{ header: ['Connection: close'] }, {}, '--header: the Connection header cannot be set'],
    [{ header: ['X-Token: a\u0007b'] }, {}, '--header: the X-Token value has a control character (U+0007) at character 2'],
    [{ header: ['X-Token: caf\u20ac'] }, {}, '--header: the X-Token value has the character U+20AC at character 4, which an HTTP header cannot carry'],
    [{ header: ['Bad Name: x'] }, {}, '--header must look like "Name: value" (got "Bad Name: …")'],
    [{ tokenFile: '/t/multiline' }, {}, '--token-file /t/multiline: the token has a line break (U+000A) at character 4, which an HTTP header cannot carry'],
    [{}, { SYNCTOP_TOKEN: 'abc\u0000def' }, 'SYNCTOP_TOKEN: the token has a control character (U+0000) at character 4'],
    [{ cookieFile: '/t/cookie-ctl' }, {}, '--cookie-file /t/cookie-ctl: the Cookie value has a control character (U+001B)'],
  ])('%j %j: usage error', (flags, env, message) => {
    expect(() => resolveAt('https://10.0.0.5', flags, env)).toThrow(UsageError);
    expect(() => resolveAt('https://10.0.0.5', flags, env)).toThrow(message);
  });

  it('no message repeats the secret', () => {
    for (const [flags, env] of [[{ tokenFile: '/t/multiline' }, {}], [{}, { SYNCTOP_TOKEN: 'abc\u0000def' }]] as const) {
      let message = '';
      try {
        resolveAt('https://10.0.0.5', flags, env);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).not.toMatch(/abc|def|line-two/);
    }
  });

  it.each([
    [{ ca: '/t/ca.pem' }, '--ca verifies the device\'s TLS certificate, but http://10.0.0.5 is plain http:// (no certificate): use https://'],
    [{ pinSha256: 'AB'.repeat(32) }, '--pin-sha256 verifies the device\'s TLS certificate, but http://10.0.0.5 is plain http://'],
  ])('%j on an http:// URL is a usage error', (flags, message) => {
    expect(() => resolveAt('http://10.0.0.5', flags)).toThrow(message);
  });

  it('warns when credentials go over plain http (not to loopback, not over https)', () => {
    const cleartext = /credentials go to 10.0.0.5 over plain http:\/\//;
    expect(resolveAt('http://10.0.0.5', {}, { SYNCTOP_TOKEN: 't' }).warnings.join('\n')).toMatch(cleartext);
    expect(resolveAt('http://10.0.0.5', { cookieFile: '/t/cookie' }).warnings.join('\n')).toMatch(/credentials go to 10.0.0.5 over plain http/);
    expect(resolveAt('http://10.0.0.5', { header: ['X-API-Key: k'] }).warnings.join('\n')).toMatch(/credentials go to 10.0.0.5 over plain http/);
    expect(resolveAt('http://10.0.0.5', { header: ['X-Site: 7'] }).warnings).toEqual([]);
    expect(resolveAt('https://10.0.0.5', {}, { SYNCTOP_TOKEN: 't' }).warnings).toEqual([]);
    expect(resolveAt('http://127.0.0.1:8080', {}, { SYNCTOP_TOKEN: 't' }).warnings).toEqual([]);
    expect(resolveAt('http://[::1]:8080', {}, { SYNCTOP_TOKEN: 't' }).warnings).toEqual([]);
  });

  it.each([
    [{}, { SYNCTOP_TOKEN: 't' }, 'token from SYNCTOP_TOKEN'],
    [{ tokenFile: '/t/token', cookieFile: '/t/cookie' }, {}, 'token from --token-file /t/token'],
    [{ cookieFile: '/t/cookie' }, {}, 'session cookie from --cookie-file /t/cookie'],
    [{ header: ['X-Auth-Token: t', 'X-Site: 7'] }, {}, 'X-Auth-Token header from --header'],
    [{ header: ['X-Site: 7'] }, {}, undefined],
  ])('%j %j: a refused credential is named by where it came from', (flags, env, source) => {
    expect(resolveAt('https://10.0.0.5', flags, env).connection.credentialSource).toBe(source);
  });

  it('warns when a token or cookie file can be read by other users', () => {
    const dir = mkdtempSync(join(tmpdir(), 'synctop-perm-'));
    const token = join(dir, 'token');
    const cookies = join(dir, 'cookies');
    writeFileSync(token, 'abc\n');
    writeFileSync(cookies, 'S=1\n');
    chmodSync(token, 0o644);
    chmodSync(cookies, 0o640);
    const c = resolveConfig('https://10.0.0.5', { tokenFile: token, cookieFile: cookies }, {}, { oneShot: true });
    expect(c.warnings).toEqual([`--token-file ${token} can be read by other users: chmod 600 it`, `--cookie-file ${cookies} can be read by other users: chmod 600 it`]);
    chmodSync(token, 0o600);
    chmodSync(cookies, 0o600);
    expect(resolveConfig('https://10.0.0.5', { tokenFile: token, cookieFile: cookies }, {}, { oneShot: true }).warnings).toEqual([]);
  });
});

describe('secrets in messages', () => {
  it.each([
    ['http://admin:hunter2@host:99999', 'http://***@host:99999'],
    ['https://u@10.0.0.5/x@y', 'https://***@10.0.0.5/x@y'],
    ['https://a:b@c@host?q=@', 'https://***@host?q=@'],
    ['https://10.0.0.5/a@b', 'https://10.0.0.5/a@b'],
    ['not a url', 'not a url'],
  ])('redactUserinfo(%s) = %s', (input, out) => expect(redactUserinfo(input)).toBe(out));

  it('a URL that does not parse is quoted without its user-info and with escapes made visible', () => {
    expect(() => checkUrl('http://admin:hunter2@host:99999')).toThrow('"http://***@host:99999" is not a URL');
    expect(() => checkUrl('http://admin:hunter2@host:99999')).not.toThrow(/hunter2/);
    expect(() => checkUrl('\u001b]0;owned\u0007')).toThrow('"\\x1b]0;owned\\x07" is not a URL');
    expect(() => checkUrl('http://[fe80::1%25eth0]:8080')).toThrow('IPv6 zone ids (%eth0) are not supported');
    expect(() => checkUrl('http://[fe80::1%eth0]')).toThrow('IPv6 zone ids (%eth0) are not supported');
  });
});

describe('hostile flag values in messages', () => {
  const huge = `${'9'.repeat(300_000)}ns`;
  it.each<[string, () => unknown]>([
    ['a 300 KB --ptp-warn', () => resolveConfig('http://192.0.2.1', { ptpWarn: huge }, {}, { oneShot: true })],
    ['a 300 KB --frozen-after', () => resolveConfig('http://192.0.2.1', { frozenAfter: huge }, {}, { oneShot: true })],
    ['a 300 KB --ptp-ports', () => parsePtpPorts(`0,${'1'.repeat(300_000)}x`)],
  ])('%s: a usage error that quotes at most a bounded, sanitized part of it', (_what, run) => {
    let message = '';
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      message = (err as Error).message;
    }
    expect(message).not.toBe('');
    expect(message.length).toBeLessThan(500);
  });

  it('--min-sats beyond any sky (1e20) is a usage error, not a setting', () => {
    expect(() => resolveConfig('http://192.0.2.1', { minSats: 1e20 }, {}, { oneShot: true })).toThrow(/--min-sats takes a whole number of satellites from 0 to 200/);
    expect(resolveConfig('http://192.0.2.1', { minSats: 200 }, {}, { oneShot: true }).thresholds.minSats).toBe(200);
  });
});
