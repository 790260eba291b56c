/**
 * UI state (focus, selections, help overlay) and its reducer: pure, with typed actions, so
 * every key's effect is unit-tested without a terminal. Selections are indices, clamped with
 * the list length the action carries (the reducer does not know the data) and clamped again at
 * render time, because the device can shrink a list between two key presses.
 */
import type { SectionName } from '../model/snapshot.js';

export type PaneId = SectionName;
export const PANES: readonly PaneId[] = ['ntp', 'gnss', 'ptp', 'alarm'];
export const paneTitles: Record<PaneId, string> = { ntp: 'NTP', gnss: 'GNSS', ptp: 'PTP', alarm: 'Alarm mail' };

export interface UiState {
  focus: PaneId;
  helpOpen: boolean;
  /** Selected row of the NTP source table. */
  ntpRow: number;
  /** Selected GNSS receiver. */
  gnssReceiver: number;
  /** Selected PTP port. */
  ptpPort: number;
  /** Big terminals only: show the focused pane alone (small terminals always do). */
  zoomed: boolean;
}

export const initialUiState: UiState = { focus: 'ntp', helpOpen: false, ntpRow: 0, gnssReceiver: 0, ptpPort: 0, zoomed: false };

/** How many items each list holds now; actions carry it so the reducer stays pure. */
export interface ListLengths {
  ntpRows: number;
  gnssReceivers: number;
  ptpPorts: number;
}

export type UiAction =
  | { type: 'focus'; pane: PaneId }
  | { type: 'cycleFocus'; delta: 1 | -1 }
  | { type: 'switchItem'; delta: 1 | -1; lengths: ListLengths }
  | { type: 'moveSelection'; delta: 1 | -1; lengths: ListLengths }
  | { type: 'toggleZoom' }
  | { type: 'toggleHelp' }
  | { type: 'closeHelp' };

export function clampIndex(index: number, length: number): number {
  return length <= 0 ? 0 : Math.max(0, Math.min(index, length - 1));
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'focus':
      return state.focus === action.pane ? state : { ...state, focus: action.pane };
    case 'cycleFocus': {
      const i = PANES.indexOf(state.focus);
      const next = PANES[(i + action.delta + PANES.length) % PANES.length] ?? 'ntp';
      return { ...state, focus: next };
    }
    case 'switchItem':
      // ←/→ change the receiver in GNSS and the port in PTP; elsewhere nothing to switch.
      if (state.focus === 'gnss') return move(state, 'gnssReceiver', action.delta, action.lengths.gnssReceivers);
      if (state.focus === 'ptp') return move(state, 'ptpPort', action.delta, action.lengths.ptpPorts);
      return state;
    case 'moveSelection':
      // ↑/↓ move in lists: NTP sources and PTP ports.
      if (state.focus === 'ntp') return move(state, 'ntpRow', action.delta, action.lengths.ntpRows);
      if (state.focus === 'ptp') return move(state, 'ptpPort', action.delta, action.lengths.ptpPorts);
      return state;
    case 'toggleZoom':
      return { ...state, zoomed: !state.zoomed };
    case 'toggleHelp':
      return { ...state, helpOpen: !state.helpOpen };
    case 'closeHelp':
      return state.helpOpen ? { ...state, helpOpen: false } : state;
  }
}

function move(state: UiState, field: 'ntpRow' | 'gnssReceiver' | 'ptpPort', delta: number, length: number): UiState {
  const next = clampIndex(clampIndex(state[field], length) + delta, length);
  return next === state[field] ? state : { ...state, [field]: next };
}
