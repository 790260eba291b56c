import type { ComponentType } from 'react';
import { memo } from 'react';
import type { MonitorState } from '../../monitor/state.js';
import type { UiState } from '../ui-state.js';

/** What every pane receives: the whole state (read-only), the UI state, the clock, its slot. */
export interface PaneProps {
  state: MonitorState;
  ui: UiState;
  now: number;
  width: number;
  /** Lines for the whole pane, title rule included. */
  height: number;
  focused: boolean;
  /**
   * The event log's version when the frame was rendered. The log is mutated in place, so only
   * a number read at render time tells memo it changed.
   */
  eventsVersion: number;
}

/**
 * A pane that renders again only when what it shows changed: its slot, the displayed second
 * (ages), and the values `watch` picks (its section's state object, which the store replaces
 * on every result, and the UI fields it reads). `state.version` changes on every update of any
 * section, so comparing the whole state would re-render every pane every time.
 */
export type PaneWatch = (p: PaneProps) => readonly unknown[];

export function memoPane(component: ComponentType<PaneProps>, watch: PaneWatch, opts: { showsAges?: boolean } = {}): ComponentType<PaneProps> {
  return memo(component, samePaneProps(watch, opts));
}

/** memo's "props are equal": true when the pane would render the same frame. */
export function samePaneProps(watch: PaneWatch, opts: { showsAges?: boolean } = {}): (a: PaneProps, b: PaneProps) => boolean {
  const showsAges = opts.showsAges ?? true;
  return (a, b) => {
    if (a.width !== b.width || a.height !== b.height || a.focused !== b.focused) return false;
    if (showsAges && Math.floor(a.now / 1000) !== Math.floor(b.now / 1000)) return false;
    if (a.state.intervalMs !== b.state.intervalMs || a.state.unreachable !== b.state.unreachable) return false;
    const wa = watch(a);
    const wb = watch(b);
    return wa.length === wb.length && wa.every((v, i) => Object.is(v, wb[i]));
  };
}
