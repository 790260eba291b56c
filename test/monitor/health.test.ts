import { describe, expect, it } from 'vitest';
import { defaultThresholds, evaluateHealth, findingKey, rules, verdictSummary } from '../../src/monitor/health.js';
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
    ['antenna short on the working receiver', (s) => void (gnss(s).receivers[0]!.antenna = 'short-circuited'), 'critical', 'GNSS receiver 0 antenna short-circuited'],
    ['antenna open on a standby receiver', (s) => gnss(s).receivers.push(receiver({ id: 1, status: 'standby', antenna: 'open', ppsValid: null })), 'warning', 'GNSS receiver 1 (standby) antenna open'],
    ['PPS invalid on the working receiver', (s) => void (gnss(s).receivers[0]!.ppsValid = false), 'critical', 'GNSS receiver 0 PPS invalid'],
    ['few satellites', (s) => void (gnss(s).receivers[0]!.satellitesTotal = 3), 'warning', 'GNSS receiver 0 tracks 3 satellites (< 4)'],
    ['PTP LOST', (s) => void (ptp(s).ports[1]!.syncState = 'LOST'), 'critical', 'PTP port 1 LOST'],
    ['PTP NEVER', (s) => void (ptp(s).ports[1]!.syncState = 'NEVER'), 'critical', 'PTP port 1 NEVER'],
    ['PTP ACQUIRING', (s) => void (ptp(s).ports[0]!.syncState = 'ACQUIRING'), 'warning', 'PTP port 0 ACQUIRING'],
    ['PTP ACQUIRED', (s) => void (ptp(s).ports[0]!.syncState = 'ACQUIRED'), 'warning', 'PTP port 0 ACQUIRED'],
    ['PTP offset over 100 ns', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = -150), 'warning', 'PTP port 0 offset -150ns from master'],
    ['PTP offset over 1 µs', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = 1_500), 'critical', 'PTP port 0 offset +1.50µs from master'],
    ['alarm refused', (s) => void (s.alarm = { ok: false, error: { kind: 'auth', code: '403', message: 'permission refused' } }), 'warning', 'ALARM cannot be read: permission refused'],
  ])('%s', (_name, edit, severity, message) => {
    const v = evaluateHealth(edited(edit));
    expect(v.severity).toBe(severity);
    expect(v.findings.map((f) => f.message)).toContain(message);
  });

  // clockClass severity by meaning: IEEE 1588-2008 Table 5, ITU-T G.8275.1 Table 2 (6.4).
  it.each<[number, 'ok' | 'warning' | 'critical']>([
    [6, 'ok'],
    [13, 'ok'],
    [7, 'warning'],
    [14, 'warning'],
    [135, 'warning'],
    [52, 'critical'],
    [58, 'critical'],
    [140, 'critical'],
    [150, 'critical'],
    [160, 'critical'],
    [165, 'critical'],
    [187, 'critical'],
    [193, 'critical'],
    [248, 'critical'],
    [255, 'critical'],
    [100, 'warning'],
    [3, 'warning'],
  ])('grandmaster clockClass %i is %s (IEEE 1588 Table 5, G.8275.1 Table 2)', (cls, severity) => {
    const v = evaluateHealth(edited((x) => void (ptp(x).ports[0]!.gmClockClass = cls)));
    expect(v.severity).toBe(severity);
    if (severity !== 'ok') expect(v.findings[0]!.message).toMatch(new RegExp(`^PTP port 0 grandmaster clockClass ${cls} \\(`));
  });

  it('gmPresent false is CRITICAL, and the class the port then reports is its own, not judged', () => {
    const v = evaluateHealth(edited((x) => Object.assign(ptp(x).ports[0]!, { gmPresent: false, gmClockClass: 255 })));
    expect(v.severity).toBe('critical');
    expect(v.findings.map((f) => f.message)).toEqual(['PTP port 0 has no grandmaster (gmPresent false)']);
  });

  const nowS = Date.parse(healthy().takenAt) / 1000;
  // The API: lastUpdate is a timestamp in seconds; compared with this computer's clock, as a difference.
  it.each<[string, number, string | null]>([
    ['current', nowS - 2, null],
    ['59 s old', nowS - 59, null],
    ['9h57m old', nowS - (9 * 3600 + 57 * 60), 'PTP port 0 lastUpdate is 9h57m behind this computer'],
    ['2h ahead', nowS + 7200, 'PTP port 0 lastUpdate is 2h ahead of this computer'],
    ['sent in milliseconds, current', (nowS - 1) * 1000, null],
    ['0', 0, 'PTP port 0 never updated (lastUpdate 0)'],
    ['a count since boot', 3600, null],
  ])('PTP lastUpdate %s', (_name, lastUpdate, message) => {
    const v = evaluateHealth(edited((x) => void (ptp(x).ports[0]!.lastUpdate = lastUpdate)));
    expect(v.findings.map((f) => f.message)).toEqual(message ? [message] : []);
  });

  it('the lastUpdate limit is at least 10 poll intervals', () => {
    const s = edited((x) => void (ptp(x).ports[0]!.lastUpdate = nowS - 100));
    expect(evaluateHealth(s).severity).toBe('warning');
    expect(evaluateHealth(s, defaultThresholds, { intervalMs: 15_000 }).severity).toBe('ok');
    expect(evaluateHealth(s, { ...defaultThresholds, ptpMaxAgeS: 120 }).severity).toBe('ok');
  });

  it.each<[string, string, string | null]>([
    ['in step', '2026-11-22T03:04:03.000Z', null],
    ['11h17m behind', '2026-11-21T15:47:05.000Z', 'GNSS receiver 0 UTC is 11h17m behind this computer'],
    ['8 s ahead', '2026-11-22T03:04:13.000Z', 'GNSS receiver 0 UTC is 8s ahead of this computer'],
  ])("GNSS UTC %s of this computer's clock", (_name, utc, message) => {
    const v = evaluateHealth(edited((x) => void (gnss(x).receivers[0]!.utc = utc)));
    expect(v.findings.map((f) => f.message)).toEqual(message ? [message] : []);
  });

  it("GNSS UTC is compared with the time the GNSS answer came, not the latest section's", () => {
    const s = edited((x) => void (gnss(x).receivers[0]!.utc = '2026-11-22T03:03:57.000Z'));
    expect(evaluateHealth(s).severity).toBe('warning');
    expect(evaluateHealth(s, defaultThresholds, { answeredAt: { gnss: Date.parse('2026-11-22T03:03:57.200Z') } }).severity).toBe('ok');
  });

  // GPS - UTC 18 s since 2017-01-01 (IS-GPS-200), BDT - UTC 4 s: a receiver reporting 17/3 passed the old GPS - BDS = 14 check.
  it.each<[number, number, string | null]>([
    [18, 4, null],
    [17, 3, 'GNSS receiver 0: GPS leap seconds 17 (GPS - UTC is 18 s since 2017-01-01), BDS leap seconds 3 (BDS - UTC is 4 s)'],
    [18, 5, 'GNSS receiver 0: BDS leap seconds 5 (BDS - UTC is 4 s)'],
  ])('leap seconds GPS %i BDS %i', (g, b, message) => {
    const v = evaluateHealth(edited((x) => Object.assign(gnss(x).receivers[0]!, { gpsLeapSeconds: g, bdsLeapSeconds: b })));
    expect(v.findings.map((f) => f.message)).toEqual(message ? [message] : []);
  });

  it('an antenna open while PPS is valid contradicts itself', () => {
    const v = evaluateHealth(edited((x) => gnss(x).receivers.push(receiver({ id: 1, status: 'standby', antenna: 'open', ppsValid: true }))));
    expect(v.findings.map((f) => f.message)).toEqual(['GNSS receiver 1 (standby) antenna open', 'GNSS receiver 1 antenna open yet PPS valid: one of the two flags is wrong']);
  });

  it('a negative mean path delay is a finding', () => {
    const v = evaluateHealth(edited((x) => void (ptp(x).ports[1]!.meanPathDelayNs = -120)));
    expect(v.findings.map((f) => f.message)).toEqual(['PTP port 1 mean path delay negative (-120ns): timestamps or asymmetry correction are wrong']);
  });

  // chrony: reach is the last 8 polls; stratum 16 is unsynchronized; lastRx resets on each sample.
  it.each<[string, (s: Snapshot) => void, 'warning' | 'critical', string[]]>([
    ['the sync source at stratum 16', (s) => void (ntp(s).sources[0]!.stratum = 16), 'critical', ['NTP sync source GPS is at stratum 16 (unsynchronized)']],
    ['the sync source losing reach', (s) => Object.assign(ntp(s).sources[0]!, { reach: '000', reachCount: 0 }), 'warning', ['NTP sync source GPS unreachable (reach 000)']],
    ['a backup source unreachable', (s) => Object.assign(ntp(s).sources[1]!, { reach: '000', reachCount: 0 }), 'warning', ['NTP source ntp1.example unreachable (reach 000)']],
    [
      'an unreachable reference clock says it once',
      (s) => ntp(s).sources.push(source({ name: 'PPS', mode: 'Reference clock', state: 'Not selectable', reach: '000', reachCount: 0 })),
      'warning',
      ['reference clock PPS not selectable (unreachable, reach 000)'],
    ],
    ['the sync source silent for 5 polls', (s) => Object.assign(ntp(s).sources[0]!, { pollSeconds: 16, lastRxSeconds: 80, reach: '340', reachCount: 3 }), 'warning', ['NTP sync source GPS last heard 80s ago (polled every 16s)']],
    ['Synchronized without a sync source', (s) => Object.assign(ntp(s), { syncSource: null }) && void (ntp(s).sources[0]!.isSyncSource = false), 'warning', ['NTP contradicts itself: Synchronized but names no sync source']],
    ['Not synchronized naming a sync source', (s) => void (ntp(s).overallStatus = 'Not synchronized'), 'critical', ['NTP not synchronized', 'NTP contradicts itself: not synchronized yet names sync source GPS']],
    ['two sources marked in use', (s) => void (ntp(s).sources[1]!.isSyncSource = true), 'warning', ['NTP contradicts itself: 2 sources marked as the sync source (GPS, ntp1.example)']],
    ['the name and the marked source differ', (s) => void (ntp(s).syncSource = 'ntp1.example'), 'warning', ['NTP contradicts itself: syncSourceName ntp1.example but source GPS is marked in use']],
  ])('NTP: %s', (_name, edit, severity, messages) => {
    const v = evaluateHealth(edited(edit));
    expect(v.severity).toBe(severity);
    expect(v.findings.map((f) => f.message)).toEqual(messages);
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

  describe('cause and effect (topology and order in time)', () => {
    const antennaAndEffects = (x: Snapshot) => {
      Object.assign(gnss(x).receivers[0]!, { antenna: 'open', ppsValid: null });
      ntp(x).sources[0]!.state = 'Not selectable';
      ptp(x).ports[0]!.gmClockClass = 7;
      ptp(x).ports[1]!.syncState = 'LOST';
    };
    const key = (rule: string, subject: string) => findingKey({ rule, subject });
    const t0 = Date.parse(healthy().takenAt);

    it('a slave port\'s grandmaster is a remote clock: a local antenna never explains PTP findings', () => {
      const firstSeen = new Map([
        [key('gnss-antenna', 'gnss rx 0'), t0 - 60_000],
        [key('ntp-refclock-unselectable', 'ntp source GPS'), t0 - 30_000],
        [key('ptp-state', 'ptp port 1'), t0 - 30_000],
        [key('ptp-gm-class', 'ptp port 0'), t0 - 30_000],
      ]);
      const v = evaluateHealth(edited(antennaAndEffects), defaultThresholds, { firstSeen });
      expect(v.findings.map((f) => f.message)).toEqual([
        'GNSS receiver 0 antenna open -> likely cause of: reference clock GPS not selectable',
        'PTP port 1 LOST',
        'PTP port 0 grandmaster clockClass 7 (holdover, within specification)',
      ]);
      expect(v.findings[0]!.effects?.map((f) => f.subject)).toEqual(['ntp source GPS']);
    });

    it('an effect that started before its cause is not its effect', () => {
      const firstSeen = new Map([
        [key('gnss-antenna', 'gnss rx 0'), t0 - 10_000],
        [key('ntp-refclock-unselectable', 'ntp source GPS'), t0 - 18_000],
      ]);
      const v = evaluateHealth(edited(antennaAndEffects), defaultThresholds, { firstSeen });
      expect(v.findings.map((f) => f.message)).toContain('GNSS receiver 0 antenna open');
      expect(v.findings.map((f) => f.message)).toContain('reference clock GPS not selectable');
    });

    it('without times (one-shot) or started in the same poll, a cause is only possibly one', () => {
      const oneShot = evaluateHealth(edited(antennaAndEffects));
      expect(oneShot.findings[0]!.message).toBe('GNSS receiver 0 antenna open -> possibly the cause of: reference clock GPS not selectable');
      const together = new Map([
        [key('gnss-antenna', 'gnss rx 0'), t0 - 5_000],
        [key('ntp-refclock-unselectable', 'ntp source GPS'), t0 - 5_000],
      ]);
      expect(evaluateHealth(edited(antennaAndEffects), defaultThresholds, { firstSeen: together }).findings[0]!.message).toMatch(/-> possibly the cause of: /);
    });

    it('a finding not yet in the map started now, after its cause', () => {
      const firstSeen = new Map([[key('gnss-antenna', 'gnss rx 0'), t0 - 5_000]]);
      const v = evaluateHealth(edited(antennaAndEffects), defaultThresholds, { firstSeen });
      expect(v.findings[0]!.message).toBe('GNSS receiver 0 antenna open -> likely cause of: reference clock GPS not selectable');
    });

    it('the antenna explains its own receiver\'s PPS and satellite count', () => {
      const firstSeen = new Map([[key('gnss-antenna', 'gnss rx 0'), t0 - 5_000]]);
      const v = evaluateHealth(
        edited((x) => Object.assign(gnss(x).receivers[0]!, { antenna: 'open', ppsValid: false, satellitesTotal: 0 })),
        defaultThresholds,
        { firstSeen },
      );
      expect(v.findings.map((f) => f.message)).toEqual(['GNSS receiver 0 antenna open -> likely cause of: GNSS receiver 0 PPS invalid, GNSS receiver 0 tracks 0 satellites (< 4)']);
      expect(v.severity).toBe('critical');
    });

    it('a standby receiver causes nothing', () => {
      const v = evaluateHealth(
        edited((x) => {
          gnss(x).receivers.push(receiver({ id: 1, status: 'standby', antenna: 'open', ppsValid: null }));
          ntp(x).sources[0]!.state = 'Not selectable';
        }),
      );
      expect(v.findings.map((f) => f.message)).toEqual(['reference clock GPS not selectable', 'GNSS receiver 1 (standby) antenna open']);
    });

    it('with another receiver working, a fault is at most a possible cause', () => {
      const firstSeen = new Map([[key('gnss-antenna', 'gnss rx 0'), t0 - 5_000]]);
      const v = evaluateHealth(
        edited((x) => {
          antennaAndEffects(x);
          gnss(x).receivers.push(receiver({ id: 1 }));
        }),
        defaultThresholds,
        { firstSeen },
      );
      expect(v.findings[0]!.message).toBe('GNSS receiver 0 antenna open -> possibly the cause of: reference clock GPS not selectable');
    });

    it('the merged finding is as severe as the worst of its parts', () => {
      const v = evaluateHealth(edited((x) => {
        gnss(x).receivers[0]!.status = 'offline';
        ntp(x).overallStatus = 'Not synchronized';
        ntp(x).syncSource = null;
        ntp(x).sources[0]!.isSyncSource = false;
      }));
      expect(v.findings[0]).toMatchObject({ severity: 'critical', message: 'no GNSS receiver working -> possibly the cause of: NTP not synchronized' });
    });
  });

  it('every finding names a subject to be followed by', () => {
    const v = evaluateHealth(edited((x) => {
      ptp(x).ports[1]!.syncState = 'LOST';
      ntp(x).sources[1]!.state = 'False ticker';
      gnss(x).receivers[0]!.satellitesTotal = 2;
    }));
    expect(v.findings.map((f) => f.subject)).toEqual(['ptp port 1', 'ntp source ntp1.example', 'gnss rx 0']);
  });

  it('sorts worst first and summarizes with the count of the rest', () => {
    const s = edited((x) => {
      ptp(x).ports[0]!.syncState = 'ACQUIRING';
      ntp(x).overallStatus = 'Not synchronized';
      ntp(x).syncSource = null;
      ntp(x).sources[0]!.isSyncSource = false;
    });
    const v = evaluateHealth(s);
    expect(v.findings[0]!.severity).toBe('critical');
    expect(verdictSummary(v)).toBe('CRITICAL: NTP not synchronized (+1 more)');
  });

  it('honours custom thresholds', () => {
    const s = edited((x) => void (ptp(x).ports[0]!.offsetFromMasterNs = 500));
    expect(evaluateHealth(s).severity).toBe('warning');
    expect(evaluateHealth(s, { ...defaultThresholds, ptpWarnNs: 600 }).severity).toBe('ok');
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

describe('the README health table', () => {
  // Issue 15 item 4: every rule and its threshold documented, and nothing documented that is not a rule.
  it('lists every rule of the table, and only those', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### The health verdict'), readme.indexOf('## Authentication and TLS'));
    const documented = [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(rules.map((r) => r.id));
  });
});
