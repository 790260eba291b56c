/**
 * Which panes go where, and with how many lines, for a terminal size. Pure. The contract every
 * plan keeps: the frame is at most rows-1 lines (at rows lines Ink clears the screen on every
 * update: flicker, and the tmux scrollback is wiped), no slot is wider than the terminal, and
 * every line is handed out: at most one body line stays empty while some pane has more to show.
 *
 *   full  (>= 120x40): NTP across the top; below it GNSS over Alarm on the left, PTP (port
 *         list and the selected port's detail) over Events on the right. Lines a column does
 *         not need go back to NTP.
 *   focus (smaller): the focused pane first, at its natural height; then the others, in a fixed
 *         priority (NTP, PTP, GNSS, Events, Alarm), each as large as the lines left allow (a
 *         compact form: the PTP port list without the detail, the newest events) and its
 *         one-line summary only when nothing more fits. In a very small terminal every pane,
 *         the focused one too, is a summary line.
 *   zoom  (`z`, any size): the focused pane gets every line but one summary line per other pane.
 */
import type { PaneId } from './ui-state.js';
import { PANES } from './ui-state.js';

export type LayoutMode = 'full' | 'focus' | 'zoom';

export interface Size {
  columns: number;
  rows: number;
}

/**
 * What a pane has to show at its width. `full`: lines for all of it, its title included (1 when
 * its summary line already says everything). `fit(n)`: the most lines, at most n, that it
 * shows well: 0 when n lines are too few to be worth more than the summary line.
 */
export interface PaneNeed {
  full: number;
  fit: (lines: number) => number;
  /**
   * What it asks for when the full layout shares lines out (its long sentences cut instead of
   * wrapped); it still gets up to `full` when the lines are there. Default: `full`.
   */
  ask?: number;
}

/**
 * A pane that shows its long lines whole (wrapped) given `extra` lines more than `need`: it takes
 * them only all at once, and where the full layout shares lines out it asks for the form without.
 */
export function withWrapLines(need: PaneNeed, extra: number): PaneNeed {
  if (extra <= 0) return need;
  const full = need.full + extra;
  return { full, fit: (lines) => (lines >= full ? full : need.fit(lines)), ask: need.ask ?? need.full };
}

