import { describe, expect, it } from 'vitest';
import { diffSnapshots, EventLog, StateClock, stateKey } from '../../src/monitor/events.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { down, edited, healthy, receiver, source } from './snapshots.js';

const ntp = (s: Snapshot) => (s.ntp.ok ? s.ntp.data : null)!;
const gnss = (s: Snapshot) => (s.gnss.ok ? s.gnss.data : null)!;
const ptp = (s: Snapshot) => (s.ptp.ok ? s.ptp.data : null)!;

describe('diffSnapshots', () => {
  it('no change, no event', () => {
    expect(diffSnapshots(healthy(), healthy(), 1)).toEqual([]);
  });

  it.each<[string, (s: Snapshot) => void, string, string]>([
    ['overall status', (s) => void (ntp(s).overallStatus = 'Not synchronized'), 'critical', 'NTP synchronized -> not synchronized'],
    ['sync source', (s) => void (ntp(s).syncSource = 'ntp1.example'), 'warning', 'sync source GPS -> ntp1.example'],
    ['source state', (s) => void (ntp(s).sources[1]!.state = 'False ticker'), 'warning', 'source ntp1.example: selectable -> false ticker'],
    // A backup source going silent is information; the sync source going silent a warning (the finding says more).
    ['a backup reaching 000', (s) => void (ntp(s).sources[1]!.reachCount = 0), 'info', 'source ntp1.example unreachable (reach 000)'],
    ['the sync source reaching 000', (s) => void (ntp(s).sources[0]!.reachCount = 0), 'warning', 'source GPS unreachable (reach 000)'],
    ['receiver status', (s) => void (gnss(s).receivers[0]!.status = 'offline'), 'critical', 'GNSS receiver 0 working -> offline'],
    ['antenna open', (s) => void (gnss(s).receivers[0]!.antenna = 'open'), 'critical', 'GNSS receiver 0 antenna normal -> open'],
    ['antenna open on a standby receiver', (s) => Object.assign(gnss(s).receivers[0]!, { status: 'standby', antenna: 'open' }), 'warning', 'GNSS receiver 0 antenna normal -> open'],
    ['PPS invalid on the working receiver', (s) => void (gnss(s).receivers[0]!.ppsValid = false), 'critical', 'GNSS receiver 0 PPS invalid'],
    ['satellites below threshold', (s) => void (gnss(s).receivers[0]!.satellitesTotal = 2), 'warning', 'GNSS receiver 0 satellites 33 -> 2 (below 4)'],
    ['leap second', (s) => void (gnss(s).receivers[0]!.gpsLeapSeconds = 19), 'warning', 'GNSS receiver 0 GPS leap seconds 18 -> 19'],
    ['PTP state', (s) => void (ptp(s).ports[0]!.syncState = 'LOST'), 'critical', 'PTP port 0 STABLE -> LOST'],
    ['GM switchover', (s) => void (ptp(s).ports[0]!.gmIdentity = '00aabb.fffe.ccddee'), 'warning', 'PTP port 0 grandmaster changed 001122.fffe.334455 -> 00aabb.fffe.ccddee'],
    // clockClass changes as severe as the class they go to (IEEE 1588 Table 5, G.8275.1 Table 2).
    ['GM holdover', (s) => void (ptp(s).ports[0]!.gmClockClass = 7), 'warning', 'PTP port 0 grandmaster clockClass 6 -> 7'],
    ['GM out of holdover specification', (s) => void (ptp(s).ports[0]!.gmClockClass = 140), 'critical', 'PTP port 0 grandmaster clockClass 6 -> 140'],
    ['parent port', (s) => void (ptp(s).ports[0]!.parentPortIdentity = '00aabb.fffe.ccddee-2'), 'warning', 'PTP port 0 parent port changed 001122.fffe.334455-1 -> 00aabb.fffe.ccddee-2'],
    ['steps removed', (s) => void (ptp(s).ports[0]!.stepsRemoved = 3), 'info', 'PTP port 0 steps removed 1 -> 3'],
    ['PTP offset over crit', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = 200_000), 'critical', 'PTP port 0 offset over the critical threshold (+200µs)'],
    ['operation unreachable', (s) => void (s.gnss = down()), 'critical', 'GNSS unreachable: connection refused: nothing listens at that address and port'],
    ['operation refused', (s) => void (s.alarm = { ok: false, error: { kind: 'auth', code: '403', message: 'permission refused' } }), 'warning', 'ALARM refused: permission refused'],
  ])('%s', (_name, edit, severity, message) => {
    const events = diffSnapshots(healthy(), edited(edit), 42);
    expect(events).toContainEqual(expect.objectContaining({ at: 42, severity, message }));
  });

  // G.8275.1 T-TSC: a port without a grandmaster reports its own clock (its identity, class 255, as
  // the simulator's LOST port does): losing and finding the grandmaster are the events, never a
  // "grandmaster changed" or "parent port changed" to or from the port's own clock.
  const ownClock = (s: Snapshot) =>
    void Object.assign(ptp(s).ports[0]!, { syncState: 'LOST', gmPresent: false, gmIdentity: '00a0c9.fffe.123456', parentPortIdentity: '00a0c9.fffe.123456-1', gmClockClass: 255, stepsRemoved: 0 });
  it.each<[string, Snapshot, Snapshot, string[]]>([
    ['losing the grandmaster', healthy(), edited(ownClock), ['critical PTP port 0 STABLE -> LOST', 'critical PTP port 0 lost its grandmaster (gmPresent false)']],
    ['finding it again', edited(ownClock), healthy(), ['ok PTP port 0 LOST -> STABLE', 'ok PTP port 0 sees a grandmaster again (001122.fffe.334455, clockClass 6)']],
    ['its own clock moving while it has none', edited(ownClock), edited((s) => {
      ownClock(s);
      ptp(s).ports[0]!.gmClockClass = 248;
    }), []],
  ])('PTP: %s', (_name, before, after, expected) => {
    expect(diffSnapshots(before, after, 1).map((e) => `${e.severity} ${e.message}`)).toEqual(expected);
  });

  it.each<[string, (s: Snapshot) => void, string]>([
    ['reach recovers', (s) => void (ntp(s).sources[1]!.reachCount = 0), 'source ntp1.example reachable again (reach 377)'],
    ['antenna back', (s) => void (gnss(s).receivers[0]!.antenna = 'open'), 'GNSS receiver 0 antenna open -> normal'],
    ['PTP offset back', (s) => void (ptp(s).ports[0]!.offsetFromMasterNs = 5000), 'PTP port 0 offset back within thresholds (+12ns)'],
    ['operation answers again', (s) => void (s.ntp = down()), 'NTP answers again'],
  ])('recovery: %s', (_name, breakIt, message) => {
    const events = diffSnapshots(edited(breakIt), healthy(), 7);
    expect(events).toContainEqual(expect.objectContaining({ severity: 'ok', message }));
  });
});

