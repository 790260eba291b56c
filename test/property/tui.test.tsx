/**
 * The live view on hostile data: the snapshot of mutated fixtures goes into a MonitorStore the
 * way replay feeds it (applySnapshot), and the real App renders it (ink-testing-library, no
 * color, Unicode and ASCII). The frame never carries a raw control character, ESC, C1 control or
 * bidi override, and rendering never throws.
 *
 * One App per glyph set stays mounted for the whole property and gets a fresh store per run:
 * mounting Ink a thousand times would cost more than the property itself.
 */
import fc from 'fast-check';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { MonitorStore } from '../../src/monitor/store.js';
import type { MonitorController, MonitorState } from '../../src/monitor/state.js';
import { App } from '../../src/ui/App.js';
import { firstUnsafe, numRuns } from './arbitraries.js';

/**
 * A frame is a whole Ink render (~30 ms here): `npm test` draws 300 of them, `npm run fuzz` as
 * many as FUZZ_RUNS asks for.
 */
const frameRuns = process.env.FUZZ_RUNS ? numRuns : Math.min(numRuns, 300);
import { pollBodies, snapshotOf, TAKEN_AT } from './pipeline.js';

const NOW = TAKEN_AT.getTime();
/** Small on purpose: every pane still shows, and each of the thousand frames renders fast. */
const SIZE = { columns: 80, rows: 24 };

/** A controller whose store is replaced per run; views subscribe once. */
class SwappableController implements MonitorController {
  private store = new MonitorStore('https://10.20.0.5', 2000);
  private readonly listeners = new Set<() => void>();
  getState = (): MonitorState => this.store.getState();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  pollNow(): void {}
  setPaused(): void {}
  now = () => NOW;
  show(store: MonitorStore): void {
    this.store = store;
    for (const l of this.listeners) l();
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

const views = [false, true].map((ascii) => {
  const controller = new SwappableController();
  return { ascii, controller, app: null as ReturnType<typeof render> | null };
});

beforeAll(async () => {
  for (const v of views) {
    v.app = render(<App controller={v.controller} color={false} ascii={v.ascii} size={SIZE} now={() => NOW} onQuit={() => undefined} />);
  }
  await tick();
});
afterAll(() => {
  for (const v of views) v.app?.unmount();
});

describe('TUI frame on hostile data', () => {
  it('never throws and never leaks a control character (Unicode and ASCII alternately, no color)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(pollBodies, async (bodies) => {
        // Runs alternate between the two glyph sets: both are covered, each frame costs one render.
        const v = views[run++ % views.length]!;
        const snap = snapshotOf(bodies);
        const store = new MonitorStore(snap.device, 2000);
        store.applySnapshot(snap, NOW);
        v.controller.show(store);
        await tick();
        // React's development build records a performance measure per component render: drop
        // them, or a thousand frames hold hundreds of megabytes (see DESIGN.md).
        performance.clearMeasures();
        performance.clearMarks();
        const frame = v.app!.lastFrame() ?? '';
        // Ink draws a component's crash as a frame: the header must be there, not an ERROR box.
        if (!frame.includes('10.20.0.5')) throw new Error(`no header in the frame (ascii=${v.ascii}):\n${frame}`);
        if (frame.includes('\x1b')) throw new Error(`escape sequence in a frame without color (ascii=${v.ascii})`);
        const bad = firstUnsafe(frame);
        if (bad) throw new Error(`frame (ascii=${v.ascii}): unsafe ${bad}`);
      }),
      { numRuns: frameRuns },
    );
  }, Math.max(60_000, frameRuns * 100));
});