/** A pane that shows well at any height from `min` up to `full` lines. */
export function elastic(full: number, min: number): PaneNeed {
  return { full, fit: (lines) => (lines >= min ? Math.min(lines, full) : 0) };
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

/** A pane's one-line summary (`lines` 2 when a spare line lets a cut summary wrap whole). */
export type Block = { kind: 'panes'; height: number; columns: PaneColumn[] } | { kind: 'summary'; pane: PaneId; lines?: number };

export interface LayoutPlan {
  mode: LayoutMode;
  width: number;
  /** Lines for the frame: rows - 1. */
  frameHeight: number;
  /** Lines for the panes: the frame without header and footer. */
  bodyHeight: number;
  blocks: Block[];
}

export const FULL_MIN: Size = { columns: 120, rows: 40 };
/** Columns between side-by-side panes. */
export const PANE_GAP = 2;
/** The events pane in the full layout: at least its title and this many events. */
export const MIN_EVENT_LINES = 4;
/** What the event log asks for when the full layout shares lines (it then fills what is left). */
export const EVENTS_WANT_CAP = 6;
/** Who gets the lines the focused pane leaves, first to last. */
export const PRIORITY: readonly PaneId[] = ['ntp', 'ptp', 'gnss', 'events', 'alarm'];

export function chooseMode(size: Size, zoomed: boolean): LayoutMode {
  if (zoomed) return 'zoom';
  return size.columns >= FULL_MIN.columns && size.rows >= FULL_MIN.rows ? 'full' : 'focus';
}

/** The width each pane gets in a mode (GNSS, PTP, Alarm and Events share a row in the full layout). */
export function paneWidth(pane: PaneId, size: Size, mode: LayoutMode): number {
  const width = Math.max(1, size.columns);
  if (mode !== 'full' || pane === 'ntp') return width;
  const left = Math.floor((width - PANE_GAP) / 2);
  return pane === 'gnss' || pane === 'alarm' ? left : width - PANE_GAP - left;
}

/**
 * @param chrome lines taken by header and footer
 * @param needs  what each pane has to show at the width it gets (see paneWidth)
 */
export function planLayout(size: Size, focus: PaneId, zoomed: boolean, chrome: number, needs: Record<PaneId, PaneNeed>): LayoutPlan {
  const width = Math.max(1, size.columns);
  const frameHeight = Math.max(1, size.rows - 1);
  const avail = Math.max(0, frameHeight - chrome);
  const mode = chooseMode(size, zoomed);
  const plan = (blocks: Block[]): LayoutPlan => ({ mode, width, frameHeight, bodyHeight: avail, blocks });
  if (mode === 'full') return plan(fullBlocks(size, avail, needs, focus));
  return plan(stackedBlocks(width, avail, focus, mode === 'zoom', needs));
}

/** The focus and zoom layouts: one pane per block, top to bottom, the focused pane first. */
function stackedBlocks(width: number, avail: number, focus: PaneId, zoomed: boolean, needs: Record<PaneId, PaneNeed>): Block[] {
  const others = PANES.filter((p) => p !== focus);
  const heights = new Map<PaneId, number>();
  // Every pane keeps at least its summary line; the focused one takes what it needs first.
  const focused = zoomed ? Math.max(0, avail - others.length) : needs[focus].fit(avail - others.length);
  let left = avail - others.length - Math.max(1, focused);
  if (focused > 1) heights.set(focus, focused);
  const grow = (pane: PaneId) => {
    const had = heights.get(pane) ?? 1;
    const h = needs[pane].fit(had + left);
    if (h > had && h > 1) {
      heights.set(pane, h);
      left -= h - had;
    }
  };
  if (!zoomed) {
    for (const pane of PRIORITY) if (pane !== focus) grow(pane);
    // A pane that fits only at certain heights may have left lines another pane can use.
    if (left > 1) for (const pane of [focus, ...PRIORITY]) grow(pane);
  }
  const blocks = [focus, ...others].map((pane): Block => {
    const h = heights.get(pane);
    return h ? single(pane, width, h) : { kind: 'summary', pane };
  });
  // Fewer lines than panes: the summaries that do not fit are left out, the focused one last.
  return blocks.slice(0, Math.max(1, avail));
}

/** >= 120x40: NTP on top; GNSS over Alarm beside PTP over Events. */
function fullBlocks(size: Size, avail: number, needs: Record<PaneId, PaneNeed>, focus: PaneId): Block[] {
  const w = (pane: PaneId) => paneWidth(pane, size, 'full');
  const events = Math.min(needs.events.full, 1 + EVENTS_WANT_CAP);
  const asks = (pane: PaneId) => needs[pane].ask ?? needs[pane].full;
  const bottomWant = Math.max(asks('ptp') + events, asks('gnss') + asks('alarm'));
  // NTP first gets what it wants, but leaves the bottom row at least 60% when that row wants it;
  // when a pane of the bottom row is focused, NTP yields down to its smallest useful height so the
  // focused pane shows whole.
  const ntpFloor = focus === 'ntp' ? Math.ceil(avail * 0.4) : Math.min(Math.ceil(avail * 0.4), smallestFit(needs.ntp));
  // NTP's height is one it fills (its legend blocks are whole or absent): what it would leave
  // empty goes to the row below.
  const ntpFit = (lines: number) => needs.ntp.fit(lines) || lines;
  let ntp = ntpFit(Math.min(needs.ntp.full, Math.max(ntpFloor, avail - bottomWant)));
  let bottom = Math.max(0, avail - ntp);
  const split = (bottomRoom: number) => {
    let gnss = Math.min(needs.gnss.full, Math.max(Math.ceil(bottomRoom / 2), bottomRoom - needs.alarm.full));
    const alarm = Math.min(needs.alarm.full, bottomRoom - gnss);
    gnss = Math.min(needs.gnss.full, bottomRoom - alarm);
    // Events keeps its title and a few lines, then fills what PTP leaves; PTP takes back the rest.
    let ptp = Math.max(0, Math.min(needs.ptp.full, bottomRoom - Math.min(bottomRoom, needs.events.full, 1 + MIN_EVENT_LINES)));
    const eventLines = Math.min(needs.events.full, bottomRoom - ptp);
    ptp = Math.min(needs.ptp.full, bottomRoom - eventLines);
    return { gnss, alarm, ptp, eventLines };
  };
  let h = split(bottom);
  // Lines neither column needs go back to NTP, when it has more to show.
  const used = Math.max(h.gnss + h.alarm, h.ptp + h.eventLines);
  if (used < bottom && ntp < needs.ntp.full) {
    ntp = ntpFit(Math.min(needs.ntp.full, ntp + bottom - used));
    bottom = avail - ntp;
    h = split(bottom);
  }
  const slot = (pane: PaneId, height: number): PaneSlot => ({ pane, width: w(pane), height });
  return [
    single('ntp', w('ntp'), ntp),
    {
      kind: 'panes',
      height: bottom,
      columns: [
        // Each column's last pane takes the lines the one above leaves: its long lines wrap there.
        { width: w('gnss'), slots: [slot('gnss', h.gnss), slot('alarm', Math.max(h.alarm, bottom - h.gnss))] },
        { width: w('ptp'), slots: [slot('ptp', h.ptp), slot('events', Math.max(h.eventLines, bottom - h.ptp))] },
      ],
    },
  ];
}

/** The fewest lines at which a pane shows anything (its full height when it has no smaller form). */
function smallestFit(need: PaneNeed): number {
  for (let lines = 1; lines < need.full; lines++) if (need.fit(lines) > 0) return lines;
  return need.full;
}

function single(pane: PaneId, width: number, height: number): Block {
  return { kind: 'panes', height, columns: [{ width, slots: [{ pane, width, height }] }] };
}

/** Lines a plan uses, for tests and for the App's own assertion. */
export function planHeight(plan: LayoutPlan): number {
  return plan.blocks.reduce((sum, b) => sum + (b.kind === 'summary' ? (b.lines ?? 1) : b.height), 0);
}

/** Lines each pane shows: its slot, or 1 for a summary line. */
export function paneHeights(plan: LayoutPlan): Record<PaneId, number> {
  const out = { ntp: 0, gnss: 0, ptp: 0, alarm: 0, events: 0 } as Record<PaneId, number>;
  for (const b of plan.blocks) {
    if (b.kind === 'summary') out[b.pane] = b.lines ?? 1;
    else for (const c of b.columns) for (const s of c.slots) out[s.pane] = s.height;
  }
  return out;
}

/** Body lines with nothing on them: below the stack, or below both columns of the full layout. */
export function emptyBodyLines(plan: LayoutPlan): number {
  let used = 0;
  for (const b of plan.blocks) {
    if (b.kind === 'summary') used += b.lines ?? 1;
    else used += Math.max(...b.columns.map((c) => c.slots.reduce((s, slot) => s + slot.height, 0)));
  }
  return plan.bodyHeight - used;
}
