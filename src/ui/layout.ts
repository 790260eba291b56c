/**
 * Which panes go where, for a terminal size. Pure. The contract every plan keeps: the frame is
 * at most rows-1 lines (at rows lines Ink clears the screen on every update: flicker, and the
 * tmux scrollback is wiped) and no slot is wider than the terminal.
 *
 *   full  (>= 120x40): NTP across the top; below it GNSS over Alarm on the left, PTP (port
 *         list and the selected port's detail, the tallest pane) over Events on the right.
 *         Events takes every line PTP leaves, down to the footer: more lines, more history.
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

/** Panes stacked top to bottom in one column of a row. */
export interface PaneColumn {
  width: number;
  slots: PaneSlot[];
}

export type Block = { kind: 'panes'; height: number; columns: PaneColumn[] } | { kind: 'summary'; pane: PaneId };

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
/** The events pane in the full layout: at least its title and this many events. */
export const MIN_EVENT_LINES = 4;
/** What the event log asks for when the full layout shares lines (it then fills what is left). */
export const EVENTS_WANT_CAP = 6;

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
    return plan([single(focus, width, height), ...others.map((pane): Block => ({ kind: 'summary', pane }))]);
  }

  // NTP first gets what it wants, but leaves the bottom row at least 60% when that row wants it.
  const events = Math.min(want.events, 1 + EVENTS_WANT_CAP);
  const bottomWant = Math.max(want.ptp + events, want.gnss + want.alarm);
  const ntp = Math.min(want.ntp, Math.max(Math.ceil(avail * 0.4), avail - bottomWant));
  const bottom = Math.max(0, avail - ntp);
  const gnss = Math.min(want.gnss, Math.max(Math.ceil(bottom / 2), bottom - want.alarm));
  const alarm = Math.min(want.alarm, bottom - gnss);
  const ptp = Math.max(0, Math.min(want.ptp, bottom - Math.min(bottom, 1 + MIN_EVENT_LINES)));
  const left = Math.floor((width - PANE_GAP) / 2);
  const right = width - PANE_GAP - left;
  return plan([
    single('ntp', width, ntp),
    {
      kind: 'panes',
      height: bottom,
      columns: [
        { width: left, slots: [{ pane: 'gnss', width: left, height: gnss }, { pane: 'alarm', width: left, height: alarm }] },
        { width: right, slots: [{ pane: 'ptp', width: right, height: ptp }, { pane: 'events', width: right, height: bottom - ptp }] },
      ],
    },
  ]);
}

function single(pane: PaneId, width: number, height: number): Block {
  return { kind: 'panes', height, columns: [{ width, slots: [{ pane, width, height }] }] };
}

/** Lines a plan uses, for tests and for the App's own assertion. */
export function planHeight(plan: LayoutPlan): number {
  return plan.blocks.reduce((sum, b) => sum + (b.kind === 'summary' ? 1 : b.height), 0);
}
