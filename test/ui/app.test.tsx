import { vi } from 'vitest';

// chalk decides its color level when first imported: force it on, so a frame without SGR
// proves the App itself kept color out, not that chalk guessed "no TTY".
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { OUTAGE_REASON, PTP_AUTH_MESSAGE, emptyState, gnssNoReceiverState, healthyState, irregularState, NOW, ptpAuthRefusedState, unreachableState } from './fixtures.js';
import { colorAt, ESC, frameViolations, keys, renderApp, stripAnsi } from './harness.js';
import type { MonitorState } from '../../src/monitor/state.js';

afterEach(() => cleanup());

const SGR = /\x1b\[/;
const fixtures: [string, () => MonitorState][] = [
  ['healthy', healthyState],
  ['irregular', irregularState],
  ['no GNSS receiver', gnssNoReceiverState],
  ['PTP refused', ptpAuthRefusedState],
  ['unreachable', unreachableState],
  ['no data yet', emptyState],
];
const sizes = [
  [120, 40],
  [80, 24],
  [50, 12],
  [100, 30],
  [160, 50],
  [60, 15],
] as const;

describe('frame contract', () => {
  for (const [name, make] of fixtures) {
    it.each(sizes)(`${name} at %ix%i: at most rows-1 lines, none wider than the terminal`, async (columns, rows) => {
      for (const ascii of [false, true]) {
        const app = await renderApp(make(), { columns, rows, ascii });
        expect(frameViolations(app.frame(), columns, rows)).toEqual([]);
        // Focus every pane (zooms it in small layouts) and open help: still within bounds.
        for (const k of ['2', '3', '4', '5', '?']) {
          await app.press(k);
          expect(frameViolations(app.frame(), columns, rows)).toEqual([]);
        }
        app.unmount();
      }
    });
  }
});

describe('panes', () => {
  it('shows all panes at 120x40 with the verdict, NTP table, GNSS, PTP detail and alarm', async () => {
    const app = await renderApp(healthyState());
    const f = stripAnsi(app.frame());
    expect(f).toContain('https://10.20.0.5');
    expect(f).toContain('every 2s');
    expect(f).toContain('LIVE');
    expect(f).toMatch(/updated \d\d:\d\d:\d\d/);
    expect(f).toContain('* OK · NTP synced to ntp1.example.net · GNSS 1 working, 33 sats · PTP 1/2 STABLE');
    // NTP: state symbols, the source in use marked, reach marks with octal, scaled offsets.
    expect(f).toMatch(/\* ◆ ntp1\.example\.net/);
    expect(f).toContain('●●●●●●●● 377');
    expect(f).toContain('○○○○●●●● 017');
    expect(f).toContain('-1.25ms');
    expect(f).toContain('+2.50s');
    // GNSS: receiver, antenna, PPS, position, satellites and total.
    expect(f).toContain('rx 0 * working');
    expect(f).toContain('+22.54310° -113.95001°');
    expect(f).toMatch(/GLONASS\s+8/);
    expect(f).toMatch(/total\s+33/);
    // PTP: port list and the selected port's detail.
    expect(f).toContain('~ ACQUIRING');
    expect(f).toContain('6 (locked to a primary reference');
    expect(f).toContain('001122.3344.556677-1');
    // Alarm: password exactly as the model holds it.
    expect(f).toMatch(/password\s+\*\*\*/);
    expect(f).toContain('Time Server 5 <timeserver@example.net>');
    app.unmount();
  });

  it('irregular data: unknown states as sent, standby receiver without dashes, failed port with its error', async () => {
    const app = await renderApp(irregularState(), { columns: 120, rows: 40 });
    let f = stripAnsi(app.frame());
    expect(f).toContain('Warming up');
    expect(f).toContain('时间服务器.例子.cn');
    expect(f).toContain('! not synchronized');
    expect(f).toContain('- standby');
    expect(f).toContain('no satellite counts');
    expect(f).not.toMatch(/UTC\s+-/);
    expect(f).toContain('! device error');
    // The working receiver is the second: → shows it, with its open antenna and invalid PPS.
    await app.press('2');
    await app.press(keys.right);
    f = stripAnsi(app.frame());
    expect(f).toContain('! open');
    expect(f).toContain('! invalid');
    app.unmount();
  });

  it('GNSS 40003: says there is no receiver, only in the GNSS pane', async () => {
    const app = await renderApp(gnssNoReceiverState());
    const f = stripAnsi(app.frame());
    expect(f).toContain('no GNSS receiver (or no permission)');
    expect(f).toContain('GNSS none');
    expect(f).toContain('* synchronized');
    expect(f).toContain('* STABLE');
    app.unmount();
  });

  it('PTP refused: one error line in the PTP pane above its last good data, marked stale', async () => {
    const app = await renderApp(ptpAuthRefusedState());
    const lines = app.lines();
    const err = lines.findIndex((l) => l.includes(`auth error 403: ${PTP_AUTH_MESSAGE}`.slice(0, 40)));
    expect(err).toBeGreaterThan(0);
    expect(lines.some((l) => /3 PTP STALE 60s ago/.test(l))).toBe(true);
    expect(lines.slice(err).join('\n')).toContain('* STABLE');
    expect(lines.filter((l) => l.includes('auth error'))).toHaveLength(1);
    app.unmount();
  });

  it('unreachable: a banner above the last known data, every pane STALE', async () => {
    const app = await renderApp(unreachableState(), { columns: 160, rows: 50 });
    const lines = app.lines();
    expect(lines[2]).toMatch(/^! no answer since \d\d:\d\d:\d\d, retrying in 8s — connection refused/);
    const f = lines.join('\n');
    expect(f).toContain(OUTAGE_REASON);
    expect(f.match(/STALE 45s ago/g)).toHaveLength(4);
    // The reason is said once, in the banner; each pane says it shows what it last received.
    expect(f.match(/connection refused/g)).toHaveLength(1);
    expect(f.match(/! no answer, showing the last data received/g)).toHaveLength(4);
    expect(f).toContain('ntp1.example.net');
    expect(f).toContain('+22.54310°');
    app.unmount();
  });

  it('before the first answer every pane says it is waiting', async () => {
    const app = await renderApp(emptyState());
    const f = stripAnsi(app.frame());
    expect(f.match(/waiting for the first answer/g)).toHaveLength(4);
    expect(f).toContain('no update yet');
    app.unmount();
  });

  it('80x24: the focused pane gets the room, the others collapse to one line', async () => {
    const app = await renderApp(healthyState(), { columns: 80, rows: 24 });
    let lines = app.lines();
    expect(lines.some((l) => l.startsWith('2 GNSS') && l.includes('33 sats'))).toBe(true);
    expect(lines.some((l) => l.startsWith('4 Alarm mail'))).toBe(true);
    await app.press('3');
    lines = app.lines();
    expect(lines.some((l) => l.includes('3 PTP') && l.includes('━'))).toBe(true);
    expect(lines.some((l) => l.startsWith('1 NTP') && l.includes('synced'))).toBe(true);
    expect(lines.join('\n')).toContain('GM class');
    app.unmount();
  });

  it('50x12: every section on one screen, as a pane or a summary line', async () => {
    const app = await renderApp(healthyState(), { columns: 50, rows: 12 });
    const lines = app.lines();
    expect(lines.filter((l) => /^(── |━▶ )?[1-5] (NTP|GNSS|PTP|Alarm|Events)/.test(l))).toHaveLength(5);
    app.unmount();
  });
});

describe('keys', () => {
  it('↓/j and ↑/k move the NTP selection; the detail line follows', async () => {
    const app = await renderApp(healthyState());
    const selectedRow = () => app.lines().find((l) => l.startsWith('▶ '));
    expect(selectedRow()).toContain('ntp1.example.net');
    await app.press(keys.down);
    expect(selectedRow()).toContain('ntp2.example.net');
    await app.press('j');
    expect(selectedRow()).toContain('192.168.10.4');
    expect(stripAnsi(app.frame())).toContain('- selectable  192.168.10.4');
    await app.press('k');
    await app.press(keys.up);
    expect(selectedRow()).toContain('ntp1.example.net');
    app.unmount();
  });

  it('1-5, Tab and Shift-Tab move the focus, visible in the title rule', async () => {
    const app = await renderApp(healthyState());
    const focused = () => app.lines().find((l) => /^━▶ \d/.test(l))?.slice(3, 4);
    expect(focused()).toBe('1');
    await app.press('3');
    // GNSS and PTP share a line: find the heavy rule segment.
    const focusedTitle = () => app.lines().join('\n').match(/━▶ (\d)/)?.[1];
    expect(focusedTitle()).toBe('3');
    await app.press(keys.tab);
    expect(focusedTitle()).toBe('4');
    await app.press(keys.tab);
    expect(focusedTitle()).toBe('5');
    await app.press(keys.tab);
    expect(focusedTitle()).toBe('1');
    await app.press(keys.shiftTab);
    expect(focusedTitle()).toBe('5');
    await app.press('2');
    expect(focusedTitle()).toBe('2');
    app.unmount();
  });

  it('←/→ and h/l switch the GNSS receiver', async () => {
    const app = await renderApp(healthyState());
    const receiver = () => stripAnsi(app.frame()).match(/▶ rx (\d)/)?.[1];
    await app.press('2');
    expect(receiver()).toBe('0');
    await app.press(keys.right);
    expect(receiver()).toBe('1');
    expect(stripAnsi(app.frame())).toMatch(/total\s+19/);
    await app.press('h');
    expect(receiver()).toBe('0');
    await app.press('l');
    await app.press(keys.left);
    expect(receiver()).toBe('0');
    app.unmount();
  });

  it('↑/↓ and ←/→ select the PTP port; its detail follows', async () => {
    const app = await renderApp(healthyState());
    const state = () => stripAnsi(app.frame()).match(/sync state\s+(\S+ \S+)/)?.[1];
    await app.press('3');
    expect(state()).toBe('* STABLE');
    await app.press(keys.down);
    expect(state()).toBe('~ ACQUIRING');
    expect(stripAnsi(app.frame())).toContain('7 (holdover, within specification)');
    await app.press(keys.left);
    expect(state()).toBe('* STABLE');
    await app.press('l');
    expect(state()).toBe('~ ACQUIRING');
    await app.press('k');
    expect(state()).toBe('* STABLE');
    app.unmount();
  });

  it('? opens help (keys and chrony legend) and ? / Esc close it', async () => {
    const app = await renderApp(healthyState());
    await app.press('?');
    let f = stripAnsi(app.frame());
    expect(f).toContain('help');
    expect(f).toContain('poll the device now');
    expect(f).toContain('Shift-Tab');
    expect(f).toContain('False ticker');
    expect(f).toContain('Too variable');
    // Modal: r does nothing while help is open.
    await app.press('r');
    expect(app.controller.pollCount).toBe(0);
    await app.press(ESC);
    f = stripAnsi(app.frame());
    expect(f).not.toContain('poll the device now');
    expect(f).toContain('ntp1.example.net');
    await app.press('?');
    expect(stripAnsi(app.frame())).toContain('poll the device now');
    await app.press('?');
    expect(stripAnsi(app.frame())).not.toContain('poll the device now');
    app.unmount();
  });

  it('a long table scrolls to keep the selection visible and says how many rows are hidden', async () => {
    const s = healthyState();
    const names = Array.from({ length: 10 }, (_, i) => `src${i}.example.net`);
    s.ntp = { ...s.ntp, data: { ...s.ntp.data!, sources: names.map((name, i) => ({ ...s.ntp.data!.sources[1]!, name, state: i === 0 ? 'Best source' : 'Selectable' })) } };
    const app = await renderApp(s, { columns: 80, rows: 16 });
    expect(app.lines().join('\n')).toMatch(/↓ \d+ more below/);
    for (let i = 0; i < 9; i++) await app.press('j');
    const lines = app.lines();
    expect(lines.find((l) => l.startsWith('▶ '))).toContain('src9.example.net');
    expect(lines.join('\n')).toMatch(/↑ \d+ more above/);
    expect(lines.join('\n')).not.toContain('src0.example.net');
    expect(frameViolations(app.frame(), 80, 16)).toEqual([]);
    // Back up one: the window does not jump, the row above the bottom is selected.
    await app.press('k');
    expect(app.lines().find((l) => l.startsWith('▶ '))).toContain('src8.example.net');
    expect(app.lines().join('\n')).toContain('src9.example.net');
    app.unmount();
  });

  it('r polls now, space pauses and resumes', async () => {
    const app = await renderApp(healthyState());
    await app.press('r');
    expect(app.controller.pollCount).toBe(1);
    await app.press(' ');
    expect(app.controller.pausedCalls).toEqual([true]);
    expect(stripAnsi(app.frame())).toContain('PAUSED');
    await app.press(' ');
    expect(app.controller.pausedCalls).toEqual([true, false]);
    expect(stripAnsi(app.frame())).toContain('LIVE');
    app.unmount();
  });

  it('q and Ctrl-C call onQuit', async () => {
    const app = await renderApp(healthyState());
    await app.press('q');
    expect(app.quits()).toBe(1);
    await app.press(keys.ctrlC);
    expect(app.quits()).toBe(2);
    app.unmount();
  });

  it('z zooms the focused pane on a big terminal and back', async () => {
    const app = await renderApp(healthyState());
    await app.press('3');
    await app.press('z');
    let lines = app.lines();
    expect(lines.some((l) => l.startsWith('1 NTP'))).toBe(true);
    await app.press('z');
    lines = app.lines();
    expect(lines.some((l) => l.startsWith('1 NTP'))).toBe(false);
    app.unmount();
  });
});

describe('color and text', () => {
  it('color off: no SGR at all, state still in symbols and words', async () => {
    for (const make of [healthyState, irregularState, unreachableState]) {
      const app = await renderApp(make(), { color: false });
      expect(app.frame()).not.toMatch(SGR);
      await app.press('?');
      expect(app.frame()).not.toMatch(SGR);
      app.unmount();
    }
  });

  it('color on: chalk colors (so the test above proves something)', async () => {
    const app = await renderApp(healthyState(), { color: true });
    expect(app.frame()).toMatch(SGR);
    app.unmount();
  });

  it('colors offsets by threshold in the tables: PTP +15.3µs over a 1µs warning is yellow, the false ticker\'s +2.50s red', async () => {
    const state = healthyState();
    state.thresholds = { ...state.thresholds, ptpWarnNs: 1_000, ptpCritNs: 100_000 };
    const app = await renderApp(state, { color: true });
    const f = app.frame();
    expect(colorAt(f, '+15.3µs')).toBe(33);
    expect(colorAt(f, '+2.50s')).toBe(31);
    expect(colorAt(f, '-850ns')).toBe(39);
    app.unmount();
  });

  it('ASCII: only printable ASCII, classic marks and us instead of µs', async () => {
    const app = await renderApp(healthyState(), { ascii: true });
    const f = app.frame();
    expect(f).toMatch(/^[\x20-\x7e\n]*$/);
    expect(f).toContain('||||||||| 377'.slice(1));
    expect(f).toContain('+41.2us');
    app.unmount();
  });

  it('renders the identical frame when nothing changed, and ages advance with the clock', async () => {
    let now = NOW;
    const app = await renderApp(healthyState(), { now: () => now });
    const first = app.frame();
    await app.rerenderState({ ...app.controller.getState(), version: 2 });
    expect(app.frame()).toBe(first);
    now += 3_000;
    await app.rerenderState({ ...app.controller.getState(), version: 3 });
    expect(stripAnsi(app.frame())).toContain('1 NTP 4s ago');
    now += 10_000;
    await app.rerenderState({ ...app.controller.getState(), version: 4 });
    expect(stripAnsi(app.frame())).toContain('1 NTP STALE 14s ago');
    app.unmount();
  });
});

describe('help at 80x24', () => {
  it('every key text fits: nothing in the key list is cut', async () => {
    const { bindings, HELP_TEXT_MAX } = await import('../../src/ui/keys.js');
    for (const b of bindings) expect(b.help.length, b.help).toBeLessThanOrEqual(HELP_TEXT_MAX);
    const app = await renderApp(healthyState(), { columns: 80, rows: 24 });
    await app.press('?');
    const frame = stripAnsi(app.frame());
    for (const b of bindings) expect(frame).toContain(b.help);
    app.unmount();
  });
});
