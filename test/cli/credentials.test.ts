/**
 * Credentials, TLS options and the config file as the real binary takes them: bad values are
 * usage errors before anything is sent (exit 2; check UNKNOWN 3), no message repeats a secret,
 * and a cookie jar gives the device only its own cookies. Simulated devices over real HTTP.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../e2e/tmux.js';
import { sim, synctop, useBinary } from './binary.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-cred-cli-'));

function file(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode });
  return path;
}

useBinary();

describe('--cookie-file with a curl cookie jar', () => {
  it('sends only the cookies for the device host, and says which were used and skipped', async () => {
    const device = await sim();
    const future = Math.floor(Date.now() / 1000) + 3600;
    const jar = file(
      'jar.txt',
      [
        '# Netscape HTTP Cookie File',
        `127.0.0.1\tFALSE\t/\tFALSE\t0\tSESSION\tfor-the-device`,
        `127.0.0.1\tFALSE\t/\tTRUE\t${future}\tSECURE_SID\tonly-over-https`,
        `127.0.0.1\tFALSE\t/\tFALSE\t1000000000\tOLD\texpired-long-ago`,
        `.example.org\tTRUE\t/\tFALSE\t0\tTRACKING\tother-site`,
      ].join('\n'),
    );
    const { code, stderr } = await synctop([device.url, '--json', '--cookie-file', jar]);
    expect(code).toBe(0);
    expect(device.stats.headersSeen.cookie).toEqual(['SESSION=for-the-device']);
    expect(stderr).toContain(
      `synctop: --cookie-file ${jar}: sending SESSION to 127.0.0.1:${device.port}; not sent: SECURE_SID (secure: sent over https:// only), OLD (expired 2001-09-09), TRACKING (for example.org and its subdomains)`,
    );
    expect(stderr).not.toMatch(/for-the-device|only-over-https|other-site/);
  });

  it('a jar with no cookie for the device is a usage error, nothing is sent', async () => {
    const device = await sim();
    const jar = file('other-jar.txt', `.example.org\tTRUE\t/\tFALSE\t0\tTRACKING\tother-site\n`);
    const { code, stderr } = await synctop([device.url, '--json', '--cookie-file', jar]);
    expect(code).toBe(2);
    expect(stderr).toContain(`no cookie in the jar is for 127.0.0.1:${device.port}`);
    expect(device.stats.requests.ntp).toBe(0);
  });
});

describe('values the HTTP client would refuse are usage errors up front', () => {
  const multiline = file('multiline.token', 'abc\nsecond-line\n');
  it.each([
    [['--header', 'Content-Length: 5'], 'the Content-Length header cannot be set'],
    [['--header', 'Host: elsewhere'], 'the Host header cannot be set'],
    [['--header', 'Transfer-Encoding: chunked'], 'the Transfer-Encoding header cannot be set'],
    [['--header', 'Connection: close'], 'the Connection header cannot be set'],
  ])('%j: exit 2, no request', async (args, message) => {
    const device = await sim();
    const once = await synctop([device.url, '--once', ...args]);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain(message);
    expect(device.stats.requests.ntp).toBe(0);
  });

  it.each([
    [['--header', 'X-Token: a\u0001b'], 'the X-Token value has a control character (U+0001)'],
    [['--token-file', multiline], `--token-file ${multiline}: the token has a line break (U+000A) at character 4`],
  ])('%j: exit 2, check UNKNOWN 3 (not CRITICAL), no request', async (args, message) => {
    const device = await sim();
    const once = await synctop([device.url, '--once', ...args]);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain(message);
    const check = await synctop(['check', device.url, ...args]);
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/^SYNCTOP UNKNOWN - /);
    expect(check.stdout).toContain(message);
    expect(device.stats.requests.ntp).toBe(0);
    expect(once.stderr + check.stdout).not.toContain('second-line');
  });

  it('a control character in SYNCTOP_TOKEN', async () => {
    const device = await sim();
    const { code, stderr } = await synctop([device.url, '--once'], { SYNCTOP_TOKEN: 'abc\u001b[2Jdef' });
    expect(code).toBe(2);
    expect(stderr).toContain('SYNCTOP_TOKEN: the token has a control character (U+001B) at character 4');
    expect(stderr).not.toContain('def');
  });
});

describe('TLS options and plain http', () => {
  it('--pin-sha256 or --ca on an http:// URL: exit 2 / UNKNOWN 3', async () => {
    const device = await sim();
    const once = await synctop([device.url, '--once', '--ca', join(root, 'test/tls/device-cert.pem')]);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain(`--ca verifies the device's TLS certificate, but ${device.url} is plain http:// (no certificate): use https://`);
    const check = await synctop(['check', device.url, '--pin-sha256', 'AB'.repeat(32)]);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('--pin-sha256 verifies the device\'s TLS certificate');
  });

  it('warns when a token is sent over plain http to another machine', async () => {
    const { stderr } = await synctop(['http://192.0.2.1:9', '--json', '--timeout', '200'], { SYNCTOP_TOKEN: 'tok' });
    expect(stderr).toContain('synctop: warning: credentials go to 192.0.2.1:9 over plain http:// where anyone on the network path can read them');
  });
});

describe('secrets in messages', () => {
  it('a URL with user-info that does not parse: redacted in the usage error and in check\'s UNKNOWN line', async () => {
    const once = await synctop(['http://admin:hunter2@host:99999', '--once']);
    expect(once.code).toBe(2);
    expect(once.stderr).toContain('"http://***@host:99999" is not a URL');
    const check = await synctop(['check', 'http://admin:hunter2@host:99999']);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('SYNCTOP UNKNOWN - "http://***@host:99999" is not a URL');
    // Several URLs are a fleet: each is checked the same way.
    const extra = await synctop(['http://10.0.0.5', 'http://admin:hunter2@10.0.0.6', '--once']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('put no credentials in the URL');
    expect(once.stderr + check.stdout + extra.stderr).not.toContain('hunter2');
  });

  it('a config file with a JSON error near a token: line and column, no file text', async () => {
    const cfg = file('broken.json', '{\n  "devices": {\n    "a": { "url": "http://x", "token": "hunter2-secret", }\n  }\n}\n');
    const { code, stderr } = await synctop(['@a', '--config', cfg, '--once']);
    expect(code).toBe(2);
    expect(stderr).toContain(`config file ${cfg}: it is not valid JSON at line 3, column 58`);
    expect(stderr).not.toMatch(/hunter2|secret|"url"/);
  });
});

describe('config file', () => {
  it('a FIFO as --config is refused at once instead of hanging', async () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const { code, stderr } = await synctop(['@a', '--config', fifo, '--once']);
    expect(code).toBe(2);
    expect(stderr).toContain('it is a FIFO (named pipe), not a regular file');
  });

  it.each(['toString', '__proto__'])('@%s: no profile of that name', async (name) => {
    const cfg = file('profiles.json', JSON.stringify({ devices: { lab: { url: 'http://10.0.0.5' } } }));
    const { code, stderr } = await synctop([`@${name}`, '--config', cfg, '--once']);
    expect(code).toBe(2);
    expect(stderr).toContain(`no profile named "${name}" in ${cfg}; known: lab`);
  });

  it('a wrong type is named as such', async () => {
    const cfg = file('types.json', JSON.stringify({ devices: { lab: { url: 'http://10.0.0.5', interval: '5' } } }));
    const { code, stderr } = await synctop(['@lab', '--config', cfg, '--once']);
    expect(code).toBe(2);
    expect(stderr).toContain('"devices.lab.interval" must be a number (got a string)');
  });

  it('token and cookie files readable by others are warned about', async () => {
    const device = await sim({ token: 'tok' });
    const token = file('open.token', 'tok\n', 0o644);
    const { code, stderr } = await synctop([device.url, '--json', '--token-file', token]);
    expect(code).toBe(0);
    expect(stderr).toContain(`synctop: warning: --token-file ${token} can be read by other users: chmod 600 it`);
  });
});
