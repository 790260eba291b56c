/** Rendering helpers for the view tests. */
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import type { MonitorState } from '../../src/monitor/state.js';
import { App } from '../../src/ui/App.js';
import type { FakeController } from './fixtures.js';
import { NOW, fakeController } from './fixtures.js';

export const ESC = '\x1b';
export const keys = {
  tab: '\t',
  shiftTab: '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  escape: '\x1b',
  ctrlC: '\x03',
};

export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets a key press travel: Ink parses stdin on one macrotask, and a reducer update is then
 * rendered by React's scheduler on a later one (a store update renders synchronously). A few
 * macrotasks, no timers: nothing here depends on wall-clock time.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await tick();
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
export const stripAnsi = (s: string) => s.replace(ANSI, '');

export interface Rendered {
  controller: FakeController;
  /** Everything written to stdout, frames and raw writes (the bell) alike. */
  writes(): readonly string[];
  frame(): string;
  lines(): string[];
  press(key: string): Promise<void>;
  quits: () => number;
  rerenderState(state: MonitorState): Promise<void>;
  unmount(): void;
}

export interface RenderOptions {
  columns?: number;
  rows?: number;
  color?: boolean;
  ascii?: boolean;
  /** The test clock; `null`: none, so the App falls back to the controller's clock. */
  now?: (() => number) | null;
  controller?: FakeController;
  onScreendump?: () => Promise<string>;
  bell?: boolean;
}

export async function renderApp(state: MonitorState, opts: RenderOptions = {}): Promise<Rendered> {
  const controller = opts.controller ?? fakeController(state);
  let quits = 0;
  const size = { columns: opts.columns ?? 120, rows: opts.rows ?? 40 };
  const now = opts.now === null ? undefined : (opts.now ?? (() => NOW));
  const r = render(
    <App
      controller={controller}
      color={opts.color ?? false}
      ascii={opts.ascii ?? false}
      size={size}
      now={now}
      onQuit={() => quits++}
      {...(opts.onScreendump ? { onScreendump: opts.onScreendump } : {})}
      {...(opts.bell !== undefined ? { bell: opts.bell } : {})}
    />,
  );
  await settle();
  const frame = () => r.lastFrame() ?? '';
  return {
    controller,
    writes: () => r.frames,
    frame,
    lines: () => stripAnsi(frame()).split('\n'),
    async press(key: string) {
      r.stdin.write(key);
      await settle();
      if (key === ESC) await tick();
    },
    quits: () => quits,
    async rerenderState(next) {
      controller.setState(next);
      await settle();
    },
    unmount: () => r.unmount(),
  };
}

/** The frame contract of DESIGN.md: at most rows-1 lines, none wider than the terminal. */
export function frameViolations(frame: string, columns: number, rows: number): string[] {
  const lines = stripAnsi(frame).split('\n');
  const out: string[] = [];
  if (lines.length > rows - 1) out.push(`${lines.length} lines > ${rows - 1}`);
  lines.forEach((l, i) => {
    const w = stringWidth(l);
    if (w > columns) out.push(`line ${i} is ${w} wide: ${l}`);
  });
  return out;
}

/** The foreground SGR code (31 red, 33 yellow, 39 default...) in effect where `text` first starts in `frame`. */
export function colorAt(frame: string, text: string): number | null {
  const at = frame.indexOf(text);
  if (at < 0) return null;
  let fg = 39;
  for (const m of frame.slice(0, at).matchAll(/\x1b\[([0-9;]*)m/g)) {
    for (const code of (m[1] || '0').split(';').map(Number)) {
      if (code === 0 || code === 39) fg = 39;
      else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) fg = code;
    }
  }
  return fg;
}
