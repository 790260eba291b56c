import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { bindingLabel, bindings, commandFor } from '../../src/ui/keys.js';
import type { LayoutPlan, PaneNeed } from '../../src/ui/layout.js';
import { chooseMode, elastic, emptyBodyLines, paneHeights, planHeight, planLayout } from '../../src/ui/layout.js';
import { asciiGlyphs, unicodeGlyphs } from '../../src/view/theme.js';
import type { PaneId, UiAction, UiState } from '../../src/ui/ui-state.js';
import { PANES, initialUiState, uiReducer } from '../../src/ui/ui-state.js';

const lengths = { ntpRows: 3, gnssReceivers: 2, ptpPorts: 2, events: 4, devices: 3, help: 5 };

describe('UI reducer', () => {
  const at = (over: Partial<UiState>): UiState => ({ ...initialUiState, ...over });
  it.each<[string, UiState, UiAction, Partial<UiState>]>([
    ['focus a pane', at({}), { type: 'focus', pane: 'ptp' }, { focus: 'ptp' }],
    ['Tab cycles forward', at({ focus: 'events' }), { type: 'cycleFocus', delta: 1 }, { focus: 'ntp' }],
    ['Shift-Tab cycles back', at({ focus: 'ntp' }), { type: 'cycleFocus', delta: -1 }, { focus: 'events' }],
    ['↓ moves the NTP row', at({ focus: 'ntp' }), { type: 'moveSelection', delta: 1, lengths }, { ntpRow: 1 }],
    ['↓ stops at the last row', at({ focus: 'ntp', ntpRow: 2 }), { type: 'moveSelection', delta: 1, lengths }, { ntpRow: 2 }],
    ['↑ stops at the first row', at({ focus: 'ntp' }), { type: 'moveSelection', delta: -1, lengths }, { ntpRow: 0 }],
    ['End goes to the last row', at({ focus: 'ntp' }), { type: 'moveSelection', delta: Infinity, lengths }, { ntpRow: 2 }],
    ['Home goes to the first row', at({ focus: 'ntp', ntpRow: 2 }), { type: 'moveSelection', delta: -Infinity, lengths }, { ntpRow: 0 }],
    ['a page stops at the end', at({ focus: 'events' }), { type: 'moveSelection', delta: 12, lengths }, { eventsTop: 3 }],
    ['/ starts the filter in NTP', at({ focus: 'ptp' }), { type: 'startFilter' }, { focus: 'ntp', filterEditing: true }],
    ['typing extends the filter and selects the first match', at({ filterEditing: true, ntpFilter: 'nt', ntpRow: 2 }), { type: 'filterInput', text: 'p2' }, { ntpFilter: 'ntp2', ntpRow: 0 }],
    ['Backspace removes a character', at({ filterEditing: true, ntpFilter: 'ntp' }), { type: 'filterBackspace' }, { ntpFilter: 'nt' }],
    ['Enter keeps the filter', at({ filterEditing: true, ntpFilter: 'ntp' }), { type: 'endFilter', keep: true }, { ntpFilter: 'ntp', filterEditing: false }],
    ['Esc drops the filter', at({ filterEditing: true, ntpFilter: 'ntp' }), { type: 'endFilter', keep: false }, { ntpFilter: '', filterEditing: false }],
    ['↓ moves the PTP port', at({ focus: 'ptp' }), { type: 'moveSelection', delta: 1, lengths }, { ptpPort: 1 }],
    ['↓ in GNSS does nothing', at({ focus: 'gnss' }), { type: 'moveSelection', delta: 1, lengths }, {}],
    ['→ switches the receiver', at({ focus: 'gnss' }), { type: 'switchItem', delta: 1, lengths }, { gnssReceiver: 1 }],
    ['→ switches the port', at({ focus: 'ptp' }), { type: 'switchItem', delta: 1, lengths }, { ptpPort: 1 }],
    ['← in NTP does nothing', at({ focus: 'ntp', ntpRow: 1 }), { type: 'switchItem', delta: -1, lengths }, {}],
    ['a shrunken list clamps first', at({ focus: 'ntp', ntpRow: 9 }), { type: 'moveSelection', delta: -1, lengths }, { ntpRow: 1 }],
    ['an empty list stays at 0', at({ focus: 'ptp' }), { type: 'moveSelection', delta: 1, lengths: { ...lengths, ptpPorts: 0 } }, { ptpPort: 0 }],
    ['? opens help', at({}), { type: 'toggleHelp' }, { overlay: 'help' }],
    ['? closes help', at({ overlay: 'help' }), { type: 'toggleHelp' }, { overlay: null }],
    ['Esc closes help', at({ overlay: 'help' }), { type: 'closeOverlay' }, { overlay: null }],
    ['Esc closes the device list', at({ overlay: 'devices', deviceRow: 2 }), { type: 'closeOverlay' }, { overlay: null }],
    ['d opens the device list at the current device', at({}), { type: 'openDevices', current: 1 }, { overlay: 'devices', deviceRow: 1 }],
    ['↓ moves the device selection while the list is open', at({ focus: 'ntp', overlay: 'devices' }), { type: 'moveSelection', delta: 1, lengths }, { deviceRow: 1 }],
    ['↓ stops at the last device', at({ overlay: 'devices', deviceRow: 2 }), { type: 'moveSelection', delta: 1, lengths }, {}],
    ['↓ scrolls the help, not the NTP row', at({ focus: 'ntp', overlay: 'help' }), { type: 'moveSelection', delta: 1, lengths }, { helpTop: 1 }],
    ['↓ scrolls the event log back', at({ focus: 'events' }), { type: 'moveSelection', delta: 1, lengths }, { eventsTop: 1 }],
    ['f opens the findings list at the worst', at({ findingsTop: 3 }), { type: 'toggleFindings' }, { overlay: 'findings', findingsTop: 0 }],
    ['f closes the findings list', at({ overlay: 'findings' }), { type: 'toggleFindings' }, { overlay: null }],
    ['f over help shows the findings', at({ overlay: 'help' }), { type: 'toggleFindings' }, { overlay: 'findings' }],
    ['↓ scrolls the findings, not the NTP row', at({ focus: 'ntp', overlay: 'findings' }), { type: 'moveSelection', delta: 1, lengths: { ...lengths, findings: 5 } }, { findingsTop: 1 }],
    ['↓ stops at the last finding', at({ overlay: 'findings', findingsTop: 4 }), { type: 'moveSelection', delta: 1, lengths: { ...lengths, findings: 5 } }, {}],
    ['Esc closes the findings list', at({ overlay: 'findings' }), { type: 'closeOverlay' }, { overlay: null }],
    ['Tab from Alarm reaches Events', at({ focus: 'alarm' }), { type: 'cycleFocus', delta: 1 }, { focus: 'events' }],
    ['events seen up to a time', at({ eventsSeenAt: 10 }), { type: 'eventsSeen', at: 20 }, { eventsSeenAt: 20 }],
    ['events seen never go back', at({ eventsSeenAt: 30 }), { type: 'eventsSeen', at: 20 }, {}],
    ['a notice', at({}), { type: 'notice', text: 'saved', token: 'ok' }, { notice: { text: 'saved', token: 'ok', id: 1 } }],
    ['a notice clears itself', at({ notice: { text: 'saved', token: 'ok', id: 3 } }), { type: 'clearNotice', id: 3 }, { notice: null }],
    ['a late clear leaves a newer notice', at({ notice: { text: 'saved', token: 'ok', id: 4 } }), { type: 'clearNotice', id: 3 }, {}],
    ['z zooms', at({}), { type: 'toggleZoom' }, { zoomed: true }],
  ])('%s', (_name, state, action, change) => {
    const before = structuredClone(state);
    expect(uiReducer(state, action)).toEqual({ ...state, ...change });
    expect(state).toEqual(before);
  });

  it('returns the same object when nothing changes (no re-render)', () => {
    const s = at({ focus: 'ntp' });
    expect(uiReducer(s, { type: 'focus', pane: 'ntp' })).toBe(s);
    expect(uiReducer(s, { type: 'closeOverlay' })).toBe(s);
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
    ['', key({ escape: true }), { type: 'closeOverlay' }],
    ['5', key(), { type: 'focus', pane: 'events' }],
    ['d', key(), { type: 'devices' }],
    ['[', key(), { type: 'step', delta: -1 }],
    [']', key(), { type: 'step', delta: 1 }],
    ['s', key(), { type: 'screendump' }],
    ['', key({ return: true }), null],
    ['q', key(), { type: 'quit' }],
    ['c', key({ ctrl: true }), { type: 'quit' }],
    ['z', key(), { type: 'toggleZoom' }],
    ['q', key({ meta: true }), { type: 'quit' }],
    ['x', key(), null],
    ['c', key(), null],
  ])('%j %o -> %o', (input, k, want) => {
    expect(commandFor(input, k, null)).toEqual(want);
  });

  it('makes the help overlay modal: only ?, Esc, q and Ctrl-C act', () => {
    expect(commandFor('1', key(), 'help')).toBeNull();
    expect(commandFor('r', key(), 'help')).toBeNull();
    expect(commandFor('d', key(), 'help')).toBeNull();
    expect(commandFor('?', key(), 'help')).toEqual({ type: 'toggleHelp' });
    expect(commandFor('', key({ escape: true }), 'help')).toEqual({ type: 'closeOverlay' });
    expect(commandFor('q', key(), 'help')).toEqual({ type: 'quit' });
  });

  it('makes the device list modal: ↑/↓ j/k, Enter, Esc, d, q act; panes keys do not', () => {
    expect(commandFor('', key({ return: true }), 'devices')).toEqual({ type: 'chooseDevice' });
    expect(commandFor('j', key(), 'devices')).toEqual({ type: 'moveSelection', delta: 1 });
    expect(commandFor('', key({ upArrow: true }), 'devices')).toEqual({ type: 'moveSelection', delta: -1 });
    expect(commandFor('', key({ escape: true }), 'devices')).toEqual({ type: 'closeOverlay' });
    expect(commandFor('d', key(), 'devices')).toEqual({ type: 'devices' });
    expect(commandFor('q', key(), 'devices')).toEqual({ type: 'quit' });
    expect(commandFor('1', key(), 'devices')).toBeNull();
    expect(commandFor('r', key(), 'devices')).toBeNull();
    expect(commandFor('s', key(), 'devices')).toBeNull();
  });

  it('labels the pane keys as a range', () => {
    expect(bindingLabel(bindings[0]!, unicodeGlyphs)).toBe('1-5');
  });

  it('labels every binding, in ASCII too', () => {
    expect(bindings.map((b) => bindingLabel(b, unicodeGlyphs))).toContain('↑/k');
    for (const b of bindings) expect(bindingLabel(b, asciiGlyphs)).toMatch(/^[\x20-\x7e]+$/);
  });
});

