import { vi } from 'vitest';

// chalk decides its color level when first imported: force it on, so color tests mean something.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { MonitorState } from '../../src/monitor/state.js';
import type { Severity } from '../../src/monitor/health.js';
import { lineText } from '../../src/view/cell.js';
import { eventLine, eventsSummary, freshCount } from '../../src/view/events.js';
import { headerLines, replayText } from '../../src/view/header.js';
import { ntpSourceDetail } from '../../src/view/ntp-source.js';
import { delayStatsText, offsetStatsText, stepsRemovedText, varianceText } from '../../src/view/ptp-port.js';
import { clockTime, dateTime } from '../../src/view/time.js';
import { unicodeGlyphs, asciiGlyphs } from '../../src/view/theme.js';
import { initialUiState } from '../../src/ui/ui-state.js';
import { alarmPaneWatch } from '../../src/ui/panes/AlarmPane.js';
import { eventsPaneWatch } from '../../src/ui/panes/EventsPane.js';
import { gnssPaneWatch } from '../../src/ui/panes/GnssPane.js';
import { ntpPaneWatch } from '../../src/ui/panes/NtpPane.js';
import type { PaneProps } from '../../src/ui/panes/pane-props.js';
import { samePaneProps } from '../../src/ui/panes/pane-props.js';
import { ptpPaneWatch } from '../../src/ui/panes/PtpPane.js';
import { NO_PROFILES_HINT } from '../../src/ui/hooks/useKeyboard.js';
import { BEL } from '../../src/ui/hooks/useBell.js';
import { EVENT_TIMES, NOW, healthyState, insightState, ntpSource, ptpStatsState, recordingController, unreachableState } from './fixtures.js';
import { ESC, frameViolations, keys, renderApp, stripAnsi } from './harness.js';

afterEach(() => cleanup());

const uni = { ascii: false, glyphs: unicodeGlyphs };

