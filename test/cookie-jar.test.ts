import { describe, expect, it } from 'vitest';
import { domainMatches, parseCookieJar, pathMatches, selectCookies } from '../src/cookie-jar.js';
import { cookieHeader } from '../src/credentials.js';

const NOW = Date.UTC(2026, 10, 22);
const future = Math.floor(NOW / 1000) + 86_400;
const past = Math.floor(NOW / 1000) - 86_400;

/** A jar as `curl -c` writes it, for several sites. */
const jar = [
  '# Netscape HTTP Cookie File',
  '# https://curl.se/docs/http-cookies.html',
  '',
  `10.0.0.5\tFALSE\t/\tFALSE\t0\tSESSION\tfor-the-device`,
  `#HttpOnly_10.0.0.5\tFALSE\t/api\tTRUE\t${future}\tSECURE_SID\tsecure-one`,
  `10.0.0.5\tFALSE\t/\tFALSE\t${past}\tOLD\tstale`,
  `10.0.0.50\tFALSE\t/\tFALSE\t0\tOTHER_HOST\tx`,
  `.example.org\tTRUE\t/\tFALSE\t0\tTRACKING\ty`,
  `10.0.0.5\tFALSE\t/admin\tFALSE\t0\tADMIN_ONLY\tz`,
  `.gm.example.net\tTRUE\t/\tFALSE\t${future}\tSITE\tsub-ok`,
  `gm.example.net\tFALSE\t/\tFALSE\t0\tHOSTONLY\thost-only`,
  `broken line with no tabs`,
].join('\n');

describe('cookie jar (curl -c)', () => {
  it('reads the seven columns, #HttpOnly_ lines included, and counts unreadable lines', () => {
    const { cookies, malformed } = parseCookieJar(jar);
    expect(cookies.map((c) => c.name)).toEqual(['SESSION', 'SECURE_SID', 'OLD', 'OTHER_HOST', 'TRACKING', 'ADMIN_ONLY', 'SITE', 'HOSTONLY']);
    expect(cookies[1]).toMatchObject({ domain: '10.0.0.5', path: '/api', secure: true, expires: future });
    expect(malformed).toEqual([12]);
  });

  it.each([
    ['10.0.0.5', '10.0.0.5', false, true],
    ['10.0.0.50', '10.0.0.5', true, false], // never a suffix match on an IP address
    ['gm.example.net', 'gm.example.net', false, true],
    ['a.gm.example.net', 'gm.example.net', false, false], // host-only (include-subdomains FALSE)
    ['a.gm.example.net', '.gm.example.net', true, true],
    ['GM.Example.NET', '.gm.example.net', true, true],
    ['evilgm.example.net', 'gm.example.net', true, false],
    ['example.net', '.gm.example.net', true, false],
    ['[::1]', '::1', false, true],
  ])('domainMatches(%s, %s, subdomains %s) = %s', (host, domain, includeSubdomains, out) => {
    expect(domainMatches(host, { domain, includeSubdomains })).toBe(out);
  });

  it.each([
    ['/api/v1/ntp/x', '/', true],
    ['/api/v1/ntp/x', '/api', true],
    ['/api/v1/ntp/x', '/api/', true],
    ['/api/v1/ntp/x', '/ap', false],
    ['/api/v1/ntp/x', '/admin', false],
    ['/api', '/api', true],
  ])('pathMatches(%s, %s) = %s', (req, cookie, out) => expect(pathMatches(req, cookie)).toBe(out));

  const paths = ['/api/v1/ntp/get_input_sources_status', '/api/v1/ptp/slave_sync_info_x'];

  it('over https: the device host\'s live cookies, secure ones included; every other one says why not', () => {
    const s = selectCookies(parseCookieJar(jar).cookies, new URL('https://10.0.0.5'), paths, NOW);
    expect(s.header).toBe('SESSION=for-the-device; SECURE_SID=secure-one');
    expect(s.skipped).toEqual([
      'OLD (expired 2026-11-21)',
      'OTHER_HOST (for 10.0.0.50)',
      'TRACKING (for example.org and its subdomains)',
      'ADMIN_ONLY (for path /admin)',
      'SITE (for gm.example.net and its subdomains)',
      'HOSTONLY (for gm.example.net)',
    ]);
  });

  it('over http: a secure cookie stays home', () => {
    const s = selectCookies(parseCookieJar(jar).cookies, new URL('http://10.0.0.5'), paths, NOW);
    expect(s.used).toEqual(['SESSION']);
    expect(s.skipped).toContain('SECURE_SID (secure: sent over https:// only)');
  });

  it('a subdomain cookie reaches a host below its domain; a host-only one does not', () => {
    const s = selectCookies(parseCookieJar(jar).cookies, new URL('https://rack1.gm.example.net'), paths, NOW);
    expect(s.header).toBe('SITE=sub-ok');
  });

  it('cookieHeader says which cookies are sent and which not, and refuses a jar with none for the device', () => {
    const notices: string[] = [];
    expect(cookieHeader(jar, 'jar.txt', new URL('https://10.0.0.5'), NOW, notices)).toBe('SESSION=for-the-device; SECURE_SID=secure-one');
    expect(notices).toEqual([
      '--cookie-file jar.txt: sending SESSION, SECURE_SID to 10.0.0.5; not sent: OLD (expired 2026-11-21), OTHER_HOST (for 10.0.0.50), TRACKING (for example.org and its subdomains), ADMIN_ONLY (for path /admin), SITE (for gm.example.net and its subdomains), HOSTONLY (for gm.example.net); unreadable line 12',
    ]);
    expect(notices.join()).not.toMatch(/for-the-device|secure-one|stale/);
    expect(() => cookieHeader(jar, 'jar.txt', new URL('https://192.0.2.9'), NOW, [])).toThrow(/--cookie-file jar.txt: no cookie in the jar is for 192.0.2.9; not sent: SESSION \(for 10.0.0.5\)/);
  });

  it('a plain name=value line is sent as is: no domain to check', () => {
    expect(cookieHeader('SESSION=xyz; lang=en\n', 'c', new URL('https://anything.example'), NOW, [])).toBe('SESSION=xyz; lang=en');
  });
});
