/** The fleet view's pure parts: status, order, summary, GM agreement, timeline, keys, check line. */
import { describe, expect, it } from 'vitest';
import { fleetCheckOutcome, perfPrefix } from '../../src/fleet/check.js';
import type { MonitorState } from '../../src/monitor/state.js';
import type { Snapshot } from '../../src/model/snapshot.js';
import { defaultThresholds } from '../../src/monitor/health.js';
import { fleetUiReducer, initialFleetUi } from '../../src/ui/fleet/fleet-keys.js';
import { lineText } from '../../src/view/cell.js';
import { fleetEventLine, mergedEvents } from '../../src/view/fleet-events.js';
import { fleetAge, fleetOffset, fleetRowCache, fleetRows, SPARK_WIDTH, TREND_STEP, trendPoints, fleetStatus, fleetSummary, gmAgreement, gmDisagreementLine, sortFleetRows, type FleetRow, type FleetStatus, selectedFindingsLines } from '../../src/view/fleet-rows.js';
import { glyphsFor } from '../../src/view/theme.js';
import { Ring } from '../../src/monitor/history.js';
import { emptyState, healthyState, NOW, unreachableState } from '../ui/fixtures.js';

const opts = { ascii: false, glyphs: glyphsFor(false) };
const attempted = (s: MonitorState) => {
  for (const n of ['ntp', 'gnss', 'ptp', 'alarm'] as const) s[n].attemptedAt = NOW - 1000;
  return s;
};
function withVerdict(severity: 'ok' | 'warning' | 'critical', message = 'something'): MonitorState {
  const s = attempted(healthyState());
  s.verdict = severity === 'ok' ? { severity, findings: [] } : { severity, findings: [{ rule: 'r', severity, section: 'ptp', subject: 'ptp port 0', topic: 'ptp-state', message }] };
  return s;
}
function withGm(gm: string | null): MonitorState {
  const s = withVerdict('ok');
  s.ptp.data = { ports: s.ptp.data!.ports.map((p) => ({ ...p, gmIdentity: gm, gmPresent: gm !== null })) };
  return s;
}

describe('fleetStatus', () => {
  it.each<[string, () => MonitorState, FleetStatus]>([
    ['no answer yet', emptyState, 'waiting'],
    ['not answering', unreachableState, 'down'],
    ['OK', () => withVerdict('ok'), 'ok'],
    ['warning', () => withVerdict('warning'), 'warning'],
    ['critical', () => withVerdict('critical'), 'critical'],
  ])('%s', (_, make, status) => expect(fleetStatus(make())).toBe(status));
});

describe('fleetOffset: two significant digits (in the unit style of the panes), so a row does not change with every answer', () => {
  it.each<[number | null, string]>([
    [232, '+230ns'],
    [228, '+230ns'],
    [19, '+19ns'],
    [-1234, '-1.20µs'],
    [1_250_000, '+1.30ms'],
    [0, '+0ns'],
    [null, '-'],
  ])('%s ns -> %s', (ns, text) => expect(fleetOffset(ns, false)).toBe(text));
});

describe('fleetAge: "<Ns" while answers keep coming, the seconds once they stop', () => {
  const at = (intervalMs: number, ageMs: number, unreachable = false) => {
    const s = unreachable ? unreachableState() : healthyState();
    s.intervalMs = intervalMs;
    s.lastUpdateAt = NOW - ageMs;
    return s;
  };
  it.each<[string, MonitorState, string]>([
    ['fresh at 2 s', at(2000, 1500), '<4s'],
    ['fresh at 1 s', at(1000, 1900), '<2s'],
    ['two intervals behind at 2 s', at(2000, 4000), '4s'],
    ['a minute behind', at(1000, 61_000), '61s'],
    ['not answering, just now', at(1000, 500, true), '0s'],
  ])('%s', (_, state, text) => expect(fleetAge(state, NOW)).toBe(text));
  it('is "-" before any answer', () => expect(fleetAge(emptyState(), NOW)).toBe('-'));
});

describe('trendPoints: one point per TREND_STEP polls, aligned on the clock', () => {
  const step = 1000 * TREND_STEP;
  const ring = (samples: [number, number | null][]) => {
    const r = new Ring(120);
    for (const [at, v] of samples) r.push(v, at);
    return r;
  };
  it.each<[string, [number, number | null][], (number | null)[]]>([
    ['nothing', [], []],
    ['the largest |offset| of a step', [[0, 5], [1000, -9], [2000, 3]], [...Array(SPARK_WIDTH - 1).fill(null), 9]],
    ['a new step, a new point', [[step - 1000, -4], [step, 2], [step + 1000, null]], [...Array(SPARK_WIDTH - 2).fill(null), 4, 2]],
    ['a step without answers is a gap', [[0, 1], [2 * step, 3]], [...Array(SPARK_WIDTH - 3).fill(null), 1, null, 3]],
  ])('%s', (_, samples, points) => expect(trendPoints(ring(samples), 1000)).toEqual(samples.length ? points : []));
  it('does not move while the answers of one step come in', () => {
    const r = ring([[0, 5]]);
    const before = trendPoints(r, 1000).length;
    r.push(1, 1000);
    expect(trendPoints(r, 1000)).toHaveLength(before);
    expect(trendPoints(r, 1000).at(-1)).toBe(5);
  });
});

