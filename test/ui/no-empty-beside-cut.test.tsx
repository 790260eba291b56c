/**
 * The screen's lines are a technician's scarcest resource: no line of the body stays empty while
 * a line of the screen is cut with "…". Checked at the sizes technicians use, every pane focused,
 * for the outage screen (whose banner takes a line the panes leave, wrapped whole), a first poll
 * that failed (a pane with an error line and no data), and the healthy and busy screens.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Screen } from '../../src/ui/App.js';
import { initialUiState, type PaneId } from '../../src/ui/ui-state.js';
import { DisplayContext, makeDisplay } from '../../src/ui/widgets/Display.js';
import type { MonitorState } from '../../src/monitor/state.js';
import { healthyState, insightState, irregularState, NOW, OUTAGE_REASON, receiver, unreachableState } from './fixtures.js';
import { frameViolations, stripAnsi } from './harness.js';

const display = makeDisplay(false, false);
const view = (columns: number, rows: number, focus: PaneId, state: MonitorState) => (
  <DisplayContext.Provider value={display}>
    <Screen state={state} ui={{ ...initialUiState, focus }} size={{ columns, rows }} now={NOW} />
  </DisplayContext.Provider>
);
/** One Ink instance rendered again for each screen: hundreds of screens, each a pure function of its props. */
let app: ReturnType<typeof render> | null = null;
afterAll(() => app?.unmount());

function screen(columns: number, rows: number, focus: PaneId, state: MonitorState = unreachableState()): string[] {
  if (app) app.rerender(view(columns, rows, focus, state));
  else app = render(view(columns, rows, focus, state));
  const frame = stripAnsi(app.lastFrame() ?? '');
  expect(frameViolations(frame, columns, rows)).toEqual([]);
  return frame.split('\n');
}

/** The body: between the header (up to the first pane title or summary) and the footer. */
function bodyLines(lines: string[]): string[] {
  const start = lines.findIndex((l) => /^(━▶|──) \d |^\d [A-Z]/.test(l));
  return lines.slice(start, -1);
}

/** The first poll of one section timed out: its pane has an error line and no data. */
function firstPollFailed(section: 'ntp' | 'ptp' | 'alarm' | 'gnss'): MonitorState {
  const s = healthyState();
  s[section] = { ...s[section], data: null, receivedAt: null, error: { kind: 'network', code: 'TIMEOUT', message: 'no complete answer within 900 ms (timeout)' }, errorSince: NOW - 2_000 } as never;
  return s;
}

/** Alarm mail switched off (a finding under the fields), two events with long messages: the Events summary line is long. */
function longEventsState(): MonitorState {
  const s = healthyState();
  s.alarm = { ...s.alarm, data: { ...s.alarm.data!, emailAlertEnabled: false } };
  s.events.add([
    { at: NOW - 3_000, severity: 'warning', section: 'ntp', message: 'at start: NTP source 192.168.10.21 unreachable (reach 000)' },
    { at: NOW - 2_000, severity: 'warning', section: 'ntp', message: 'at start: NTP source ntp1.example.net unreachable (reach 000)' },
  ]);
  return s;
}

/** One PTP port: in the full layout the event log has lines to spare below it, and its long events wrap there. */
function onePortLongEventsState(): MonitorState {
  const s = longEventsState();
  s.ptp = { ...s.ptp, data: { ...s.ptp.data!, ports: s.ptp.data!.ports.slice(0, 1) } };
  return s;
}

/** The last poll of GNSS, PTP and alarm timed out: each pane keeps its data under an error line. */
function errorsBesideDataState(): MonitorState {
  const s = healthyState();
  const error = { kind: 'network', code: 'TIMEOUT', message: 'no complete answer within 900 ms (timeout)' } as const;
  for (const name of ['gnss', 'ptp', 'alarm'] as const) s[name] = { ...s[name], error, errorSince: NOW - 2_000 } as never;
  return s;
}

/** As many receivers as a flooding device leaves after the cap: their tabs take every line they are given. */
function manyReceiversState(): MonitorState {
  const s = healthyState();
  s.gnss = { ...s.gnss, data: { receivers: Array.from({ length: 64 }, (_, id) => receiver({ id, status: id === 0 ? 'working' : 'standby' })) } };
  return s;
}

/** Values wider than their panes: a recipient list without spaces, a long parent port identity, one PTP port (lines to spare). */
function longValuesState(): MonitorState {
  const s = healthyState();
  s.alarm = { ...s.alarm, data: { ...s.alarm.data!, recipientEmails: ['noc-distribution-list-of-the-operations-centre@example.net;ops@example.net'] } };
  const [port] = s.ptp.data!.ports;
  s.ptp = { ...s.ptp, data: { ...s.ptp.data!, ports: [{ ...port!, parentPortIdentity: 'a0b1c2.fffe.d3e4f5-3/with-a-vendor-suffix-0123456789abcdef' } as never] } };
  return s;
}

