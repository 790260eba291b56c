/**
 * THE key table: one entry per binding, read by the input hook to act and by the help overlay
 * and footer to explain, so help can never lie about a key.
 */
import type { Key } from 'ink';
import type { Glyphs } from './theme.js';
import type { PaneId } from './ui-state.js';
import { PANES, paneTitles } from './ui-state.js';

export type KeySpec =
  | { char: string }
  | { name: 'tab' | 'shiftTab' | 'up' | 'down' | 'left' | 'right' | 'escape' }
  | { ctrl: string };

export type Command =
  | { type: 'focus'; pane: PaneId }
  | { type: 'cycleFocus'; delta: 1 | -1 }
  | { type: 'switchItem'; delta: 1 | -1 }
  | { type: 'moveSelection'; delta: 1 | -1 }
  | { type: 'toggleZoom' }
  | { type: 'pollNow' }
  | { type: 'togglePause' }
  | { type: 'toggleHelp' }
  | { type: 'closeHelp' }
  | { type: 'quit' };

export interface Binding {
  keys: readonly KeySpec[];
  /** The command, or one per key when the keys differ (1..4). */
  command: Command | ((keyIndex: number) => Command);
  help: string;
  /** Short text for the footer line; bindings without it only appear in the help overlay. */
  footer?: string;
  /** Still active while the help overlay is open (the overlay is otherwise modal). */
  inHelp?: boolean;
}

export const bindings: readonly Binding[] = [
  {
    keys: PANES.map((_, i) => ({ char: String(i + 1) })),
    command: (i) => ({ type: 'focus', pane: PANES[i] ?? 'ntp' }),
    help: `focus ${PANES.map((p) => paneTitles[p]).join(' / ')} (small terminals: zoom it)`,
    footer: 'pane',
  },
  { keys: [{ name: 'tab' }], command: { type: 'cycleFocus', delta: 1 }, help: 'focus next pane', footer: 'next' },
  { keys: [{ name: 'shiftTab' }], command: { type: 'cycleFocus', delta: -1 }, help: 'focus previous pane' },
  { keys: [{ name: 'left' }, { char: 'h' }], command: { type: 'switchItem', delta: -1 }, help: 'previous GNSS receiver / PTP port' },
  { keys: [{ name: 'right' }, { char: 'l' }], command: { type: 'switchItem', delta: 1 }, help: 'next GNSS receiver / PTP port' },
  { keys: [{ name: 'up' }, { char: 'k' }], command: { type: 'moveSelection', delta: -1 }, help: 'select previous NTP source / PTP port', footer: 'select' },
  { keys: [{ name: 'down' }, { char: 'j' }], command: { type: 'moveSelection', delta: 1 }, help: 'select next NTP source / PTP port' },
  { keys: [{ char: 'z' }], command: { type: 'toggleZoom' }, help: 'zoom the focused pane / back to all panes (big terminals)', footer: 'zoom' },
  { keys: [{ char: 'r' }], command: { type: 'pollNow' }, help: 'poll the device now', footer: 'poll' },
  { keys: [{ char: ' ' }], command: { type: 'togglePause' }, help: 'pause / resume polling', footer: 'pause' },
  { keys: [{ char: '?' }], command: { type: 'toggleHelp' }, help: 'show / hide this help', footer: 'help', inHelp: true },
  { keys: [{ name: 'escape' }], command: { type: 'closeHelp' }, help: 'close this help', inHelp: true },
  { keys: [{ char: 'q' }, { ctrl: 'c' }], command: { type: 'quit' }, help: 'quit', footer: 'quit', inHelp: true },
];

export function matchesKey(spec: KeySpec, input: string, key: Key): boolean {
  // Meta is not checked: Esc followed quickly by a key arrives as one chunk ("\x1bq") that Ink
  // reports as Alt+key, and a technician who pressed Esc then q means q.
  if ('char' in spec) return input === spec.char && !key.ctrl;
  if ('ctrl' in spec) return key.ctrl && input === spec.ctrl;
  switch (spec.name) {
    case 'tab':
      return key.tab && !key.shift;
    case 'shiftTab':
      return key.tab && key.shift;
    case 'up':
      return key.upArrow;
    case 'down':
      return key.downArrow;
    case 'left':
      return key.leftArrow;
    case 'right':
      return key.rightArrow;
    case 'escape':
      return key.escape;
  }
}

/** The command a key press means, or null; while help is open only `inHelp` bindings act. */
export function commandFor(input: string, key: Key, helpOpen: boolean): Command | null {
  for (const binding of bindings) {
    if (helpOpen && !binding.inHelp) continue;
    const index = binding.keys.findIndex((spec) => matchesKey(spec, input, key));
    if (index < 0) continue;
    return typeof binding.command === 'function' ? binding.command(index) : binding.command;
  }
  return null;
}

export function keyLabel(spec: KeySpec, glyphs: Glyphs): string {
  if ('char' in spec) return spec.char === ' ' ? 'space' : spec.char;
  if ('ctrl' in spec) return `Ctrl-${spec.ctrl.toUpperCase()}`;
  const names: Record<typeof spec.name, string> = {
    tab: 'Tab',
    shiftTab: 'Shift-Tab',
    up: glyphs.up,
    down: glyphs.down,
    left: glyphs.left,
    right: glyphs.right,
    escape: 'Esc',
  };
  return names[spec.name];
}

export function bindingLabel(binding: Binding, glyphs: Glyphs): string {
  return binding.keys.map((k) => keyLabel(k, glyphs)).join('/');
}