describe('fleetRowCache', () => {
  it('keeps a row while its state and its age text stay, and rebuilds it when either changes', () => {
    const rowsOf = fleetRowCache();
    const a = withVerdict('ok');
    a.intervalMs = 2000;
    a.lastUpdateAt = NOW;
    const b = withVerdict('warning');
    const members = [
      { name: 'a', state: a },
      { name: 'b', state: b },
    ];
    const first = rowsOf(members, NOW, 'name', opts);
    const again = rowsOf(members, NOW + 1000, 'name', opts);
    expect(again[0]).toBe(first[0]);
    expect(rowsOf(members, NOW + 9000, 'name', opts)[0]).not.toBe(first[0]);
    const answered = rowsOf([{ name: 'a', state: { ...a } }, members[1]!], NOW + 9000, 'name', opts);
    expect(answered[1]).toBe(rowsOf(members, NOW + 9000, 'name', opts)[1]);
    expect(answered.map((r) => lineText(Object.values(r.cells)))).toEqual(fleetRows(members, NOW + 9000, 'name', opts).map((r) => lineText(Object.values(r.cells))));
  });
});

describe('sortFleetRows', () => {
  const row = (name: string, status: FleetStatus, index: number) => ({ name, status, index, cells: {} }) as FleetRow;
  const rows = [row('c', 'ok', 0), row('a', 'warning', 1), row('d', 'down', 2), row('b', 'critical', 3), row('e', 'warning', 4), row('f', 'waiting', 5)];
  it.each([
    ['severity', ['d', 'b', 'a', 'e', 'f', 'c']],
    ['name', ['a', 'b', 'c', 'd', 'e', 'f']],
  ] as const)('by %s', (by, order) => expect(sortFleetRows(rows, by).map((r) => r.name)).toEqual(order));
});

describe('fleet rows and summary', () => {
  it('shows the outage and the worst finding in the row, and counts per state', () => {
    const members = [
      { name: 'gm-a', state: withVerdict('ok') },
      { name: 'gm-b', state: unreachableState() },
      { name: 'bc-1', state: withVerdict('critical', 'PTP port 0 LOST') },
    ];
    const rows = fleetRows(members, NOW, 'severity', opts);
    expect(rows.map((r) => r.name)).toEqual(['gm-b', 'bc-1', 'gm-a']);
    expect(rows[0]!.cells.finding.text).toMatch(/^no answer since \d\d:\d\d:\d\d \(40s\): connection refused/);
    expect(rows[0]!.cells.ptp.text).toBe('1/2 STABLE'); // the last known values stay
    expect(rows[1]!.cells.finding.text).toBe('PTP port 0 LOST');
    expect(rows[2]!.cells.ntp.text).toMatch(/^ntp1\.example\.net [+-]/);
    const summary = lineText(fleetSummary(rows, gmAgreement(members), opts.glyphs));
    expect(summary).toMatch(/^3 devices · 1 OK · 1 CRITICAL · 1 not answering · GM \S+ on 3$/);
  });
});

describe('gmAgreement', () => {
  it.each([
    ['one GM', ['x', 'x', null], true, null],
    ['no GM at all', [null, null], true, null],
    ['two GMs', ['x', 'y', 'x'], false, '! GM disagreement: x on 2; y on d1'],
  ] as const)('%s', (_, gms, agree, line) => {
    const members = gms.map((gm, i) => ({ name: `d${i}`, state: withGm(gm) }));
    const result = gmAgreement(members);
    expect(result.agree).toBe(agree);
    const l = gmDisagreementLine(result);
    expect(l ? lineText(l) : null).toBe(line);
  });
});

describe('mergedEvents', () => {
  it('merges every device newest first, labelled', () => {
    const a = withVerdict('ok');
    const b = withVerdict('ok');
    a.events.add([{ at: NOW - 3000, severity: 'warning', section: 'ptp', message: 'A old' }, { at: NOW - 1000, severity: 'info', section: 'ntp', message: 'A new' }]);
    b.events.add([{ at: NOW - 2000, severity: 'critical', section: 'gnss', message: 'B mid' }]);
    const merged = mergedEvents([{ name: 'a', state: a }, { name: 'bb', state: b }], 10);
    expect(merged.map((e) => `${e.device}:${e.message}`)).toEqual(['a:A new', 'bb:B mid', 'a:A old']);
    expect(lineText(fleetEventLine(merged[1]!, 2, opts.glyphs))).toMatch(/^ {2}\d\d:\d\d:\d\d ! bb B mid$/);
    expect(mergedEvents([{ name: 'a', state: a }, { name: 'bb', state: b }], 2)).toHaveLength(2);
  });
});

