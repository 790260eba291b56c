import { describe, expect, it } from 'vitest';
import { defaultThresholds, evaluateHealth, rules, verdictSummary } from '../../src/monitor/health.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { down, edited, healthy, port, receiver, source } from './snapshots.js';

const ntp = (s: Snapshot) => (s.ntp.ok ? s.ntp.data : null)!;
const gnss = (s: Snapshot) => (s.gnss.ok ? s.gnss.data : null)!;
const ptp = (s: Snapshot) => (s.ptp.ok ? s.ptp.data : null)!;

describe('evaluateHealth', () => {
  it('a healthy device is OK with no findings', () => {
    expect(evaluateHealth(healthy())).toEqual({ severity: 'ok', findings: [] });
    expect(verdictSummary(evaluateHealth(healthy()))).toBe('OK');
  });

  it.each<[string, (s: Snapshot) => void, 'warning' | 'critical', string]>([
    ['NTP not synchronized', (s) => void (ntp(s).overallStatus = 'Not synchronized'), 'critical', 'NTP not synchronized'],
    ['a false ticker', (s) => ntp(s).sources.push(source({ name: 'bad', state: 'False ticker' })), 'warning', 'NTP source bad is false ticker'],
    ['a too variable source', (s) => ntp(s).sources.push(source({ name: 'wob', state: 'Too variable' })), 'warning', 'NTP source wob is too variable'],
    ['NTP offset over warn', (s) => void (ntp(s).sources[0]!.offsetNs = 20_000_000), 'warning', 'NTP offset +20.0ms to GPS'],
    ['NTP offset over crit', (s) => void (ntp(s).sources[0]!.offsetNs = -150_000_000), 'critical', 'NTP offset -150ms to GPS'],
    ['no receiver working', (s) => void (gnss(s).receivers[0]!.status = 'standby'), 'critical', 'no GNSS receiver working'],
    ['antenna short', (s) => void (gnss(s).receivers[0]!.antenna = 'short-circuited'), 'critical', 'GNSS receiver 0 antenna short-circuited'],
    ['PPS invalid', (s) => void (gnss(s).receivers[0]!.ppsValid = false), 'warning', 'GNSS receiver 0 PPS invalid'],
    ['few satellites', (s) => void (gnss(s).receivers[0]!.satellitesTotal = 3), 'warning', 'GNSS receiver 0 tracks 3 satellites (< 4)'],
    ['leap seconds disagree', (s) => void (gnss(s).receivers[0]!.bdsLeapSeconds = 5), 'warning', 'GNSS receiver 0: GPS leap seconds 18 and BDS 5 should differ by 14 (BDS = GPS - 14 s)'],
    ['PTP LOST', (s) => void (ptp(s).ports[1]!.syncState = 'LOST'), 'critical', 'PTP port 1 LOST'],
    ['PTP NEVER', (s) => void (ptp(s).ports[1]!.syncState = 'NEVER'), 'critical', 'PTP port 1 NEVER'],
    ['PTP ACQUIRING', (s) => void (ptp(s).ports[0]!.syncState = 'ACQUIRING'), 'warning', 'PTP port 0 ACQUIRING'],
    ['PTP ACQUIRED', (s) => void (ptp(s).ports[0]!.syncState = 'ACQUIRED'), 'warning', 'PTP port 0 ACQUIRED'],
    ['PTP offset over 1 µs', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = -1500), 'warning', 'PTP port 0 offset -1.50µs from master'],
    ['PTP offset over 100 µs', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = 250_000), 'critical', 'PTP port 0 offset +250µs from master'],
    ['grandmaster in holdover', (s) => void (ptp(s).ports[0]!.gmClockClass = 7), 'warning', 'PTP port 0 grandmaster clockClass 7'],
    ['alarm refused', (s) => void (s.alarm = { ok: false, error: { kind: 'auth', code: '403', message: 'permission refused' } }), 'warning', 'ALARM cannot be read: permission refused'],
  ])('%s', (_name, edit, severity, message) => {
    const v = evaluateHealth(edited(edit));
    expect(v.severity).toBe(severity);
    expect(v.findings.map((f) => f.message)).toContain(message);
  });

  it('an unreachable device is one CRITICAL finding, not four', () => {
    const s = edited((x) => {
      x.ntp = down();
      x.gnss = down();
      x.ptp = down();
      x.alarm = down();
    });
    const v = evaluateHealth(s);
    expect(v.severity).toBe('critical');
    expect(v.findings).toHaveLength(1);
    expect(v.findings[0]!.message).toMatch(/^device unreachable: connection refused/);
  });

  it('a device without GNSS (40003) is not an error of the device', () => {
    const s = edited((x) => void (x.gnss = { ok: false, error: { kind: 'device', code: '40003', message: 'no GNSS receiver, or no permission to see it' } }));
    expect(evaluateHealth(s).severity).toBe('ok');
  });

  it('merges an antenna fault with what it explains, cause first', () => {
    const s = edited((x) => {
      gnss(x).receivers[0]!.antenna = 'open';
      ntp(x).sources[0]!.state = 'Not selectable';
      ptp(x).ports[0]!.gmClockClass = 7;
      ptp(x).ports[1]!.syncState = 'LOST';
    });
    const v = evaluateHealth(s);
    expect(v.severity).toBe('critical');
    expect(v.findings[0]!.message).toBe(
      'GNSS receiver 0 antenna open -> likely cause of: reference clock GPS not selectable, PTP port 1 LOST, PTP port 0 grandmaster clockClass 7',
    );
    expect(v.findings.some((f) => f.message === 'PTP port 1 LOST')).toBe(false);
  });

  it('sorts worst first and summarizes with the count of the rest', () => {
    const s = edited((x) => {
      ptp(x).ports[0]!.syncState = 'ACQUIRING';
      ntp(x).overallStatus = 'Not synchronized';
    });
    const v = evaluateHealth(s);
    expect(v.findings[0]!.severity).toBe('critical');
    expect(verdictSummary(v)).toBe('CRITICAL: NTP not synchronized (+1 more)');
  });

  it('honours custom thresholds', () => {
    const s = edited((x) => void (ptp(x).ports[0]!.offsetFromMasterNs = 500));
    expect(evaluateHealth(s).severity).toBe('ok');
    expect(evaluateHealth(s, { ...defaultThresholds, ptpWarnNs: 100 }).severity).toBe('warning');
    const fewer = edited((x) => void (gnss(x).receivers[0] = receiver({ satellitesTotal: 5 })));
    expect(evaluateHealth(fewer, { ...defaultThresholds, minSats: 6 }).severity).toBe('warning');
  });

  it('every rule says what it checks', () => {
    for (const r of rules) expect(r.checks.length).toBeGreaterThan(10);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  });

  it('a port with its own error does not count as a bad state', () => {
    const s = edited((x) => void ptp(x).ports.push({ ...port({ id: 2 }), ok: false, syncState: null, error: { kind: 'device', code: '40004', message: 'no PTP slave port with that id' } }));
    expect(evaluateHealth(s).severity).toBe('ok');
  });
});
