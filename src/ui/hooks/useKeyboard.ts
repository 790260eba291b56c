import type { Dispatch } from 'react';
import { useInput } from 'ink';
import type { MonitorController } from '../../monitor/state.js';
import { commandFor } from '../keys.js';
import type { ListLengths, UiAction } from '../ui-state.js';

/** Keys -> commands (keys.ts) -> the UI reducer, the controller, or quit. */
export function useKeyboard(opts: {
  controller: MonitorController;
  dispatch: Dispatch<UiAction>;
  helpOpen: boolean;
  paused: boolean;
  lengths: ListLengths;
  onQuit: () => void;
}): void {
  const { controller, dispatch, helpOpen, paused, lengths, onQuit } = opts;
  useInput((input, key) => {
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
  });
}
