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
}
