import { useCallback, useSyncExternalStore } from 'react';
import type { MonitorController, MonitorState } from '../../monitor/state.js';

/** The poller's state as a React external store. */
export function useMonitorState(controller: MonitorController): MonitorState {
  const subscribe = useCallback((listener: () => void) => controller.subscribe(listener), [controller]);
  const getState = useCallback(() => controller.getState(), [controller]);
  return useSyncExternalStore(subscribe, getState, getState);
}
