/**
 * UI state (focus, selections, overlays, the footer notice) and its reducer: pure, with typed
 * actions, so every key's effect is unit-tested without a terminal. Selections are indices,
 * clamped with the list length the action carries (the reducer does not know the data) and
 * clamped again at render time, because the device can shrink a list between two key presses.
 */
import type { SectionName } from '../model/snapshot.js';
import type { Token } from '../view/theme.js';

export type PaneId = SectionName | 'events';
export const PANES: readonly PaneId[] = ['ntp', 'gnss', 'ptp', 'alarm', 'events'];
export const paneTitles: Record<PaneId, string> = { ntp: 'NTP', gnss: 'GNSS', ptp: 'PTP', alarm: 'Alarm mail', events: 'Events' };

/**
 * What covers the panes: nothing, the help, the device list (`d`), or the findings list (`f`).
 * Help and the device list are modal; under the findings list the keys keep working.
 */
export type Overlay = 'help' | 'devices' | 'findings' | null;

export interface Notice {
  text: string;
  token: Token;
  /** Tells a late "clear" from the notice that replaced it. */
  id: number;
}

export interface UiState {
  focus: PaneId;
  overlay: Overlay;
  /** Selected row of the NTP source table. */
  ntpRow: number;
  /** Selected GNSS receiver. */
  gnssReceiver: number;
  /** Selected PTP port. */
  ptpPort: number;
  /** First event shown (0 = the newest), moved by ↑/↓ in the events pane. */
  eventsTop: number;
  /** Epoch ms of the newest event seen in the focused events pane: later ones are "new". */
  eventsSeenAt: number;
  /** Selected row of the device list. */
  deviceRow: number;
  /** First finding shown in the findings list (0 = the worst). */
  findingsTop: number;
  /** Big terminals only: show the focused pane alone (small terminals always do). */
  zoomed: boolean;
  /** A short message in the footer (screendump saved, no device profiles), cleared after a while. */
  notice: Notice | null;
  /** First line of the help shown (the help scrolls in small terminals). */
  helpTop: number;
  /** `/`: the NTP sources whose name contains this text (any case); '' shows all. */
  ntpFilter: string;
  /** The filter is being typed: printable keys go into it until Enter or Esc. */
  filterEditing: boolean;
}

export const initialUiState: UiState = {
  focus: 'ntp',
  overlay: null,
  ntpRow: 0,
  gnssReceiver: 0,
  ptpPort: 0,
  eventsTop: 0,
  eventsSeenAt: 0,
  deviceRow: 0,
  findingsTop: 0,
  zoomed: false,
  notice: null,
  helpTop: 0,
  ntpFilter: '',
  filterEditing: false,
};

/** Longest NTP filter kept (a name is at most an IPv6 literal in brackets). */
export const FILTER_MAX = 64;

/** The NTP sources the filter lets through, in device order. */
export function filterSources<T extends { name: string }>(sources: readonly T[], filter: string): readonly T[] {
  if (filter === '') return sources;
  const needle = filter.toLowerCase();
  return sources.filter((s) => s.name.toLowerCase().includes(needle));
}

/** How many items each list holds now; actions carry it so the reducer stays pure. */
export interface ListLengths {
  ntpRows: number;
  gnssReceivers: number;
  ptpPorts: number;
  events: number;
  devices: number;
  /** Findings of the verdict (the findings list); absent counts as none. */
  findings?: number;
  /** Lines of the help text. */
  help: number;
}

export type UiAction =
  | { type: 'focus'; pane: PaneId }
  | { type: 'cycleFocus'; delta: 1 | -1 }
  | { type: 'switchItem'; delta: 1 | -1; lengths: ListLengths }
  /** ±1 a row, ±n a page, ±Infinity to the first / last. */
  | { type: 'moveSelection'; delta: number; lengths: ListLengths }
  | { type: 'startFilter' }
  | { type: 'filterInput'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'endFilter'; keep: boolean }
  | { type: 'toggleZoom' }
  | { type: 'toggleHelp' }
  | { type: 'toggleFindings' }
  | { type: 'closeOverlay' }
  | { type: 'openDevices'; current: number }
  | { type: 'eventsSeen'; at: number }
  | { type: 'notice'; text: string; token: Token }
  | { type: 'clearNotice'; id: number };

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
      if (state.overlay) return state;
      if (state.focus === 'gnss') return move(state, 'gnssReceiver', action.delta, action.lengths.gnssReceivers);
      if (state.focus === 'ptp') return move(state, 'ptpPort', action.delta, action.lengths.ptpPorts);
      return state;
    case 'moveSelection':
      // ↑/↓ move in lists: the device list when open, NTP sources, PTP ports, the event log.
      if (state.overlay === 'devices') return move(state, 'deviceRow', action.delta, action.lengths.devices);
      if (state.overlay === 'findings') return move(state, 'findingsTop', action.delta, action.lengths.findings ?? 0);
      if (state.overlay === 'help') return move(state, 'helpTop', action.delta, action.lengths.help);
      if (state.overlay) return state;
      if (state.focus === 'ntp') return move(state, 'ntpRow', action.delta, action.lengths.ntpRows);
      if (state.focus === 'ptp') return move(state, 'ptpPort', action.delta, action.lengths.ptpPorts);
      if (state.focus === 'events') return move(state, 'eventsTop', action.delta, action.lengths.events);
      return state;
    case 'toggleZoom':
      return { ...state, zoomed: !state.zoomed };
    case 'toggleHelp':
      return { ...state, overlay: state.overlay === 'help' ? null : 'help', helpTop: 0 };
    case 'startFilter':
      return state.overlay ? state : { ...state, focus: 'ntp', filterEditing: true };
    case 'filterInput': {
      const ntpFilter = (state.ntpFilter + action.text).slice(0, FILTER_MAX);
      return { ...state, ntpFilter, ntpRow: 0 };
    }
    case 'filterBackspace':
      return { ...state, ntpFilter: [...state.ntpFilter].slice(0, -1).join(''), ntpRow: 0 };
    case 'endFilter':
      // Enter keeps the filter; Esc drops it.
      return { ...state, filterEditing: false, ...(action.keep ? {} : { ntpFilter: '', ntpRow: 0 }) };
    case 'toggleFindings':
      return state.overlay === 'findings' ? { ...state, overlay: null } : { ...state, overlay: 'findings', findingsTop: 0 };
    case 'closeOverlay':
      return state.overlay ? { ...state, overlay: null } : state;
    case 'openDevices':
      return { ...state, overlay: 'devices', deviceRow: Math.max(0, action.current) };
    case 'eventsSeen':
      return action.at > state.eventsSeenAt ? { ...state, eventsSeenAt: action.at } : state;
    case 'notice':
      return { ...state, notice: { text: action.text, token: action.token, id: (state.notice?.id ?? 0) + 1 } };
    case 'clearNotice':
      return state.notice?.id === action.id ? { ...state, notice: null } : state;
  }
}

function move(state: UiState, field: 'ntpRow' | 'gnssReceiver' | 'ptpPort' | 'eventsTop' | 'deviceRow' | 'findingsTop' | 'helpTop', delta: number, length: number): UiState {
  const from = clampIndex(state[field], length);
  const next = delta === Infinity ? Math.max(0, length - 1) : delta === -Infinity ? 0 : clampIndex(from + delta, length);
  return next === state[field] ? state : { ...state, [field]: next };
}
