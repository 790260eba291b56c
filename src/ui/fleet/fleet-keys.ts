/**
 * The fleet view's keys and its UI state: one table read by the input hook to act and by the
 * footer to explain, and a pure reducer. The device list is selected by name, so a re-sort
 * (a device turning critical) never moves the selection to another device.
 */
import type { Key } from 'ink';
import type { FleetSort } from '../../view/fleet-rows.js';
import { fleetSorts } from '../../view/fleet-rows.js';
import type { KeySpec } from '../keys.js';
import { matchesKey } from '../keys.js';

export type FleetPane = 'rows' | 'events';

export interface FleetUiState {
  /** The selected device's name (null: the first row). */
  selected: string | null;
  sort: FleetSort;
  pane: FleetPane;
  /** First event shown in the timeline (0 = the newest). */
  eventsTop: number;
  /** The device whose full monitor is open, or null for the fleet view. */
  open: string | null;
}

export const initialFleetUi: FleetUiState = { selected: null, sort: 'severity', pane: 'rows', eventsTop: 0, open: null };

export type FleetCommand =
  | { type: 'move'; delta: number }
  | { type: 'open' }
  | { type: 'toggleSort' }
  | { type: 'pane'; pane: FleetPane }
  | { type: 'back' }
  | { type: 'quit' };

export interface FleetBinding {
  keys: readonly KeySpec[];
  command: FleetCommand;
  /** Footer text; none: not shown in the footer. */
  footer?: string;
}

/** Page keys move by this many rows (a screen is rarely taller). */
const PAGE = 10;

export const fleetBindings: readonly FleetBinding[] = [
  { keys: [{ name: 'up' }, { char: 'k' }], command: { type: 'move', delta: -1 }, footer: 'select' },
  { keys: [{ name: 'down' }, { char: 'j' }], command: { type: 'move', delta: 1 } },
  { keys: [{ char: 'g' }], command: { type: 'move', delta: -Infinity } },
  { keys: [{ char: 'G' }], command: { type: 'move', delta: Infinity } },
  { keys: [{ name: 'return' }], command: { type: 'open' }, footer: 'open' },
  { keys: [{ char: 'o' }], command: { type: 'toggleSort' }, footer: 'sort' },
  { keys: [{ char: '1' }], command: { type: 'pane', pane: 'rows' }, footer: 'devices' },
  { keys: [{ char: '5' }], command: { type: 'pane', pane: 'events' }, footer: 'events' },
  { keys: [{ name: 'escape' }], command: { type: 'back' } },
  { keys: [{ char: 'q' }, { ctrl: 'c' }], command: { type: 'quit' }, footer: 'quit' },
];

export function fleetCommandFor(input: string, key: Key): FleetCommand | null {
  // PgUp/PgDn are not in the shared KeySpec; they move a page.
  if (key.pageUp) return { type: 'move', delta: -PAGE };
  if (key.pageDown) return { type: 'move', delta: PAGE };
  for (const b of fleetBindings) if (b.keys.some((spec) => matchesKey(spec, input, key))) return b.command;
  return null;
}

export type FleetAction = FleetCommand | { type: 'close' };

/** `order`: the device names as the rows show them now (sorted). */
export function fleetUiReducer(state: FleetUiState, action: FleetAction, order: readonly string[], events: number): FleetUiState {
  switch (action.type) {
    case 'move': {
      if (state.pane === 'events') {
        const top = clamp(state.eventsTop + action.delta, Math.max(0, events - 1));
        return top === state.eventsTop ? state : { ...state, eventsTop: top };
      }
      if (order.length === 0) return state;
      const at = Math.max(0, state.selected === null ? 0 : order.indexOf(state.selected));
      const next = order[clamp(at + action.delta, order.length - 1)]!;
      return next === state.selected ? state : { ...state, selected: next };
    }
    case 'open': {
      if (state.pane !== 'rows') return state;
      const name = state.selected !== null && order.includes(state.selected) ? state.selected : order[0];
      return name === undefined ? state : { ...state, selected: name, open: name };
    }
    case 'toggleSort':
      return { ...state, sort: fleetSorts[(fleetSorts.indexOf(state.sort) + 1) % fleetSorts.length]! };
    case 'pane':
      return state.pane === action.pane ? state : { ...state, pane: action.pane, eventsTop: 0 };
    case 'back':
      return state.pane === 'events' ? { ...state, pane: 'rows' } : state;
    case 'close':
      return state.open === null ? state : { ...state, open: null };
    case 'quit':
      return state;
  }
}

function clamp(n: number, max: number): number {
  return Math.max(0, Math.min(Number.isFinite(n) ? n : n > 0 ? max : 0, max));
}