describe('layout', () => {
  const sized = (n: Record<PaneId, number>): Record<PaneId, PaneNeed> =>
    Object.fromEntries(PANES.map((p) => [p, elastic(n[p], Math.min(n[p], 3))])) as Record<PaneId, PaneNeed>;
  const want = sized({ ntp: 12, gnss: 11, ptp: 19, alarm: 7, events: 5 });
  const sizes = [
    [200, 60], [120, 40], [121, 45], [119, 40], [100, 30], [80, 24], [60, 15], [59, 30], [50, 12], [40, 8], [20, 5],
  ] as const;

  it.each([
    [120, 40, 'full'],
    [119, 40, 'focus'],
    [120, 39, 'focus'],
    [80, 24, 'focus'],
    [40, 10, 'focus'],
  ] as const)('%ix%i is %s', (columns, rows, mode) => {
    expect(chooseMode({ columns, rows }, false)).toBe(mode);
  });

  it('zoom works at every size', () => {
    for (const [columns, rows] of sizes) expect(chooseMode({ columns, rows }, true)).toBe('zoom');
  });

  const paneSlots = (plan: LayoutPlan) => plan.blocks.flatMap((b) => (b.kind === 'panes' ? b.columns.flatMap((c) => c.slots) : []));

  it.each(sizes)('%ix%i: never more than rows-1 lines, never wider than the terminal', (columns, rows) => {
    for (const chrome of [3, 4]) {
      for (const focus of PANES) {
        for (const zoomed of [false, true]) {
          const plan = planLayout({ columns, rows }, focus, zoomed, chrome, want);
          expect(planHeight(plan) + chrome).toBeLessThanOrEqual(Math.max(rows - 1, chrome + 1));
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
    }
  });

  it('full: NTP on top, GNSS over Alarm beside PTP over Events below', () => {
    const plan = planLayout({ columns: 120, rows: 40 }, 'ntp', false, 3, want);
    const shape = plan.blocks.map((b) => (b.kind === 'panes' ? b.columns.map((c) => c.slots.map((s) => `${s.pane}:${s.height}`).join('/')).join(' | ') : b.pane));
    // Alarm wants 7 lines; last in its column, it takes the 13 GNSS leaves (its long lines wrap there).
    expect(shape).toEqual(['ntp:12', 'gnss:11/alarm:13 | ptp:19/events:5']);
  });

  it('full: a big device shares the lines, NTP keeps at least 40%', () => {
    const plan = planLayout({ columns: 120, rows: 40 }, 'ntp', false, 3, sized({ ntp: 20, gnss: 10, ptp: 25, alarm: 13, events: 30 }));
    const heights = paneSlots(plan).map((s) => `${s.pane}:${s.height}`);
    // Events keeps its title and four lines; PTP's detail gives way (it says how much is hidden).
    expect(heights).toEqual(['ntp:15', 'gnss:10', 'alarm:11', 'ptp:16', 'events:5']);
  });

  it('full: events fill what PTP leaves, down to the footer', () => {
    const plan = planLayout({ columns: 160, rows: 50 }, 'ntp', false, 3, sized({ ntp: 12, gnss: 11, ptp: 19, alarm: 7, events: 200 }));
    expect(paneSlots(plan).find((s) => s.pane === 'events')!.height).toBe(46 - 12 - 19);
    expect(emptyBodyLines(plan)).toBe(0);
  });

  it('full: lines the bottom row does not need go back to NTP', () => {
    const plan = planLayout({ columns: 160, rows: 50 }, 'ntp', false, 3, sized({ ntp: 40, gnss: 5, ptp: 8, alarm: 4, events: 3 }));
    expect(paneHeights(plan).ntp).toBe(46 - 11);
  });

  it('focus: the focused pane at its natural height, the rest in priority order, then summaries', () => {
    const plan = planLayout({ columns: 80, rows: 24 }, 'ptp', false, 3, want);
    // 20 lines: PTP 19, and the four others as summary lines would need 23; PTP gets 16.
    expect(paneHeights(plan)).toEqual({ ptp: 16, ntp: 1, gnss: 1, alarm: 1, events: 1 });
    const roomy = planLayout({ columns: 80, rows: 40 }, 'alarm', false, 3, want);
    // 36 lines: Alarm 7, NTP 12, PTP the 15 left beside the two summary lines.
    expect(paneHeights(roomy)).toEqual({ alarm: 7, ntp: 12, ptp: 15, gnss: 1, events: 1 });
    expect(emptyBodyLines(roomy)).toBe(0);
  });

  it('focus: a pane too small for its compact form stays a summary line; empty lines only when all is shown', () => {
    const plan = planLayout({ columns: 40, rows: 10 }, 'gnss', false, 3, want);
    expect(plan.blocks.map((b) => b.kind)).toEqual(['summary', 'summary', 'summary', 'summary', 'summary']);
    const small = planLayout({ columns: 100, rows: 60 }, 'ntp', false, 3, sized({ ntp: 5, gnss: 4, ptp: 4, alarm: 3, events: 2 }));
    expect(paneHeights(small)).toEqual({ ntp: 5, gnss: 4, ptp: 4, alarm: 3, events: 2 });
  });

  it('zoom: the focused pane takes every line but one summary per other pane', () => {
    const plan = planLayout({ columns: 80, rows: 24 }, 'ptp', true, 3, want);
    expect(paneHeights(plan)).toEqual({ ptp: 16, ntp: 1, gnss: 1, alarm: 1, events: 1 });
    expect(plan.mode).toBe('zoom');
  });

  it('a terminal with fewer lines than panes shows the summaries that fit, the focused one first', () => {
    const plan = planLayout({ columns: 20, rows: 5 }, 'events', false, 2, want);
    expect(plan.blocks.map((b) => (b.kind === 'summary' ? b.pane : '?'))).toEqual(['events', 'ntp']);
  });
});