describe('events pane', () => {
  it('lists the events newest first, one line each: local HH:MM:SS, severity symbol, message', async () => {
    const expected = [
      `• ${clockTime(EVENT_TIMES.ok)} * PTP port 0 ACQUIRED -> STABLE`,
      `• ${clockTime(EVENT_TIMES.warning)} ~ PTP port 0 LOST -> ACQUIRING`,
      `• ${clockTime(EVENT_TIMES.critical)} ! PTP port 0 STABLE -> LOST`,
      `• ${clockTime(EVENT_TIMES.info)} - source 192.168.10.4: Combined with best -> Selectable`,
    ];
    for (const [columns, rows, shown] of [[160, 50, 4], [120, 40, 3]] as const) {
      const app = await renderApp(insightState(), { columns, rows });
      const lines = app.lines();
      const title = lines.findIndex((l) => /5 Events/.test(l));
      expect(title).toBeGreaterThan(0);
      const left = lines[title]!.indexOf('5 Events') - 3;
      const events = lines.slice(title + 1, title + 1 + shown).map((l) => l.slice(left).trim());
      expect(events).toEqual(expected.slice(0, shown));
      for (const e of events) expect(e).toMatch(/^• \d\d:\d\d:\d\d [!~*-] /);
      // Nothing seen yet: all four are new, and the title counts them.
      expect(lines[title]).toContain('4 new');
      app.unmount();
    }
  });

  it('colors each severity and still carries it in the symbol', () => {
    const tokens = (['critical', 'warning', 'ok', 'info'] as const).map((severity) => {
      const line = eventLine({ at: NOW, severity, section: 'ptp', message: 'm' }, false, unicodeGlyphs);
      return `${line[2]!.text.trim()} ${line[2]!.token}`;
    });
    expect(tokens).toEqual(['! bad', '~ warn', '* ok', '- muted']);
    expect(lineText(eventLine({ at: NOW, severity: 'ok', section: 'ptp', message: 'm' }, true, asciiGlyphs))).toBe(`N ${clockTime(NOW)} * m`);
  });

  it('5 focuses the pane, which marks its events seen; later events are new again', async () => {
    const state = insightState();
    const app = await renderApp(state);
    await app.press('5');
    let f = app.lines().join('\n');
    expect(f).toMatch(/━▶ 5 Events/);
    expect(f).not.toContain('new');
    expect(f).not.toContain('•');
    await app.press('1');
    state.events.add([{ at: NOW - 1000, severity: 'critical', section: 'gnss', message: 'GNSS receiver 0 antenna normal -> open' }]);
    await app.rerenderState({ ...state, version: state.version + 1 });
    f = app.lines().join('\n');
    expect(f).toContain(`• ${clockTime(NOW - 1000)} ! GNSS receiver 0 antenna normal -> open`);
    expect(f).toContain('1 new');
    app.unmount();
  });

  it('collapses to its latest event in small layouts, and 5 zooms it there', async () => {
    const app = await renderApp(insightState(), { columns: 80, rows: 24 });
    let lines = app.lines();
    expect(lines.find((l) => l.startsWith('5 Events'))).toContain(`4 new ${clockTime(EVENT_TIMES.ok)} * PTP port 0 ACQUIRED -> STABLE`);
    await app.press('5');
    lines = app.lines();
    expect(lines.some((l) => /━▶ 5 Events/.test(l))).toBe(true);
    expect(lines.join('\n')).toContain(`${clockTime(EVENT_TIMES.info)} - source 192.168.10.4`);
    // The other panes follow: NTP as a pane or a summary line.
    expect(lines.some((l) => /^(── )?1 NTP/.test(l))).toBe(true);
    app.unmount();
  });

  it('says so when there are none', () => {
    expect(lineText(eventsSummary(undefined, 0))).toBe('no events yet');
    expect(freshCount([{ at: 3, severity: 'ok', section: 'ntp', message: '' }, { at: 1, severity: 'ok', section: 'ntp', message: '' }], 2)).toBe(1);
  });

  it('↑/↓ scroll back through a long log and say what is hidden', async () => {
    const s = insightState();
    s.events.add(Array.from({ length: 30 }, (_, i) => ({ at: NOW - 100_000 + i * 1000, severity: 'info' as const, section: 'ntp' as const, message: `event number ${i}` })));
    const app = await renderApp(s, { columns: 80, rows: 24 });
    await app.press('5');
    expect(app.lines().join('\n')).toMatch(/↓ \d+ older/);
    await app.press('j');
    await app.press(keys.down);
    const f = app.lines().join('\n');
    expect(f).toMatch(/↑ 2 newer/);
    expect(f).not.toContain('event number 29');
    expect(f).toContain('event number 27');
    expect(frameViolations(app.frame(), 80, 24)).toEqual([]);
    app.unmount();
  });
});

describe('frame contract with the events pane', () => {
  const many = () => {
    const s = insightState();
    s.events.add(Array.from({ length: 120 }, (_, i) => ({ at: NOW - 200_000 + i * 1000, severity: (['info', 'ok', 'warning', 'critical'] as const)[i % 4]!, section: 'ptp' as const, message: `PTP port ${i} ${'very long message '.repeat(i % 7)}` })));
    return s;
  };
  it.each([
    [120, 40],
    [80, 24],
    [50, 12],
    [100, 30],
    [160, 50],
    [60, 15],
  ] as const)('%ix%i: at most rows-1 lines, none wider, in every focus, zoom and overlay', async (columns, rows) => {
    for (const ascii of [false, true]) {
      const app = await renderApp(many(), { columns, rows, ascii });
      expect(frameViolations(app.frame(), columns, rows)).toEqual([]);
      for (const k of ['5', 'z', 'j', 'z', '4', 'd', 's', '?']) {
        await app.press(k);
        expect(frameViolations(app.frame(), columns, rows)).toEqual([]);
      }
      app.unmount();
    }
  });

  it('120x40: the events pane sits under PTP and reaches down to the footer', async () => {
    const app = await renderApp(many(), { columns: 120, rows: 40 });
    const lines = app.lines();
    expect(lines).toHaveLength(39);
    const title = lines.findIndex((l) => l.includes('5 Events'));
    const ptp = lines.findIndex((l) => l.includes('3 PTP'));
    expect(title).toBeGreaterThan(ptp);
    expect(lines[title]!.indexOf('5 Events')).toBeGreaterThan(60);
    // The line above the footer is still the log's (its hidden-count note).
    expect(lines[37]).toMatch(/↓ \d+ older/);
    app.unmount();
  });
});

