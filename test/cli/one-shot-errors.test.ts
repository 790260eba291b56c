/**
 * What the one-shot modes (--json, --once, check) say when a device misbehaves, from the real
 * binary against simulated devices over real HTTP: only a device that cannot be connected to at
 * all stops the asking; a stalled operation does not lend its error to the others; a refused
 * login, a wrong base URL, https:// to a plain-HTTP port, oversized headers and a redirect are
 * each named for what they are.
 */
import { describe, expect, it } from 'vitest';
import { sim, synctop, useBinary } from './binary.js';

type Section = { ok: boolean; error?: { kind: string; code?: string; message: string } };
const sectionsOf = (json: string) => JSON.parse(json) as Record<'ntp' | 'gnss' | 'alarm' | 'ptp', Section>;

useBinary();

describe('one operation stalls, the others are still asked', () => {
  it('--json: NTP times out, GNSS, alarm and PTP are read', async () => {
    const device = await sim({ faults: 'ntp=stall-headers' });
    const { code, stdout } = await synctop([device.url, '--json', '--timeout', '1000']);
    expect(code).toBe(1);
    const s = sectionsOf(stdout);
    expect(s.ntp.error).toMatchObject({ kind: 'network', code: 'TIMEOUT', message: 'no complete answer within 1 s (timeout)' });
    expect([s.gnss.ok, s.alarm.ok, s.ptp.ok]).toEqual([true, true, true]);
  });

  it('check: within its --timeout, the other operations get the time the stalled one left', async () => {
    const device = await sim({ faults: 'ntp=stall-headers' });
    const started = Date.now();
    const { code, stdout } = await synctop(['check', device.url, '--timeout', '2000']);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^SYNCTOP WARNING - NTP cannot be read: no complete answer within 1 s \(timeout\) \| /);
    expect(stdout).toMatch(/ptp_port0_offset=/);
    expect(stdout).toMatch(/gnss_rx0_satellites=/);
    expect(stdout).not.toMatch(/GNSS cannot be read|PTP cannot be read|ALARM cannot be read/);
  });

  it('a device that refuses the connection: the rest are not asked, and say so', async () => {
    // Port 1: nothing listens (a closed simulator's port could be taken by a parallel test).
    const { code, stdout } = await synctop(['http://127.0.0.1:1', '--json']);
    expect(code).toBe(1);
    const s = sectionsOf(stdout);
    expect(s.ntp.error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    for (const section of [s.gnss, s.alarm, s.ptp]) {
      expect(section.error).toEqual({ kind: 'network', code: 'NOT_ASKED', message: 'not asked: the device did not accept a connection' });
    }
  });
});

describe('answers that cannot be used are protocol or HTTP errors, named for what they are', () => {
  it('a body over the size cap is protocol; oversized headers are not "unreachable"; a redirect says where', async () => {
    const device = await sim({ faults: 'alarm=huge,gnss=huge-headers,ntp=redirect' });
    const { stdout } = await synctop([device.url, '--json']);
    const s = sectionsOf(stdout);
    expect(s.alarm.error).toMatchObject({ kind: 'protocol', code: 'SIZE' });
    expect(s.gnss.error).toMatchObject({ kind: 'protocol', message: 'the device sent oversized HTTP response headers (over 16 KiB) and the answer was refused' });
    expect(s.ntp.error).toMatchObject({ kind: 'http', code: '302', message: 'the device redirected (HTTP 302) to /login.html?next=%2F; synctop does not follow redirects: give the device URL it should use' });
    expect(s.ptp.ok).toBe(true);
  });

  it('https:// to a plain-HTTP port says the port speaks plain HTTP, not "--ca / --insecure"', async () => {
    const device = await sim();
    const https = device.url.replace('http:', 'https:');
    const { stdout } = await synctop([https, '--json']);
    const s = sectionsOf(stdout);
    expect(s.ntp.error!.message).toBe(`the port speaks plain HTTP, not TLS: use ${device.url}`);
    expect(s.ntp.error!.message).not.toMatch(/--ca|--insecure/);
    expect(s.gnss.error!.code).toBe('NOT_ASKED');
  });
});

describe('a token-protected device', () => {
  it('no credentials: every operation refused is CRITICAL "not logged in", naming the fix', async () => {
    const device = await sim({ token: 'right' });
    const check = await synctop(['check', device.url]);
    expect(check.code).toBe(2);
    expect(check.stdout.trimEnd()).toMatch(
      /^SYNCTOP CRITICAL - not logged in \(HTTP 401 from every operation\): set SYNCTOP_TOKEN, or --token-file \/ --cookie-file$/,
    );
    const once = await synctop([device.url, '--once']);
    expect(once.code).toBe(1);
    expect(once.stdout).toMatch(/health {2}CRITICAL/);
    expect(once.stdout).not.toMatch(/cannot be read/);
  });

  it('a wrong token: refused, named by where it came from, never repeated', async () => {
    const device = await sim({ token: 'right' });
    const check = await synctop(['check', device.url], { SYNCTOP_TOKEN: 'wrong-token-value' });
    expect(check.code).toBe(2);
    expect(check.stdout.trimEnd()).toBe('SYNCTOP CRITICAL - not logged in: token from SYNCTOP_TOKEN refused, wrong or expired (HTTP 401 from every operation)');
    expect(check.stdout).not.toContain('wrong-token-value');
  });

  it('one operation refused (403) stays a warning for that section', async () => {
    const device = await sim({ deny: ['alarm'] });
    const check = await synctop(['check', device.url]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^SYNCTOP WARNING - ALARM cannot be read: permission refused \(HTTP 403\): .*alarm:get_alarm_email; set SYNCTOP_TOKEN, or --token-file \/ --cookie-file/);
  });
});

describe('a wrong base URL', () => {
  it('/api/v1 pasted into the URL: one line, the URL tried and the fix', async () => {
    const device = await sim();
    const check = await synctop(['check', `${device.url}/api/v1`]);
    expect(check.code).toBe(2);
    expect(check.stdout).toBe(
      `SYNCTOP CRITICAL - device API not found: try ${device.url}, without /api/v1 (HTTP 404 from every operation; tried ${device.url}/api/v1/api/v1/ntp/get_input_sources_status)\n`,
    );
  });
});