/** Four receivers with long ids (as the label-clash scenario sends): their tabs are wider than the GNSS pane of the full layout. */
function fourReceiversState(): MonitorState {
  const s = healthyState();
  const ids = [0, 1e21, 0.5, 123456789];
  s.gnss = { ...s.gnss, data: { receivers: ids.map((id, i) => receiver({ id, status: i === 0 ? 'working' : 'standby' })) } };
  return s;
}

const PANE_IDS = ['ntp', 'gnss', 'ptp', 'alarm', 'events'] as const;

describe('no empty line beside a cut one', () => {
  const states: [string, () => MonitorState][] = [
    ['healthy', healthyState],
    ['irregular', irregularState],
    ['insight', insightState],
    ['long events', longEventsState],
    ['first NTP poll failed', () => firstPollFailed('ntp')],
    ['first PTP poll failed', () => firstPollFailed('ptp')],
    ['first alarm poll failed', () => firstPollFailed('alarm')],
    ['first GNSS poll failed', () => firstPollFailed('gnss')],
    ['four receivers with long ids', fourReceiversState],
    ['one PTP port, long events', onePortLongEventsState],
    ['errors beside data', errorsBesideDataState],
    ['long values', longValuesState],
    ['64 receivers', manyReceiversState],
  ];
  it.each(states)('%s: 80x24, 100x30 and 120x40, every pane focused', (_name, make) => {
    const bad: string[] = [];
    for (const [columns, rows] of [[80, 24], [100, 30], [120, 40]] as const)
      for (const focus of PANE_IDS) {
        const lines = screen(columns, rows, focus, make());
        const empty = bodyLines(lines).filter((l) => l.trim() === '').length;
        const cut = lines.filter((l) => l.includes('…')).length;
        if (empty > 0 && cut > 0) bad.push(`${columns}x${rows} ${focus}: ${empty} empty, ${cut} cut\n${lines.join('\n')}`);
        for (const [side, column] of bottomColumns(lines)) {
          const emptyIn = column.filter((l) => l.trim() === '').length;
          const cutIn = column.filter((l) => l.includes('…')).length;
          if (emptyIn > 0 && cutIn > 0) bad.push(`${columns}x${rows} ${focus}, ${side} column: ${emptyIn} empty, ${cutIn} cut\n${lines.join('\n')}`);
        }
      }
    expect(bad).toEqual([]);
  });
});

/** The full layout's bottom row, two columns of panes side by side: each column's lines apart. */
function bottomColumns(lines: string[]): [string, string[]][] {
  const at = lines.findIndex((l) => /^(━▶|──) 2 GNSS .*(━▶|──) 3 PTP /.test(l));
  if (at < 0) return [];
  const split = lines[at]!.search(/(━▶|──) 3 PTP /);
  const rows = lines.slice(at, -1);
  return [
    ['left', rows.map((l) => [...l].slice(0, split).join(''))],
    ['right', rows.map((l) => [...l].slice(split).join(''))],
  ];
}

describe('receiver tabs wider than the GNSS pane', () => {
  const tabLines = (lines: string[]) => {
    const at = lines.findIndex((l) => /(━▶|──) 2 GNSS/.test(l));
    return lines.slice(at + 1, at + 3).map((l) => l.slice(0, 60));
  };

  it('120x40: wrap onto a second line the pane has, every receiver whole', () => {
    const lines = screen(120, 40, 'ntp', fourReceiversState());
    const [first, second] = tabLines(lines);
    expect(first).toMatch(/^▶ rx 0 \* working {5}rx 1e\+21 - standby\s*$/);
    expect(second).toMatch(/^ {2}rx 0\.5 - standby {5}rx 123456789 - standby {3}←\/→ switch\s*$/);
  });

  it('80x24, GNSS focused: the focused pane has the lines, so its tabs wrap too, the switch hint at the end of the last', () => {
    const lines = screen(80, 24, 'gnss', fourReceiversState());
    const at = lines.findIndex((l) => l.startsWith('━▶ 2 GNSS'));
    expect(lines[at + 1]).toBe('▶ rx 0 * working     rx 1e+21 - standby     rx 0.5 - standby');
    expect(lines[at + 2]).toBe('  rx 123456789 - standby   ←/→ switch');
  });
});