describe('header verdict', () => {
  const withVerdict = (severity: Severity): MonitorState => {
    const s = healthyState();
    s.verdict =
      severity === 'ok'
        ? { severity, findings: [] }
        : { severity, findings: [{ rule: 'r', severity, section: 'ptp', subject: 'ptp port 0', topic: 'ptp-state', message: 'PTP port 0 LOST' }] };
    return s;
  };

  it.each([
    ['ok', '* OK', 'ok', '\x1b[32m'],
    ['warning', '~ WARNING', 'warn', '\x1b[33m'],
    ['critical', '! CRITICAL', 'bad', '\x1b[31m'],
  ] as const)('%s: the word with its symbol, colored', async (severity, text, token, sgr) => {
    const lines = headerLines(withVerdict(severity), NOW, uni);
    expect(lineText(lines[1]!).startsWith(`${text} · NTP synced`)).toBe(true);
    expect(lines[1]![0]!.token).toBe(token);
    const app = await renderApp(withVerdict(severity), { color: true });
    const second = app.frame().split('\n')[1]!;
    expect(stripAnsi(second)).toMatch(new RegExp(`^${text.replace('*', '\\*')} · `));
    expect(second.slice(0, second.indexOf(text.slice(2)))).toContain(sgr);
    if (severity !== 'ok') expect(app.lines()[2]).toBe(`${text.slice(0, 1)} PTP port 0 LOST`);
    else expect(app.lines()[2]).toMatch(/1 NTP/);
    app.unmount();
  });

  it('keeps the verdict while the device is unreachable, the banner below it', () => {
    const s = unreachableState();
    s.verdict = { severity: 'critical', findings: [{ rule: 'device-unreachable', severity: 'critical', section: 'device', subject: 'device', topic: 'unreachable', message: 'device unreachable' }] };
    const lines = headerLines(s, NOW, uni).map(lineText);
    expect(lines[1]).toMatch(/^! CRITICAL · /);
    expect(lines[2]).toMatch(/^! no answer since/);
  });
});

describe('time in state', () => {
  it('NTP rows, the selected source, the GNSS receiver and the PTP port say how long', async () => {
    const app = await renderApp(insightState(), { columns: 160, rows: 50 });
    const f = app.lines().join('\n');
    // Unchanged since the first poll (2h14m ago): so before synctop started, at least that long.
    expect(f).toMatch(/ntp1\.example\.net\s+best\s+≥ 2h14m /);
    // The false ticker changed 35 s ago, seen: exactly that.
    expect(f).toMatch(/time\.bad\.example\s+false ticker\s+35s /);
    expect(f).toContain('* best for ≥ 2h14m  ntp1.example.net (in use)');
    expect(f).toMatch(/status\s+\* working for ≥ 2h14m/);
    expect(f).toMatch(/sync state\s+\* STABLE for ≥ 2h14m/);
    app.unmount();
  });

  it('says ">=" for a lower bound on an ASCII terminal', async () => {
    const app = await renderApp(insightState(), { columns: 160, rows: 50, ascii: true });
    expect(app.lines().join('\n')).toContain('* best for >= 2h14m  ntp1.example.net (in use)');
    app.unmount();
  });

  it('the false ticker says it in its detail line', async () => {
    const app = await renderApp(insightState());
    await app.press('j');
    await app.press('j');
    await app.press('j');
    expect(app.lines().join('\n')).toContain('x false ticker for 35s  time.bad.example');
    app.unmount();
  });

  it('ages are measured against the controller clock when the App is given none (replay)', async () => {
    const state = insightState();
    const controller = recordingController(state, [], () => NOW + 3600_000);
    const app = await renderApp(state, { now: null, controller, columns: 160, rows: 50 });
    expect(app.lines().join('\n')).toContain('* best for ≥ 3h14m  ntp1.example.net');
    app.unmount();
  });
});