describe('fleetUiReducer', () => {
  const order = ['c', 'a', 'b'];
  it('selects by name, opens, keeps the selection on close, pages the timeline', () => {
    let s = fleetUiReducer(initialFleetUi, { type: 'move', delta: 1 }, order, 0);
    expect(s.selected).toBe('a');
    s = fleetUiReducer(s, { type: 'move', delta: 5 }, order, 0);
    expect(s.selected).toBe('b');
    s = fleetUiReducer(s, { type: 'move', delta: -Infinity }, order, 0);
    expect(s.selected).toBe('c');
    s = fleetUiReducer(s, { type: 'open' }, order, 0);
    expect(s.open).toBe('c');
    s = fleetUiReducer(s, { type: 'close' }, order, 0);
    expect(s).toMatchObject({ open: null, selected: 'c' });
    s = fleetUiReducer(s, { type: 'toggleSort' }, order, 0);
    expect(s.sort).toBe('name');
    s = fleetUiReducer(s, { type: 'pane', pane: 'events' }, order, 3);
    s = fleetUiReducer(s, { type: 'move', delta: 10 }, order, 3);
    expect(s.eventsTop).toBe(2);
    expect(fleetUiReducer(s, { type: 'open' }, order, 3).open).toBeNull(); // Enter does nothing in the timeline
    expect(fleetUiReducer(s, { type: 'back' }, order, 3).pane).toBe('rows');
  });
});

describe('fleet check line', () => {
  const snap = (device: string): Snapshot => {
    const net = { ok: false as const, error: { kind: 'network' as const, message: 'connection refused' } };
    return { schema: 'synctop.snapshot/1', device, takenAt: new Date(NOW).toISOString(), ntp: net, gnss: net, ptp: net, alarm: net } as Snapshot;
  };
  it('is the worst state, names the device of each reason and prefixes its perfdata', () => {
    const out = fleetCheckOutcome([{ name: 'gm a', snapshot: snap('https://a'), limits: { thresholds: defaultThresholds } }]);
    expect(out.code).toBe(2);
    expect(out.line).toMatch(/^SYNCTOP CRITICAL - 1 device: 1 CRITICAL; gm a: /);
  });
  it.each([
    ['gm-a', 'gm-a'],
    ["it's = 1|2", 'it_s_1_2'],
    ['x'.repeat(100), `${'x'.repeat(63)}…`],
  ])('perfPrefix(%j)', (name, prefix) => expect(perfPrefix(name)).toBe(prefix));
});

describe("the selected device's findings under the rows", () => {
  const long = 'GNSS receiver 0 antenna open -> possibly the cause of: reference clock GPS not selectable (unreachable, reach 000)';
  const member = (messages: string[]) => {
    const s = withVerdict(messages.length ? 'critical' : 'ok');
    s.verdict = { severity: messages.length ? 'critical' : 'ok', findings: messages.map((message, i) => ({ rule: `r${i}`, severity: 'critical' as const, section: 'gnss' as const, subject: `s${i}`, topic: 'gnss-antenna' as const, message })) };
    return { name: 'gm-a', state: s };
  };
  const text = (lines: ReturnType<typeof selectedFindingsLines>) => lines.map((l) => l.map((c) => c.text).join(''));

  it('each finding whole, wrapped to the width, never cut', () => {
    const lines = text(selectedFindingsLines(member([long]), 40, 10));
    expect(lines[0]).toBe('findings of gm-a (1; Enter opens the device)');
    expect(lines.slice(1).join(' ').replace(/\s+/g, ' ')).toBe(`! ${long}`);
    for (const l of lines.slice(1)) expect(l.length).toBeLessThanOrEqual(40);
    expect(lines.join('')).not.toContain('…');
  });

  it('what does not fit is counted, not cut; no room, no block; none says so', () => {
    const lines = text(selectedFindingsLines(member([long, 'PTP port 0 LOST', 'PTP port 1 LOST']), 40, 5));
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines[lines.length - 1]).toMatch(/^↓ \d more \(Enter opens the device\)$/);
    expect(selectedFindingsLines(member([long]), 80, 1)).toEqual([]);
    expect(text(selectedFindingsLines(member([]), 80, 3))).toEqual(['findings of gm-a: none']);
  });
});