describe('the event log in the full layout', () => {
  it('takes the lines PTP leaves in its column, and its long events wrap under their message there', () => {
    for (const focus of ['ntp', 'events'] as const) {
      const lines = screen(120, 40, focus, onePortLongEventsState());
      const at = lines.findIndex((l) => / 5 Events /.test(l));
      const log = lines.slice(at + 1, -1).map((l) => l.slice(61));
      expect(log[0], focus).toMatch(/^• \d\d:\d\d:\d\d ~ at start: NTP source ntp1\.example\.net\s*$/);
      expect(log[1], focus).toMatch(/^ {13}unreachable \(reach 000\)\s*$/);
    }
  });
});

describe('the outage screen', () => {
  it.each([
    [80, 24, 'ntp'],
    [80, 24, 'ptp'],
    [80, 24, 'events'],
    [80, 24, 'gnss'],
    [100, 30, 'ntp'],
    [100, 30, 'ptp'],
    [120, 40, 'ntp'],
  ] as const)('%ix%i, %s focused: no empty line while a line is cut', (columns, rows, focus) => {
    const lines = screen(columns, rows, focus);
    const empty = bodyLines(lines).filter((l) => l.trim() === '');
    const cut = lines.filter((l) => l.includes('…'));
    expect(empty.length === 0 || cut.length === 0, `empty lines beside cut ones:\n${cut.join('\n')}`).toBe(true);
  });

  it('every height from 18 to 34 rows at 80 columns, every pane focused: no empty line while a line is cut', () => {
    const bad: string[] = [];
    for (const columns of [80])
      for (let rows = 18; rows <= 34; rows++)
        for (const focus of PANE_IDS) {
          const lines = screen(columns, rows, focus);
          const empty = bodyLines(lines).filter((l) => l.trim() === '').length;
          const cut = lines.filter((l) => l.includes('…')).length;
          if (empty > 0 && cut > 0) bad.push(`${columns}x${rows} ${focus}: ${empty} empty, ${cut} cut\n${lines.join('\n')}`);
        }
    expect(bad).toEqual([]);
  });

  it('80x27 with the NTP pane focused: the banner takes the line the panes leave and says the reason whole', () => {
    const lines = screen(80, 27, 'ntp');
    const header = lines.slice(0, lines.findIndex((l) => l.startsWith('━▶')));
    expect(header).toHaveLength(4);
    expect(header.slice(2).join(' ').replace(/\s+/g, ' ')).toContain(OUTAGE_REASON);
    expect(header[3]).toMatch(/^ {2}\S/);
  });

  it('a summary line that would be cut takes a line no pane can use, wrapped under its text', () => {
    const bad: string[] = [];
    let wrapped = 0;
    for (let rows = 20; rows <= 28; rows++)
      for (const focus of PANE_IDS) {
        const lines = screen(80, rows, focus, longEventsState());
        const at = lines.findIndex((l) => l.startsWith('5 Events'));
        if (at < 0) continue;
        if (lines[at + 1]?.startsWith(' '.repeat(13))) wrapped++;
        else if (lines[at]!.includes('…') && bodyLines(lines).some((l) => l.trim() === '')) bad.push(`80x${rows} ${focus}\n${lines.join('\n')}`);
      }
    expect(bad).toEqual([]);
    expect(wrapped).toBeGreaterThan(0);
  });

  it('80x24 with the NTP pane focused: the spread of the selected source whole; its sparkline is the trend column', () => {
    const lines = screen(80, 24, 'ntp');
    const reach = lines.find((l) => l.startsWith('reach '));
    expect(reach).toMatch(/offset spread \S+ over \d+ device polls$/);
  });
});

describe('a hostile error message in a pane without data', () => {
  it('takes at most three lines, the last cut where it ends, and leaves the other panes their lines', () => {
    const s = healthyState();
    const message = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ').padEnd(512, ' x');
    s.ptp = { ...s.ptp, data: null, receivedAt: null, error: { kind: 'device', code: '40099', message }, errorSince: NOW - 2_000 } as never;
    const lines = screen(80, 24, 'ptp', s);
    const pane = lines.slice(lines.findIndex((l) => l.startsWith('━▶ 3 PTP')) + 1);
    const error = pane.slice(0, pane.findIndex((l) => /^(── )?\d [A-Z]/.test(l)));
    expect(error).toHaveLength(3);
    expect(error[0]).toMatch(/^! device error 40099: word0 /);
    expect(error[2]).toMatch(/…$/);
    for (const pane of ['1 NTP', '2 GNSS', '4 Alarm mail', '5 Events']) expect(lines.some((l) => l.startsWith(pane) || l.startsWith(`── ${pane}`)), pane).toBe(true);
  });
});
