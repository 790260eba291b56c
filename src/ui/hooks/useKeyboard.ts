import type { Dispatch } from 'react';
import { useCallback, useRef } from 'react';
import type { Key } from 'ink';
import { useInput } from 'ink';
import type { MonitorController } from '../../monitor/state.js';
import { commandFor } from '../keys.js';
import type { ListLengths, UiAction } from '../ui-state.js';

export interface KeyboardOptions {
  controller: MonitorController;
  dispatch: Dispatch<UiAction>;
  helpOpen: boolean;
  paused: boolean;
  lengths: ListLengths;
  onQuit: () => void;
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
    const { controller, dispatch, helpOpen, paused, lengths, onQuit } = latest.current;
    const command = commandFor(input, key, helpOpen);
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
      case 'switchItem':
      case 'moveSelection':
        dispatch({ ...command, lengths });
        return;
      default:
        dispatch(command);
    }
  }, []);
  useInput(handler);
}
