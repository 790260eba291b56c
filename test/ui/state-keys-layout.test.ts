import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { bindingLabel, bindings, commandFor } from '../../src/ui/keys.js';
import type { LayoutPlan } from '../../src/ui/layout.js';
import { chooseMode, planHeight, planLayout } from '../../src/ui/layout.js';
import { asciiGlyphs, unicodeGlyphs } from '../../src/ui/theme.js';
import type { PaneId, UiAction, UiState } from '../../src/ui/ui-state.js';
import { PANES, initialUiState, uiReducer } from '../../src/ui/ui-state.js';

const lengths = { ntpRows: 3, gnssReceivers: 2, ptpPorts: 2 };

describe('UI reducer', () => {
  const at = (over: Partial<UiState>): UiState => ({ ...initialUiState, ...over });
  it.each<[string, UiState, UiAction, Partial<UiState>]>([
    ['focus a pane', at({}), { type: 'focus', pane: 'ptp' }, { focus: 'ptp' }],
    ['Tab cycles forward', at({ focus: 'alarm' }), { type: 'cycleFocus', delta: 1 }, { focus: 'ntp' }],
    ['Shift-Tab cycles back', at({ focus: 'ntp' }), { type: 'cycleFocus', delta: -1 }, { focus: 'alarm' }],
    ['↓ moves the NTP row', at({ focus: 'ntp' }), { type: 'moveSelection', delta: 1, lengths }, { ntpRow: 1 }],
    ['↓ stops at the last row', at({ focus: 'ntp', ntpRow: 2 }), { type: 'moveSelection', delta: 1, lengths }, { ntpRow: 2 }],
    ['↑ stops at the first row', at({ focus: 'ntp' }), { type: 'moveSelection', delta: -1, lengths }, { ntpRow: 0 }],
    ['↓ moves the PTP port', at({ focus: 'ptp' }), { type: 'moveSelection', delta: 1, lengths }, { ptpPort: 1 }],
    ['↓ in GNSS does nothing', at({ focus: 'gnss' }), { type: 'moveSelection', delta: 1, lengths }, {}],
    ['→ switches the receiver', at({ focus: 'gnss' }), { type: 'switchItem', delta: 1, lengths }, { gnssReceiver: 1 }],
    ['→ switches the port', at({ focus: 'ptp' }), { type: 'switchItem', delta: 1, lengths }, { ptpPort: 1 }],
    ['← in NTP does nothing', at({ focus: 'ntp', ntpRow: 1 }), { type: 'switchItem', delta: -1, lengths }, {}],
    ['a shrunken list clamps first', at({ focus: 'ntp', ntpRow: 9 }), { type: 'moveSelection', delta: -1, lengths }, { ntpRow: 1 }],
    ['an empty list stays at 0', at({ focus: 'ptp' }), { type: 'moveSelection', delta: 1, lengths: { ...lengths, ptpPorts: 0 } }, { ptpPort: 0 }],
    ['? opens help', at({}), { type: 'toggleHelp' }, { helpOpen: true }],
    ['? closes help', at({ helpOpen: true }), { type: 'toggleHelp' }, { helpOpen: false }],
    ['Esc closes help', at({ helpOpen: true }), { type: 'closeHelp' }, { helpOpen: false }],
    ['z zooms', at({}), { type: 'toggleZoom' }, { zoomed: true }],
  ])('%s', (_name, state, action, change) => {
    const before = structuredClone(state);
    expect(uiReducer(state, action)).toEqual({ ...state, ...change });
    expect(state).toEqual(before);
  });

  it('returns the same object when nothing changes (no re-render)', () => {
    const s = at({ focus: 'ntp' });
    expect(uiReducer(s, { type: 'focus', pane: 'ntp' })).toBe(s);
    expect(uiReducer(s, { type: 'closeHelp' })).toBe(s);
    expect(uiReducer(s, { type: 'moveSelection', delta: -1, lengths })).toBe(s);
  });
});

function key(over: Partial<Key> = {}): Key {
  return {
    upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
    return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
    super: false, hyper: false, capsLock: false, numLock: false, ...over,
  };
}

