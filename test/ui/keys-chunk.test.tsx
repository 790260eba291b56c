/** Keys read together, paging, the NTP filter, the scrolling help, the footer in narrow terminals, Ctrl-L. */
import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { splitKeys } from '../../src/ui/keys.js';
import { footerLine } from '../../src/ui/panes/Footer.js';
import { lineText } from '../../src/view/cell.js';
import { asciiGlyphs } from '../../src/view/theme.js';
import { healthyState, insightState } from './fixtures.js';
import { renderApp } from './harness.js';

const none: Key = { upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false } as Key;

describe('splitKeys', () => {
  it.each<[string, Key, [string, Partial<Key>][]]>([
    ['j', none, [['j', {}]]],
    ['jj', none, [['j', {}], ['j', {}]]],
    ['23', none, [['2', {}], ['3', {}]]],
    ['jQ', none, [['j', { shift: false }], ['Q', { shift: true }]]],
    ['j\t', none, [['j', {}], ['', { tab: true }]]],
    ['k\x0c', none, [['k', {}], ['l', { ctrl: true }]]],
    ['l', { ...none, ctrl: true }, [['l', { ctrl: true }]]],
  ])('%j', (input, key, expected) => {
    const out = splitKeys(input, key);
    expect(out.map(([i]) => i)).toEqual(expected.map(([i]) => i));
    out.forEach(([, k], n) => expect(k).toMatchObject(expected[n]![1]));
  });
});

const selectedLine = (lines: string[]) => lines.find((l) => l.startsWith('▶ '));

describe('keys on the screen', () => {
  it('handles every key of one chunk: jj moves two rows, 23 focuses PTP', async () => {
    const app = await renderApp(healthyState(), { columns: 120, rows: 40 });
    await app.press('jj');
    expect(selectedLine(app.lines())).toContain('192.168.10.4');
    await app.press('23');
    expect(app.lines().some((l) => /━▶ 3 PTP/.test(l))).toBe(true);
    app.unmount();
  });

  it('PgDn/End/Home move in the NTP list', async () => {
    const app = await renderApp(healthyState(), { columns: 120, rows: 40 });
    await app.press('\x1b[F');
    expect(selectedLine(app.lines())).toContain('[fe80::1]');
    await app.press('\x1b[H');
    expect(selectedLine(app.lines())).toContain('ntp1.example.net');
    await app.press('\x1b[6~');
    expect(selectedLine(app.lines())).toContain('[fe80::1]');
    app.unmount();
  });

  it('/ filters NTP sources by name; Esc clears', async () => {
    const app = await renderApp(healthyState(), { columns: 100, rows: 30 });
    await app.press('/');
    await app.press('ntp2');
    expect(app.lines().at(-1)).toContain('/ntp2_');
    await app.press('\r');
    const frame = app.lines().join('\n');
    expect(frame).toContain('filter /ntp2: 1 shown');
    expect(frame).toContain('ntp2.example.net');
    expect(frame).not.toContain('192.168.10.4');
    await app.press('/');
    await app.press('\x1b');
    expect(app.lines().join('\n')).toContain('192.168.10.4');
    app.unmount();
  });

  it('z and 1-5 work at 80x24 and below', async () => {
    const app = await renderApp(insightState(), { columns: 70, rows: 20 });
    await app.press('3');
    expect(app.lines().some((l) => /━▶ 3 PTP/.test(l))).toBe(true);
    await app.press('z');
    // Zoomed: PTP takes every line but one summary line per other pane.
    expect(app.lines().filter((l) => /^[1245] (NTP|GNSS|Alarm|Events)/.test(l))).toHaveLength(4);
    // ...and draws the selected port's offset as a chart with a labelled y-axis.
    const frame = app.lines().join('\n');
    expect(frame).toContain('offset from master, port 0');
    expect(frame).toMatch(/[+-]\d+ns┤/);
    app.unmount();
  });

  it('help scrolls in a small terminal', async () => {
    const app = await renderApp(healthyState(), { columns: 60, rows: 16 });
    await app.press('?');
    const first = app.lines().join('\n');
    expect(first).toMatch(/more \(/);
    await app.press('\x1b[6~');
    const paged = app.lines().join('\n');
    expect(paged).toMatch(/\d+ above/);
    expect(paged).not.toEqual(first);
    app.unmount();
  });

  it('the footer keeps q quit and ? help in a narrow terminal', () => {
    for (const width of [30, 40, 60, 80]) {
      const text = lineText(footerLine(asciiGlyphs, width));
      expect(text).toContain('q quit');
      expect(text).toContain('? help');
      expect(text.length).toBeLessThanOrEqual(width);
    }
  });

  it('Ctrl-L asks for a full redraw', async () => {
    let redraws = 0;
    const { render } = await import('ink-testing-library');
    const { App } = await import('../../src/ui/App.js');
    const { fakeController } = await import('./fixtures.js');
    const { settle } = await import('./harness.js');
    const r = render(<App controller={fakeController(healthyState())} color={false} ascii={false} size={{ columns: 80, rows: 24 }} onQuit={() => undefined} onRedraw={() => redraws++} />);
    await settle();
    r.stdin.write('\x0c');
    await settle();
    expect(redraws).toBe(1);
    r.unmount();
  });
});

describe('NTP legend', () => {
  it('explains the marks and names what the API does not report when the pane has room', async () => {
    const app = await renderApp(healthyState(), { columns: 120, rows: 40 });
    const frame = app.lines().join('\n');
    expect(frame).toMatch(/\* best +\+ combined/);
    expect(frame).toContain('answered/missed');
    expect(frame).toContain('not in the device API: chrony tracking');
    app.unmount();
  });
});
