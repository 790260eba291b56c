import type { Dispatch } from 'react';
import { useCallback, useRef } from 'react';
import type { Key } from 'ink';
import { useInput } from 'ink';
import type { MonitorController } from '../../monitor/state.js';
import { commandFor } from '../keys.js';
import type { ListLengths, UiAction, UiState } from '../ui-state.js';
import { clampIndex } from '../ui-state.js';

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
    const { controller, dispatch, ui, paused, lengths, onQuit, onScreendump, onBack } = latest.current;
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
      case 'moveSelection':
        dispatch({ ...command, lengths });
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
  }, []);
  useInput(handler);
}