describe('key table', () => {
  it.each([
    ['1', key(), { type: 'focus', pane: 'ntp' }],
    ['4', key(), { type: 'focus', pane: 'alarm' }],
    ['', key({ tab: true }), { type: 'cycleFocus', delta: 1 }],
    ['', key({ tab: true, shift: true }), { type: 'cycleFocus', delta: -1 }],
    ['', key({ leftArrow: true }), { type: 'switchItem', delta: -1 }],
    ['l', key(), { type: 'switchItem', delta: 1 }],
    ['k', key(), { type: 'moveSelection', delta: -1 }],
    ['', key({ downArrow: true }), { type: 'moveSelection', delta: 1 }],
    ['r', key(), { type: 'pollNow' }],
    [' ', key(), { type: 'togglePause' }],
    ['?', key(), { type: 'toggleHelp' }],
    ['', key({ escape: true }), { type: 'closeHelp' }],
    ['q', key(), { type: 'quit' }],
    ['c', key({ ctrl: true }), { type: 'quit' }],
    ['z', key(), { type: 'toggleZoom' }],
    ['q', key({ meta: true }), { type: 'quit' }],
    ['x', key(), null],
    ['c', key(), null],
  ])('%j %o -> %o', (input, k, want) => {
    expect(commandFor(input, k, false)).toEqual(want);
  });

  it('makes the help overlay modal: only ?, Esc, q and Ctrl-C act', () => {
    expect(commandFor('1', key(), true)).toBeNull();
    expect(commandFor('r', key(), true)).toBeNull();
    expect(commandFor('?', key(), true)).toEqual({ type: 'toggleHelp' });
    expect(commandFor('', key({ escape: true }), true)).toEqual({ type: 'closeHelp' });
    expect(commandFor('q', key(), true)).toEqual({ type: 'quit' });
  });

  it('labels every binding, in ASCII too', () => {
    expect(bindings.map((b) => bindingLabel(b, unicodeGlyphs))).toContain('↑/k');
    for (const b of bindings) expect(bindingLabel(b, asciiGlyphs)).toMatch(/^[\x20-\x7e]+$/);
  });
});

describe('layout', () => {
  const want = { ntp: 12, gnss: 11, ptp: 19, alarm: 7 };
  const sizes = [
    [200, 60], [120, 40], [121, 45], [119, 40], [100, 30], [80, 24], [60, 15], [59, 30], [50, 12], [40, 8], [20, 5],
  ] as const;

  it.each([
    [120, 40, 'full'],
    [119, 40, 'focus'],
    [120, 39, 'focus'],
    [80, 24, 'focus'],
    [60, 15, 'focus'],
    [59, 24, 'tiny'],
    [80, 14, 'tiny'],
  ] as const)('%ix%i is %s', (columns, rows, mode) => {
    expect(chooseMode({ columns, rows }, false)).toBe(mode);
  });

  it('zoom shows the focused pane alone on big terminals', () => {
    expect(chooseMode({ columns: 150, rows: 50 }, true)).toBe('focus');
  });

  const paneSlots = (plan: LayoutPlan) => plan.blocks.flatMap((b) => (b.kind === 'panes' ? b.columns.flatMap((c) => c.slots) : []));

  it.each(sizes)('%ix%i: never more than rows-1 lines, never wider than the terminal', (columns, rows) => {
    for (const chrome of [3, 4]) {
      for (const focus of PANES) {
        const plan = planLayout({ columns, rows }, focus, false, chrome, want);
        expect(planHeight(plan) + chrome).toBeLessThanOrEqual(Math.max(rows - 1, chrome + (plan.mode === 'tiny' ? 4 : 0)));
        for (const b of plan.blocks) {
          if (b.kind !== 'panes') continue;
          const used = b.columns.reduce((s, c) => s + c.width, 0) + 2 * (b.columns.length - 1);
          expect(used).toBeLessThanOrEqual(columns);
          for (const c of b.columns) {
            expect(c.slots.reduce((s, slot) => s + slot.height, 0)).toBeLessThanOrEqual(b.height);
            for (const slot of c.slots) expect(slot.width).toBeLessThanOrEqual(c.width);
          }
        }
      }
    }
  });

  it('full: NTP on top, GNSS over Alarm beside PTP below', () => {
    const plan = planLayout({ columns: 120, rows: 40 }, 'ntp', false, 3, want);
    const shape = plan.blocks.map((b) => (b.kind === 'panes' ? b.columns.map((c) => c.slots.map((s) => `${s.pane}:${s.height}`).join('/')).join(' | ') : b.pane));
    expect(shape).toEqual(['ntp:12', 'gnss:11/alarm:7 | ptp:19']);
    expect(planHeight(plan)).toBeLessThanOrEqual(36);
  });

  it('full: a big device shares the lines, NTP keeps at least 40%', () => {
    const plan = planLayout({ columns: 120, rows: 40 }, 'ntp', false, 3, { ntp: 20, gnss: 10, ptp: 25, alarm: 13 });
    const heights = paneSlots(plan).map((s) => `${s.pane}:${s.height}`);
    expect(heights).toEqual(['ntp:15', 'gnss:10', 'alarm:11', 'ptp:21']);
  });

  it('focus: the focused pane gets the room, the others one line each', () => {
    const plan = planLayout({ columns: 80, rows: 24 }, 'ptp', false, 3, want);
    expect(paneSlots(plan).map((s) => s.pane)).toEqual(['ptp']);
    expect(plan.blocks.filter((b) => b.kind === 'summary').map((b) => (b.kind === 'summary' ? b.pane : ''))).toEqual(['ntp', 'gnss', 'alarm']);
    expect(paneSlots(plan)[0]?.height).toBe(17);
  });

  it('tiny: one line per section', () => {
    const plan = planLayout({ columns: 50, rows: 12 }, 'gnss', false, 3, want);
    expect(plan.blocks).toEqual((['ntp', 'gnss', 'ptp', 'alarm'] as PaneId[]).map((pane) => ({ kind: 'summary', pane })));
  });
});