describe('PTP statistics and decoders', () => {
  it('shows ptp4l-style offset and delay statistics computed from the history', async () => {
    const app = await renderApp(ptpStatsState());
    // The PTP pane focused: its detail whole (unfocused, the grid pairs fields and may cut them).
    await app.press('3');
    const f = app.lines().join('\n');
    // offsets 3 5 7 9: rms sqrt(41) = 6.4, max 9, mean 6, sd sqrt(5) = 2.24
    expect(f).toMatch(/offset stats\s+rms 6ns max 9ns mean \+6ns sd 2ns \(4\)/);
    // delays 1000..1600: mean 1300, sd sqrt(50000) = 224
    expect(f).toMatch(/delay stats\s+mean 1\.30µs sd 224ns min 1\.00µs max 1\.60µs/);
    app.unmount();
  });

  it('uses only the newest 60 samples, signs the mean, and says nothing without samples', () => {
    const values = [...Array.from({ length: 10 }, () => 1_000_000), ...Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? -10 : -30))];
    expect(offsetStatsText(values, false)).toBe('rms 22ns max 30ns mean -20ns sd 10ns (60)');
    expect(offsetStatsText([], false)).toBeNull();
    expect(delayStatsText([1500, 1500], true)).toBe('mean 1.50us sd 0ns min 1.50us max 1.50us');
  });

  it('decodes variance, accuracy, class and steps removed next to the raw values', async () => {
    const app = await renderApp(insightState());
    // The PTP pane focused: its whole detail block.
    await app.press('3');
    const f = app.lines().join('\n');
    expect(f).toMatch(/GM accuracy\s+0x21 \(within 100 ns\)/);
    expect(f).toMatch(/GM variance\s+0x4E5D \(deviation about 34 ns\)/);
    expect(f).toMatch(/steps removed\s+1 \(directly attached to the grandmaster\)/);
    expect(f).toMatch(/GM class\s+6 \(locked to a primary reference/);
    expect(varianceText(0xffff, false)).toBe('0xFFFF (not computed)');
    expect(stepsRemovedText(3)).toBe('3 (3 hops from the grandmaster)');
    app.unmount();
  });

  it('NTP detail: reach in words and the offset spread over the window', async () => {
    const app = await renderApp(insightState());
    await app.press('j');
    await app.press('j');
    const f = app.lines().join('\n');
    expect(f).toContain('reach 177 (last 8 polls: 7 ok, 1 lost)  offset spread');
    const detail = ntpSourceDetail(ntpSource({ name: 'a', reach: '377', reachCount: 8 }), [100, null, 300, 250], uni);
    expect(lineText(detail[1]!)).toMatch(/^reach 377 \(last 8 polls: 8 ok, 0 lost\)  offset spread 200ns over 3 device polls /);
    // One sample has no spread yet: it says how many there are, not "0ns".
    const one = ntpSourceDetail(ntpSource({ name: 'a', reach: '377', reachCount: 8 }), [null, 100], uni);
    expect(lineText(one[1]!)).toMatch(/  offset spread - \(1 device poll\) /);
    app.unmount();
  });

  // Each count against its current value (IERS Bulletin C: GPS - UTC 18 s since 2017-01-01, BDS - UTC 4 s).
  it('GNSS: a leap-second count other than the current one is a warning line', async () => {
    const app = await renderApp(insightState());
    const line = app.lines().find((l) => l.startsWith('~ BDS leap seconds 5 (BDS - UTC is 4 s)'));
    expect(line).toBeDefined();
    app.unmount();
  });

  it('help lists the chrony state symbols and the event severities', async () => {
    const app = await renderApp(insightState());
    await app.press('?');
    const f = app.lines().join('\n');
    for (const text of ['* Best source', '+ Combined with best', '- Selectable', 'x False ticker', '~ Too variable', '? Not selectable', '! event: critical', '~ event: warning']) {
      expect(f).toContain(text);
    }
    for (const text of ['replay: step back', 'replay: step forward', 'screendump', 'devices: switch profile', 'focus pane by its number']) expect(f).toContain(text);
    app.unmount();
  });
});

