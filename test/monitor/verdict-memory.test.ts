/**
 * The verdict's memory: last known findings kept (stale) while their data cannot be read, never
 * a milder verdict for lost information; first-seen times; the diff base after a gap.
 */
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { diffSnapshots } from '../../src/monitor/events.js';
import { findingKey, findingsAtStart, healthJson, VerdictMemory } from '../../src/monitor/verdict-memory.js';
import { down, edited, healthy } from './snapshots.js';

const ptp = (s: Snapshot) => (s.ptp.ok ? s.ptp.data : null)!;
const gnss = (s: Snapshot) => (s.gnss.ok ? s.gnss.data : null)!;
const http500 = { ok: false, error: { kind: 'http', code: '500', message: 'HTTP 500 from the device' } } as const;
const noReceiver = { ok: false, error: { kind: 'device', code: '40003', message: 'no GNSS receiver' } } as const;

const lost = edited((s) => void (ptp(s).ports[0]!.syncState = 'LOST'));
const offsetCrit = edited((s) => void (ptp(s).ports[0]!.offsetFromMasterNs = 184_000));
const antennaOpen = edited((s) => void (gnss(s).receivers[0]!.antenna = 'open'));

describe('VerdictMemory: what cannot be read keeps its last known findings', () => {
  it.each<[string, Snapshot, (s: Snapshot) => void, string, 'critical' | 'warning', boolean]>([
    ['PTP section times out', offsetCrit, (s) => void (s.ptp = down('timed out after 3000 ms')), 'PTP port 0 offset +184µs from master', 'critical', true],
    ['PTP section answers HTTP 500', lost, (s) => void (s.ptp = http500), 'PTP port 0 LOST', 'critical', true],
    ['one PTP port times out', lost, (s) => void (ptp(s).ports[0] = { ...ptp(s).ports[0]!, ok: false, error: down('timed out').error }), 'PTP port 0 LOST', 'critical', false],
    ['GNSS refused (403)', antennaOpen, (s) => void (s.gnss = { ok: false, error: { kind: 'auth', code: '403', message: 'refused' } }), 'GNSS receiver 0 antenna open', 'critical', true],
    ['whole device unreachable', lost, (s) => void (s.ntp = s.gnss = s.ptp = s.alarm = down()), 'PTP port 0 LOST', 'critical', true],
  ])('%s: the finding stays, stale, and the verdict is not milder', (_name, before, fail, message, severity, sectionFinding) => {
    const memory = new VerdictMemory();
    const first = memory.evaluate(before, 1000);
    expect(first.severity).toBe(severity);
    const v = memory.evaluate(edited(fail, before), 5000);
    expect(v.severity).toBe(severity);
    const kept = v.findings.find((f) => f.message.startsWith(message));
    expect(kept).toMatchObject({ severity, since: 1000, staleDataAt: 1000 });
    // What is wrong now (the section cannot be read) is said too, and is not stale; a single
    // port's failure is said in its pane and its events.
    expect(v.findings.some((f) => f.staleDataAt === undefined && /cannot be read|unreachable/.test(f.message))).toBe(sectionFinding);
  });

  it('a device error is an answer: 40003 ends the antenna finding', () => {
    const memory = new VerdictMemory();
    memory.evaluate(antennaOpen, 1000);
    const v = memory.evaluate(edited((s) => void (s.gnss = noReceiver), antennaOpen), 2000);
    expect(v.findings.some((f) => /antenna/.test(f.message))).toBe(false);
  });

  it('a finding whose section answers again without it is gone', () => {
    const memory = new VerdictMemory();
    memory.evaluate(lost, 1000);
    memory.evaluate(edited((s) => void (s.ptp = http500), lost), 2000);
    const v = memory.evaluate(healthy(), 3000);
    expect(v).toEqual({ severity: 'ok', findings: [] });
    expect(memory.firstSeen.size).toBe(0);
  });

  it('a merged cause keeps its effects (stale) when their section cannot be read', () => {
    const both = edited((s) => {
      gnss(s).receivers[0]!.antenna = 'open';
      // The reference clock this receiver feeds: an effect on this device (a PTP port's remote
      // grandmaster never is one).
      if (s.ntp.ok) s.ntp.data.sources[0]!.state = 'Not selectable';
    });
    const memory = new VerdictMemory();
    const merged = memory.evaluate(both, 1000).findings[0]!;
    expect(merged.message).toMatch(/antenna open -> (likely|possibly the) cause of: reference clock GPS/);
    const v = memory.evaluate(edited((s) => void (s.ntp = http500), both), 2000);
    const kept = v.findings.filter((f) => f.rule === merged.rule);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ message: merged.message, staleDataAt: 1000, since: 1000 });
  });
});

