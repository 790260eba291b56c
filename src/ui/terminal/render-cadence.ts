/**
 * One render per second instead of one per answer. Each of the four operations updates the
 * store when its answer comes in, and the four loops drift apart in phase (each reschedules
 * after its own answer, with jitter), so at 1 s polling the view rendered four or five times a
 * second: ~15 ms of Ink work each, most of the monitor's CPU. The view already re-renders once
 * a second to advance ages, and every render reads the latest state; so routine data changes
 * are left to that render (at most a second late: the header shows when the data was taken),
 * and only what the technician is waiting for is rendered at once: the first data, pause and
 * resume, a device switch, a replay step, the device going away or coming back. A fallback
 * timer renders anything still unseen after `maxDelayMs`, should the per-second render stop.
 */
import type { MonitorController, MonitorState } from '../../monitor/state.js';

export interface Cadence {
  controller: MonitorController;
  dispose(): void;
}

export function coalesceRoutineUpdates(inner: MonitorController, maxDelayMs = 1100): Cadence {
  const listeners = new Set<() => void>();
  let unsubscribe: (() => void) | null = null;
  let last: MonitorState | null = null;
  let pending = false;
  let timer: NodeJS.Timeout | null = null;

  const notify = () => {
    pending = false;
    if (timer) clearTimeout(timer);
    timer = null;
    for (const l of [...listeners]) l();
  };
  const onChange = () => {
    const next = inner.getState();
    const urgent = last === null || isUrgent(last, next);
    last = next;
    if (urgent) return notify();
    pending = true;
    if (!timer) {
      timer = setTimeout(notify, maxDelayMs);
      timer.unref?.();
    }
  };

  const controller: MonitorController = {
    getState() {
      const s = inner.getState();
      // A render is reading the latest state: whatever was pending is now on its way out.
      if (pending && s === last) {
        pending = false;
        if (timer) clearTimeout(timer);
        timer = null;
      }
      return s;
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!unsubscribe) {
        last = inner.getState();
        unsubscribe = inner.subscribe(onChange);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
    pollNow: () => inner.pollNow(),
    setPaused: (paused) => inner.setPaused(paused),
    // The optional capabilities pass straight through, present exactly when the inner has them.
    ...(inner.step ? { step: (delta: 1 | -1) => inner.step!(delta) } : {}),
    ...(inner.now ? { now: () => inner.now!() } : {}),
    ...(inner.snapshot ? { snapshot: () => inner.snapshot!() } : {}),
    ...(inner.devices ? { devices: () => inner.devices!() } : {}),
    ...(inner.switchDevice ? { switchDevice: (name: string) => inner.switchDevice!(name) } : {}),
  };
  return {
    controller,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
      unsubscribe?.();
      unsubscribe = null;
      listeners.clear();
    },
  };
}

/** Changes rendered at once; everything else waits for the per-second render. */
export function isUrgent(a: MonitorState, b: MonitorState): boolean {
  if (a.paused !== b.paused || a.device !== b.device || a.intervalMs !== b.intervalMs) return true;
  if ((a.unreachable === null) !== (b.unreachable === null)) return true;
  if (a.replay !== b.replay && (a.replay?.position !== b.replay?.position || a.replay?.finished !== b.replay?.finished || a.replay?.speed !== b.replay?.speed)) return true;
  if (a.verdict.severity !== b.verdict.severity) return true;
  for (const s of ['ntp', 'gnss', 'ptp', 'alarm'] as const) {
    // First data, or a section failing / recovering.
    if ((a[s].data === null) !== (b[s].data === null)) return true;
    if ((a[s].error === null) !== (b[s].error === null)) return true;
  }
  return false;
}