describe('alarm lint', () => {
  it('shows each finding as a warning line under the fields', async () => {
    const app = await renderApp(insightState());
    await app.press('4');
    await app.press('z');
    const lines = app.lines();
    const lint = lines.findIndex((l) => l.startsWith('~ port 587'));
    expect(lines[lint]).toBe('~ port 587 is the submission port and servers require STARTTLS: turn TLS on');
    expect(lines.findIndex((l) => /^retries|retries\s/.test(l))).toBeLessThan(lint);
    app.unmount();
  });

  it('keeps the finding visible in the full layout (clipped to the pane)', async () => {
    const app = await renderApp(insightState());
    expect(app.lines().some((l) => l.startsWith('~ port 587 is the submission port'))).toBe(true);
    app.unmount();
  });
});

describe('keys d, [, ], s', () => {
  const devices = [
    { name: 'lab', url: 'https://10.20.0.5', current: true },
    { name: 'site-b', url: 'https://10.30.0.9', current: false },
  ];

  it('d without profiles says so in the footer', async () => {
    const app = await renderApp(healthyState());
    await app.press('d');
    expect(app.lines().at(-1)).toBe(NO_PROFILES_HINT);
    app.unmount();
  });

  it('d lists the profiles with the current one marked; j and Enter switch; Esc closes', async () => {
    const controller = recordingController(healthyState(), devices);
    const app = await renderApp(healthyState(), { controller });
    await app.press('d');
    let f = app.lines().join('\n');
    expect(f).toContain('devices');
    expect(f).toMatch(/▶ ◆ lab\s+https:\/\/10\.20\.0\.5 {2}\(monitored now\)/);
    expect(f).toMatch(/ {4}site-b\s+https:\/\/10\.30\.0\.9/);
    // Modal: r does not poll.
    await app.press('r');
    expect(controller.pollCount).toBe(0);
    await app.press('j');
    expect(app.lines().find((l) => l.startsWith('▶ '))).toContain('site-b');
    await app.press('\r');
    expect(controller.switched).toEqual(['site-b']);
    f = app.lines().join('\n');
    expect(f).not.toContain('monitored now');
    expect(app.lines().at(-1)).toContain('switched to site-b');
    await app.press('d');
    expect(app.lines().join('\n')).toContain('monitored now');
    await app.press(ESC);
    expect(app.lines().join('\n')).not.toContain('monitored now');
    expect(controller.switched).toEqual(['site-b']);
    app.unmount();
  });

  it('[ and ] step the replay back and forward', async () => {
    const controller = recordingController(healthyState());
    const app = await renderApp(healthyState(), { controller });
    await app.press('[');
    await app.press(']');
    await app.press(']');
    expect(controller.steps).toEqual([-1, 1, 1]);
    app.unmount();
  });

  it('[ and ] do nothing live (a controller without step)', async () => {
    const app = await renderApp(healthyState());
    const before = app.frame();
    await app.press('[');
    await app.press(']');
    expect(app.frame()).toBe(before);
    app.unmount();
  });

  it('s saves a screendump and the footer says where; a failure says why', async () => {
    let calls = 0;
    let fail = false;
    const onScreendump = () => {
      calls++;
      return fail ? Promise.reject(new Error('cannot write /tmp/x: disk full')) : Promise.resolve('screendump saved to /tmp/synctop-1.txt');
    };
    const app = await renderApp(healthyState(), { onScreendump });
    await app.press('s');
    expect(calls).toBe(1);
    expect(app.lines().at(-1)).toBe('screendump saved to /tmp/synctop-1.txt');
    fail = true;
    await app.press('s');
    expect(calls).toBe(2);
    expect(app.lines().at(-1)).toBe('! cannot write /tmp/x: disk full');
    app.unmount();
  });

  it('replay: the header shows position, speed and the recorded moment instead of LIVE', async () => {
    const at = Date.UTC(2026, 10, 22, 14, 2, 11);
    const s = healthyState();
    s.replay = { position: 120, total: 5400, speed: 4, at, finished: false };
    let app = await renderApp(s);
    expect(app.lines()[0]).toContain(`▶ REPLAY 120/5400 x4 ${dateTime(at)}`);
    expect(app.lines()[0]).not.toContain('LIVE');
    app.unmount();
    app = await renderApp({ ...s, paused: true });
    expect(app.lines()[0]).toContain(`|| PAUSED REPLAY 120/5400 x4 ${dateTime(at)}`);
    app.unmount();
    expect(replayText({ position: 5400, total: 5400, speed: 1, at, finished: true }, asciiGlyphs, false)).toBe(`> REPLAY 5400/5400 x1 ${dateTime(at)} (end)`);
    expect(dateTime(at)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});

describe('bell', () => {
  const verdict = (severity: Severity): MonitorState['verdict'] =>
    severity === 'ok' ? { severity, findings: [] } : { severity, findings: [{ rule: 'r', severity, section: 'ptp', subject: 'ptp port 0', topic: 'ptp-state', message: 'm' }] };

  it('rings once each time the verdict worsens, never when it improves or stays', async () => {
    const state = healthyState();
    const app = await renderApp(state, { bell: true });
    const bells = () => app.writes().filter((w) => w === BEL).length;
    let version = state.version;
    const go = (severity: Severity) => app.rerenderState({ ...app.controller.getState(), verdict: verdict(severity), version: ++version });
    expect(bells()).toBe(0);
    await go('warning');
    expect(bells()).toBe(1);
    await go('warning');
    expect(bells()).toBe(1);
    await go('critical');
    expect(bells()).toBe(2);
    await go('critical');
    await go('warning');
    await go('ok');
    expect(bells()).toBe(2);
    await go('critical');
    expect(bells()).toBe(3);
    app.unmount();
  });

  it('stays silent without --bell', async () => {
    const state = healthyState();
    const app = await renderApp(state);
    await app.rerenderState({ ...state, verdict: verdict('critical'), version: state.version + 1 });
    expect(app.writes().some((w) => w.includes(BEL))).toBe(false);
    app.unmount();
  });
});

describe('memoized panes', () => {
  const props = (state: MonitorState, now = NOW): PaneProps => ({ state, ui: initialUiState, now, width: 60, height: 20, focused: false, eventsVersion: state.events.version });

  it('a pane renders again only when its own section, its UI fields, its slot or the second changed', () => {
    const a = insightState();
    const otherSection = { ...a, gnss: { ...a.gnss }, version: a.version + 1 };
    const ntpSame = samePaneProps(ntpPaneWatch);
    expect(ntpSame(props(a), props(otherSection))).toBe(true);
    expect(ntpSame(props(a), props({ ...a, ntp: { ...a.ntp }, version: a.version + 1 }))).toBe(false);
    expect(ntpSame(props(a), props(a, NOW + 200))).toBe(true);
    expect(ntpSame(props(a), props(a, NOW + 1000))).toBe(false);
    expect(ntpSame(props(a), { ...props(a), ui: { ...initialUiState, ntpRow: 2 } })).toBe(false);
    expect(ntpSame(props(a), { ...props(a), ui: { ...initialUiState, ptpPort: 1 } })).toBe(true);
    expect(samePaneProps(gnssPaneWatch)(props(a), props(otherSection))).toBe(false);
    expect(samePaneProps(ptpPaneWatch)(props(a), props(otherSection))).toBe(true);
    expect(samePaneProps(alarmPaneWatch)(props(a), props(otherSection))).toBe(true);
  });

  it('the events pane follows the log version, not the clock', () => {
    const a = insightState();
    const same = samePaneProps(eventsPaneWatch, { showsAges: false });
    expect(same(props(a), props(a, NOW + 5000))).toBe(true);
    const before = props(a);
    a.events.add([{ at: NOW, severity: 'info', section: 'ntp', message: 'x' }]);
    expect(same(before, props({ ...a, version: a.version + 1 }))).toBe(false);
  });
});
