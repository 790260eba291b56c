import type { Dispatch } from 'react';
import { useCallback, useRef } from 'react';
import type { Key } from 'ink';
import { useInput } from 'ink';
import type { MonitorController } from '../../monitor/state.js';
import { commandFor, splitKeys } from '../keys.js';
import type { ListLengths, UiAction, UiState } from '../ui-state.js';
import { clampIndex } from '../ui-state.js';

/** Text a person typed, not a control character (C0, DEL, C1). */
const printable = (c: string) => {
  const code = c.codePointAt(0)!;
  return code >= 0x20 && !(code >= 0x7f && code <= 0x9f);
};

export const NO_PROFILES_HINT = 'no device profiles: see --config';
export const NO_SCREENDUMP_HINT = 'screendump is not available here';

export interface KeyboardOptions {
  controller: MonitorController;
  dispatch: Dispatch<UiAction>;
  ui: UiState;
  paused: boolean;
  lengths: ListLengths;
  onQuit: () => void;
  onScreendump?: (() => Promise<string>) | undefined;
  /** Rows PgUp/PgDn move: half the screen. */
  pageSize: number;
  /** Ctrl-L: paint the whole screen again (another program wrote over it). */
  onRedraw?: (() => void) | undefined;
  /** Opened from the fleet view: Esc or Backspace with no overlay open goes back to it. */
  onBack?: (() => void) | undefined;
}

/**
 * Keys -> commands (keys.ts) -> the UI reducer, the controller, or quit. The handler reads the
 * latest options through a ref, so it stays one stable function and Ink does not re-subscribe
 * to stdin on every render (the age tick renders once a second).
 */
export function useKeyboard(opts: KeyboardOptions): void {
  const latest = useRef(opts);
  latest.current = opts;
  const handler = useCallback((input: string, key: Key) => {
    for (const [one, k] of splitKeys(input, key)) handleKey(one, k);
  }, []);
  // One key at a time; the UI state read here is the last rendered one, and the reducer
  // applies each action to the state the previous one left.
  const editing = useRef(false);
  editing.current = opts.ui.filterEditing;
  const handleKey = (input: string, key: Key) => {
    const { controller, dispatch, ui, paused, lengths, onQuit, onScreendump, pageSize, onRedraw, onBack } = latest.current;
    if (editing.current) {
      // Typing the NTP filter: printable keys are text; Enter keeps it, Esc drops it.
      if (key.return || key.escape) {
        editing.current = false;
        dispatch({ type: 'endFilter', keep: key.return });
      } else if (key.backspace || key.delete) dispatch({ type: 'filterBackspace' });
      else if (key.ctrl && input === 'c') onQuit();
      else if (!key.ctrl && !key.meta && input.length > 0 && [...input].every(printable)) dispatch({ type: 'filterInput', text: input });
      return;
    }
    if (onBack && ui.overlay === null && (key.escape || key.backspace || key.delete)) {
      onBack();
      return;
    }
    const command = commandFor(input, key, ui.overlay);
    if (!command) return;
    switch (command.type) {
      case 'quit':
        onQuit();
        return;
      case 'pollNow':
        controller.pollNow();
        return;
      case 'togglePause':
        controller.setPaused(!paused);
        return;
      case 'step':
        // Live controllers have no step: the keys then do nothing.
        controller.step?.(command.delta);
        return;
      case 'switchItem':
        dispatch({ ...command, lengths });
        return;
      case 'moveSelection': {
        const delta = command.by === 'edge' ? command.delta * Infinity : command.by === 'page' ? command.delta * pageSize : command.delta;
        dispatch({ type: 'moveSelection', delta, lengths });
        return;
      }
      case 'redraw':
        onRedraw?.();
        return;
      case 'startFilter':
        if (ui.overlay) return;
        editing.current = true;
        dispatch({ type: 'startFilter' });
        return;
      case 'devices': {
        if (ui.overlay === 'devices') {
          dispatch({ type: 'closeOverlay' });
          return;
        }
        const devices = controller.devices?.() ?? [];
        if (devices.length === 0) dispatch({ type: 'notice', text: NO_PROFILES_HINT, token: 'muted' });
        else dispatch({ type: 'openDevices', current: Math.max(0, devices.findIndex((d) => d.current)) });
        return;
      }
      case 'chooseDevice': {
        const devices = controller.devices?.() ?? [];
        const choice = devices[clampIndex(ui.deviceRow, devices.length)];
        dispatch({ type: 'closeOverlay' });
        if (choice && !choice.current) {
          controller.switchDevice?.(choice.name);
          dispatch({ type: 'notice', text: `switched to ${choice.name} (${choice.url})`, token: 'accent' });
        }
        return;
      }
      case 'screendump':
        if (!onScreendump) {
          dispatch({ type: 'notice', text: NO_SCREENDUMP_HINT, token: 'muted' });
          return;
        }
        onScreendump().then(
          (message) => dispatch({ type: 'notice', text: message, token: 'ok' }),
          (err: unknown) => dispatch({ type: 'notice', text: `! ${err instanceof Error ? err.message : String(err)}`, token: 'bad' }),
        );
        return;
      default:
        dispatch(command);
    }
  };
  useInput(handler);
}
