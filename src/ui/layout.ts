/**
 * Which panes go where, for a terminal size. Pure. The contract every plan keeps: the frame is
 * at most rows-1 lines (at rows lines Ink clears the screen on every update: flicker, and the
 * tmux scrollback is wiped) and no slot is wider than the terminal.
 *
 *   full  (>= 120x40): NTP across the top, GNSS | PTP side by side, Alarm below.
 *   focus (smaller, or zoomed): the focused pane gets the room, the others one line each.
 *   tiny  (< 60x15): one-screen summary, one line per section.
 */
import type { PaneId } from './ui-state.js';
import { PANES } from './ui-state.js';

export type LayoutMode = 'full' | 'focus' | 'tiny';

export interface Size {
  columns: number;
  rows: number;
}

export interface PaneSlot {
  pane: PaneId;
  width: number;
  height: number;
}

export type Block = { kind: 'panes'; height: number; slots: PaneSlot[] } | { kind: 'summary'; pane: PaneId };

export interface LayoutPlan {
  mode: LayoutMode;
  width: number;
  /** Lines for the frame: rows - 1. */
  frameHeight: number;
  blocks: Block[];
}

export const FULL_MIN: Size = { columns: 120, rows: 40 };
export const TINY_BELOW: Size = { columns: 60, rows: 15 };
/** Columns between side-by-side panes. */
export const PANE_GAP = 2;

export function chooseMode(size: Size, zoomed: boolean): LayoutMode {
  if (size.columns < TINY_BELOW.columns || size.rows < TINY_BELOW.rows) return 'tiny';
  if (size.columns >= FULL_MIN.columns && size.rows >= FULL_MIN.rows && !zoomed) return 'full';
  return 'focus';
}

/**
 * @param chrome lines taken by header and footer
 * @param want   lines each pane would like, its title line included
 */
export function planLayout(size: Size, focus: PaneId, zoomed: boolean, chrome: number, want: Record<PaneId, number>): LayoutPlan {
  const width = Math.max(1, size.columns);
  const frameHeight = Math.max(1, size.rows - 1);
  const avail = Math.max(0, frameHeight - chrome);
  const mode = chooseMode(size, zoomed);
  const plan = (blocks: Block[]): LayoutPlan => ({ mode, width, frameHeight, blocks });

  if (mode === 'tiny') return plan(PANES.map((pane) => ({ kind: 'summary', pane })));

  if (mode === 'focus') {
    const others = PANES.filter((p) => p !== focus);
    // The focused pane takes what it needs; the one-line summaries follow right below it.
    const height = Math.max(0, Math.min(want[focus], avail - others.length));
    return plan([
      { kind: 'panes', height, slots: [{ pane: focus, width, height }] },
      ...others.map((pane): Block => ({ kind: 'summary', pane })),
    ]);
  }

  const alarmMin = Math.min(want.alarm, 6);
  const remaining = Math.max(0, avail - alarmMin);
  const middleWant = Math.max(want.gnss, want.ptp);
  let ntp = Math.min(want.ntp, Math.max(6, Math.ceil(remaining * 0.42)));
  let middle = remaining - ntp;
  if (middle > middleWant) {
    const spare = middle - middleWant;
    middle = middleWant;
    const toNtp = Math.min(spare, want.ntp - ntp);
    ntp += toNtp;
  }
  const alarm = Math.min(want.alarm, avail - ntp - middle);
  const left = Math.floor((width - PANE_GAP) / 2);
  return plan([
    { kind: 'panes', height: ntp, slots: [{ pane: 'ntp', width, height: ntp }] },
    {
      kind: 'panes',
      height: middle,
      slots: [
        { pane: 'gnss', width: left, height: middle },
        { pane: 'ptp', width: width - PANE_GAP - left, height: middle },
      ],
    },
    { kind: 'panes', height: alarm, slots: [{ pane: 'alarm', width, height: alarm }] },
  ]);
}

/** Lines a plan uses, for tests and for the App's own assertion. */
export function planHeight(plan: LayoutPlan): number {
  return plan.blocks.reduce((sum, b) => sum + (b.kind === 'summary' ? 1 : b.height), 0);
}