describe('diffSnapshots: identities the device repeats', () => {
  // Two receivers with id 0 (one working, one standby) and two sources named GPS: each is paired
  // with its namesake of the same rank, so nothing changed gives no event.
  const twins = () =>
    edited((s) => {
      gnss(s).receivers = [receiver({ id: 0 }), receiver({ id: 0, status: 'standby', antenna: null, ppsValid: null, satellitesTotal: 0 })];
      ntp(s).sources = [source({ name: 'GPS', state: 'Best source', isSyncSource: true }), source({ name: 'GPS', state: 'Not selectable', reachCount: 0 })];
    });

  it('no change, no event', () => {
    expect(diffSnapshots(twins(), twins(), 1)).toEqual([]);
  });

  it('the second of two namesakes changing is its own change', () => {
    const after = edited((s) => void (gnss(s).receivers[1]!.status = 'offline'), twins());
    expect(diffSnapshots(twins(), after, 1).map((e) => e.message)).toEqual(['GNSS receiver 0 standby -> offline']);
  });

  it('time in state: the first of two namesakes, kept while nothing changes', () => {
    const clock = new StateClock();
    clock.observe(twins(), 1000);
    clock.observe(twins(), 2000);
    expect(clock.get(stateKey.gnss(0))).toEqual({ state: 'working', since: 1000, atLeast: true });
    expect(clock.get(stateKey.ntp('GPS'))).toEqual({ state: 'Best source', since: 1000, atLeast: true });
  });
});

describe('EventLog', () => {
  it('keeps at most its capacity, newest first', () => {
    const log = new EventLog(3);
    for (let i = 0; i < 10; i++) log.add([{ at: i, severity: 'info', section: 'ntp', message: `e${i}` }]);
    expect(log.length).toBe(3);
    expect(log.newestFirst().map((e) => e.message)).toEqual(['e9', 'e8', 'e7']);
  });
});

describe('StateClock', () => {
  it('counts time in state from the first poll that saw it', () => {
    const clock = new StateClock();
    clock.observe(healthy(), 1000);
    clock.observe(healthy(), 2000);
    // First seen: it was so before, by an unknown time.
    expect(clock.get(stateKey.ptp(0))).toEqual({ state: 'STABLE', since: 1000, atLeast: true });
    clock.observe(edited((s) => void (ptp(s).ports[0]!.syncState = 'LOST')), 3000);
    // A change seen between two answers: exact.
    expect(clock.get(stateKey.ptp(0))).toEqual({ state: 'LOST', since: 3000 });
    expect(clock.get(stateKey.ntp('GPS'))).toEqual({ state: 'Best source', since: 1000, atLeast: true });
  });

  it('forgets an item only when its section answered without it', () => {
    const clock = new StateClock();
    clock.observe(healthy(), 1000);
    clock.observe(edited((s) => void (s.ptp = down())), 2000);
    expect(clock.get(stateKey.ptp(1))).toBeDefined();
    clock.observe(edited((s) => void ptp(s).ports.pop()), 3000);
    expect(clock.get(stateKey.ptp(1))).toBeUndefined();
  });
});

describe('StateClock after a gap', () => {
  it('a change seen after its section could not be read is a lower bound', () => {
    const clock = new StateClock();
    clock.observe(healthy(), 1000);
    clock.observe(edited((s) => void (s.ptp = down())), 2000);
    clock.observe(edited((s) => void ((s.ptp.ok ? s.ptp.data : null)!.ports[0]!.syncState = 'LOST')), 3000);
    expect(clock.get(stateKey.ptp(0))).toEqual({ state: 'LOST', since: 3000, atLeast: true });
  });
});
