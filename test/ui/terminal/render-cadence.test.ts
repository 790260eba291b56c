import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MonitorState } from '../../../src/monitor/state.js';
import { coalesceRoutineUpdates } from '../../../src/ui/terminal/render-cadence.js';
import { fakeController, healthyState } from '../fixtures.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const inner = fakeController(healthyState());
  inner.now = () => 42;
  const { controller, dispose } = coalesceRoutineUpdates(inner, 1100);
  const seen: number[] = [];
  controller.subscribe(() => seen.push(controller.getState().version));
  const change = (f: (s: MonitorState) => MonitorState) => inner.setState(f({ ...inner.getState(), version: inner.getState().version + 1 }));
  return { inner, controller, dispose, seen, change };
}

describe('coalesceRoutineUpdates', () => {
  it('leaves a routine data change to the next render, and forgets it once a render read it', () => {
    const { controller, seen, change } = setup();
    change((s) => ({ ...s, lastUpdateAt: 1 }));
    expect(seen).toEqual([]);
    controller.getState(); // the per-second render
    vi.advanceTimersByTime(2000);
    expect(seen).toEqual([]);
  });

  it('renders a routine change after maxDelay when no render came', () => {
    const { seen, change } = setup();
    change((s) => ({ ...s, lastUpdateAt: 1 }));
    change((s) => ({ ...s, lastUpdateAt: 2 }));
    vi.advanceTimersByTime(1099);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toHaveLength(1);
  });

  it('renders at once what the technician waits for: pause, first data, an error, the verdict', () => {
    const { seen, change, controller } = setup();
    controller.setPaused(true);
    expect(seen).toHaveLength(1);
    change((s) => ({ ...s, ptp: { ...s.ptp, data: null } }));
    change((s) => ({ ...s, ptp: { ...s.ptp, data: healthyState().ptp.data } }));
    expect(seen).toHaveLength(3);
    change((s) => ({ ...s, gnss: { ...s.gnss, error: { kind: 'network', message: 'down' } } }));
    expect(seen).toHaveLength(4);
    change((s) => ({ ...s, verdict: { severity: 'critical', findings: [] } }));
    expect(seen).toHaveLength(5);
  });

  it('passes commands and the optional methods through', () => {
    const { inner, controller } = setup();
    controller.pollNow();
    expect(inner.pollCount).toBe(1);
    expect(controller.now?.()).toBe(42);
    expect(controller.step).toBeUndefined();
  });

  it('stops listening when disposed', () => {
    const { seen, change, dispose } = setup();
    dispose();
    change((s) => ({ ...s, paused: true }));
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual([]);
  });
});
