/**
 * Harness for test/e2e/line-diff.test.ts, run in tmux: the real live monitor (runLiveMonitor,
 * App, Ink, the line-diff writer) on a controller whose data changes every few milliseconds,
 * with Ink's frame cap raised so a thousand updates take seconds.
 *
 *   node --import tsx test/e2e/line-diff-harness.tsx DIR UPDATES [diff|passthrough] [BATCH]
 *
 * It applies UPDATES changes (each as soon as the previous frame is out), waits for the last
 * frame, and writes DIR/dump-1.json: Ink's intended screen (the writer's model, as plain text)
 * and the writer's figures. Each SIGUSR1 runs BATCH (200) more updates and writes the next
 * dump (after a resize, say); SIGUSR2 writes a dump at once. q quits.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MonitorState } from '../../src/monitor/state.js';
import { runLiveMonitor } from '../../src/ui/run.js';
import type { LineDiffWriter } from '../../src/ui/terminal/line-diff-writer.js';
import { fakeController, healthyState, irregularState } from '../ui/fixtures.js';

const [dir = '.', updatesArg = '1000', modeArg = 'diff'] = process.argv.slice(2);
const firstBatch = Number(updatesArg);

// A small deterministic generator: the same sequence of screens on every run.
let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const healthy = healthyState();
const irregular = irregularState();
const controller = fakeController(healthy);
let applied = 0;

function mutate(): MonitorState {
  const base = random() < 0.05 ? irregular : healthy;
  const state = controller.getState();
  const sources = (base.ntp.data?.sources ?? []).map((s) => ({
    ...s,
    offsetNs: s.offsetNs === null ? null : Math.round((random() - 0.5) * 10 ** (2 + Math.floor(random() * 7))),
    reach: random() < 0.1 ? '177' : s.reach,
  }));
  // Sometimes fewer sources: the frame changes shape, rows shift.
  const count = random() < 0.1 ? Math.max(1, sources.length - 1 - Math.floor(random() * 3)) : sources.length;
  const ntp = base.ntp.data ? { ...base.ntp, data: { ...base.ntp.data, sources: sources.slice(0, count), sourceCount: count } } : base.ntp;
  return {
    ...base,
    ntp,
    paused: random() < 0.03 ? !state.paused : state.paused,
    lastUpdateAt: (base.lastUpdateAt ?? 0) + Math.floor(random() * 100_000),
    version: state.version + 1,
  };
}

let writer: LineDiffWriter | undefined;
let dumps = 0;

function runBatch(n: number): void {
  let left = n;
  const step = () => {
    controller.setState(mutate());
    applied++;
    if (--left > 0) setTimeout(step, 1);
    // Let the throttled last frame out, then dump Ink's intended screen.
    else setTimeout(dump, 300);
  };
  step();
}

function dump(): void {
  dumps++;
  writeFileSync(join(dir, `dump-${dumps}.json`), JSON.stringify({ applied, screen: writer?.screenText() ?? '', stats: writer?.stats }));
}

writeFileSync(join(dir, 'pid'), String(process.pid));
const batch = Number(process.argv[5] ?? 200);
process.on('SIGUSR1', () => runBatch(batch));
// A fresh dump without changes (the test's retry when a second's tick came in between).
process.on('SIGUSR2', dump);

void runLiveMonitor(controller, {
  color: true,
  ascii: false,
  maxFps: 1000,
  // Every update a frame: no coalescing into the per-second render.
  coalesce: false,
  lineDiff: modeArg !== 'passthrough',
  onWriter: (w) => (writer = w),
}).then(() => process.exit(0));
runBatch(firstBatch);