describe('VerdictMemory: since when', () => {
  it('keeps the first-seen time while a finding lasts; at start it is a lower bound', () => {
    const memory = new VerdictMemory();
    const start = memory.evaluate(lost, 1000);
    expect(start.findings[0]).toMatchObject({ since: 1000, sinceAtLeast: true });
    memory.evaluate(lost, 2000);
    const later = memory.evaluate(edited((s) => void (gnss(s).receivers[0]!.satellitesTotal = 2), lost), 3000);
    // The PTP finding keeps its time; the new satellites one was seen appearing: exact.
    expect(later.findings.find((f) => f.rule === 'ptp-state')).toMatchObject({ since: 1000 });
    const pps = later.findings.find((f) => f.rule === 'gnss-satellites')!;
    expect(pps.since).toBe(3000);
    expect(pps.sinceAtLeast).toBeUndefined();
    expect(memory.firstSeen.get(findingKey(pps))).toBe(3000);
  });

  it('a finding first seen after its section could not be read began unseen', () => {
    const memory = new VerdictMemory();
    memory.evaluate(healthy(), 1000);
    memory.evaluate(edited((s) => void (s.ptp = http500)), 2000);
    const v = memory.evaluate(lost, 3000);
    expect(v.findings[0]).toMatchObject({ rule: 'ptp-state', since: 3000, sinceAtLeast: true });
  });

  it('the events at start list what is already wrong', () => {
    const memory = new VerdictMemory();
    const events = findingsAtStart(memory.evaluate(antennaOpen, 1000), 1000);
    expect(events).toEqual([
      { at: 1000, severity: 'critical', section: 'gnss', message: 'at start: GNSS receiver 0 antenna open' },
      { at: 1000, severity: 'warning', section: 'gnss', message: 'at start: GNSS receiver 0 antenna open yet PPS valid: one of the two flags is wrong' },
    ]);
  });

  it('healthJson: ISO times, only what is known', () => {
    const memory = new VerdictMemory();
    memory.evaluate(lost, Date.UTC(2026, 10, 22, 3, 0, 0));
    const v = memory.evaluate(edited((s) => void (s.ptp = http500), lost), Date.UTC(2026, 10, 22, 3, 0, 10));
    const json = healthJson(v);
    expect(json.severity).toBe('critical');
    expect(json.findings[0]).toEqual({
      rule: 'ptp-state',
      severity: 'critical',
      section: 'ptp',
      message: 'PTP port 0 LOST',
      since: '2026-11-22T03:00:00.000Z',
      sinceAtLeast: true,
      staleDataAt: '2026-11-22T03:00:00.000Z',
    });
  });
});

describe('the diff base after a gap', () => {
  it('changes while a section could not be read become events when it answers again', () => {
    const memory = new VerdictMemory();
    memory.evaluate(lost, 1000);
    const during = edited((s) => void (s.ptp = down()), lost);
    memory.evaluate(during, 2000);
    const after = healthy();
    const events = diffSnapshots(during, after, 3000, undefined, memory.known(during).snapshot).map((e) => e.message);
    expect(events).toContain('PTP port 0 LOST -> STABLE');
    expect(events).toContain('PTP answers again');
    // Without the base, only the recovery is seen (what pause/resume already avoided).
    expect(diffSnapshots(during, after, 3000).map((e) => e.message)).not.toContain('PTP port 0 LOST -> STABLE');
  });
});

describe('PTP port events', () => {
  it.each<[string, Snapshot, Snapshot, string, string]>([
    ['a port dropped by rediscovery', healthy(), edited((s) => void ptp(s).ports.pop()), 'warning', 'PTP port 1 gone (no longer a slave port)'],
    ['a port found', edited((s) => void ptp(s).ports.pop()), healthy(), 'info', 'PTP port 1 found'],
    [
      'a port answering 40004',
      healthy(),
      edited((s) => void (ptp(s).ports[1] = { ...ptp(s).ports[1]!, ok: false, error: { kind: 'device', code: '40004', message: 'no PTP slave port with that id' } })),
      'warning',
      'PTP port 1 gone (not found: 40004)',
    ],
    ['a port failing on its own', healthy(), edited((s) => void (ptp(s).ports[1] = { ...ptp(s).ports[1]!, ok: false, error: down('timed out').error })), 'warning', 'PTP port 1 cannot be read: timed out'],
    ['a port back', edited((s) => void (ptp(s).ports[1] = { ...ptp(s).ports[1]!, ok: false, error: down('timed out').error })), healthy(), 'ok', 'PTP port 1 answers again'],
  ])('%s', (_name, before, after, severity, message) => {
    expect(diffSnapshots(before, after, 9)).toContainEqual({ at: 9, severity, section: 'ptp', message });
  });

  it('a port that already failed is not reported gone again when rediscovery drops it', () => {
    const failed = edited((s) => void (ptp(s).ports[1] = { ...ptp(s).ports[1]!, ok: false, error: { kind: 'device', code: '40004', message: 'x' } }));
    expect(diffSnapshots(failed, edited((s) => void ptp(s).ports.pop()), 9)).toEqual([]);
  });
});
