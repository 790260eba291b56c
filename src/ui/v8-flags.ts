/**
 * V8 settings for the live view, a process left open for hours that does a little every second.
 *
 * Heap: by default V8 doubles the young generation whenever a scavenge finds it busy, up to
 * 2 x 16 MB, and the idle monitor never needs that: growth factor 1 keeps the young generation
 * at its start size, which is most of the gap to a bare Ink app's resident memory at one minute.
 * Over minutes the old generation then grows in V8's default steps to ~40 MB more before a full
 * collection; growing it by 20 % at a time instead keeps it near what is live. Both cost some
 * CPU (more frequent, smaller collections): the README's performance section has the figures.
 *
 * Optimizing compiler: V8 optimizes a small function (bytecode up to 81 bytes) on the first
 * profiler tick that finds it, however rarely it runs. A monitor runs hundreds of small
 * functions a few times a second (the view's callbacks, zod's checks, the store's rules), and
 * their optimized code is made, dropped and made again for minutes on V8's helper threads.
 * Without the early path a small function is optimized when it is hot, like any other: about
 * 8-10 % less CPU in side-by-side runs, the main thread no slower (README, idle section).
 *
 * Set from inside the process, at run time, so it holds however the bin is started (`npm
 * start`, `npx synctop`, a global install, `node dist/synctop.js`): a shebang cannot carry node
 * flags portably, NODE_OPTIONS is the user's, and re-executing itself with flags would keep a
 * second node process waiting. (The semi-space maximum is read only at start-up, so it cannot
 * be set this way; the growth factor can.) Only the live views (monitor, replay) ask for this:
 * the exporter and the one-shot modes keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

export const LIVE_VIEW_V8_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20', '--max-bytecode-size-for-early-opt=0'] as const;

export function tuneV8ForLiveView(): void {
  for (const flag of LIVE_VIEW_V8_FLAGS) setFlagsFromString(flag);
}
