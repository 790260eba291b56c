/**
 * THE key table: one entry per binding, read by the input hook to act and by the help overlay
 * and footer to explain, so help can never lie about a key.
 */
import type { Key } from 'ink';
import type { Glyphs } from '../view/theme.js';
import type { Overlay, PaneId } from './ui-state.js';
import { PANES } from './ui-state.js';
import { FINDINGS_KEY } from '../view/header.js';

export type KeySpec =
  | { char: string }
  | { name: 'tab' | 'shiftTab' | 'up' | 'down' | 'left' | 'right' | 'escape' | 'return' | 'pageUp' | 'pageDown' | 'home' | 'end' }
  | { ctrl: string };

export type Command =
  | { type: 'focus'; pane: PaneId }
  | { type: 'cycleFocus'; delta: 1 | -1 }
  | { type: 'switchItem'; delta: 1 | -1 }
  /** ±1 a row; 'page' half a screen; 'edge' to the first / last. */
  | { type: 'moveSelection'; delta: 1 | -1; by?: 'page' | 'edge' }
  | { type: 'redraw' }
  | { type: 'startFilter' }
  | { type: 'toggleZoom' }
  | { type: 'pollNow' }
  | { type: 'togglePause' }
  | { type: 'toggleHelp' }
  | { type: 'toggleFindings' }
  | { type: 'closeOverlay' }
  | { type: 'devices' }
  | { type: 'chooseDevice' }
  | { type: 'step'; delta: 1 | -1 }
  | { type: 'screendump' }
  | { type: 'quit' };

/**
 * Help texts stay within 28 columns: the help overlay shows two columns of key + text, and at
 * 80 columns a longer text would be cut (a test holds every text to this).
 */
export const HELP_TEXT_MAX = 28;

export interface Binding {
  keys: readonly KeySpec[];
  /** The command, or one per key when the keys differ (1..4). */
  command: Command | ((keyIndex: number) => Command);
  help: string;
  /** Short text for the footer line; bindings without it only appear in the help overlay. */
  footer?: string;
  /** Still active while the help overlay is open (the overlay is otherwise modal). */
  inHelp?: boolean;
  /** Active while the device list is open (which is otherwise modal); `only`: nowhere else. */
  inDevices?: boolean | 'only';
}

export const bindings: readonly Binding[] = [
  {
    keys: PANES.map((_, i) => ({ char: String(i + 1) })),
    command: (i) => ({ type: 'focus', pane: PANES[i] ?? 'ntp' }),
    help: 'focus pane by its number',
    footer: 'pane',
  },
  { keys: [{ name: 'tab' }], command: { type: 'cycleFocus', delta: 1 }, help: 'focus next pane', footer: 'next' },
  { keys: [{ name: 'shiftTab' }], command: { type: 'cycleFocus', delta: -1 }, help: 'focus previous pane' },
  { keys: [{ name: 'left' }, { char: 'h' }], command: { type: 'switchItem', delta: -1 }, help: 'previous receiver / PTP port' },
  { keys: [{ name: 'right' }, { char: 'l' }], command: { type: 'switchItem', delta: 1 }, help: 'next receiver / PTP port' },
  { keys: [{ name: 'up' }, { char: 'k' }], command: { type: 'moveSelection', delta: -1 }, help: 'select previous / scroll up', footer: 'select', inDevices: true, inHelp: true },
  { keys: [{ name: 'down' }, { char: 'j' }], command: { type: 'moveSelection', delta: 1 }, help: 'select next / scroll down', inDevices: true, inHelp: true },
  { keys: [{ name: 'pageUp' }], command: { type: 'moveSelection', delta: -1, by: 'page' }, help: 'half a screen up', inDevices: true, inHelp: true },
  { keys: [{ name: 'pageDown' }], command: { type: 'moveSelection', delta: 1, by: 'page' }, help: 'half a screen down', inDevices: true, inHelp: true },
  { keys: [{ name: 'home' }], command: { type: 'moveSelection', delta: -1, by: 'edge' }, help: 'first in the list', inDevices: true, inHelp: true },
  { keys: [{ name: 'end' }], command: { type: 'moveSelection', delta: 1, by: 'edge' }, help: 'last in the list', inDevices: true, inHelp: true },
  { keys: [{ char: '/' }], command: { type: 'startFilter' }, help: 'filter NTP sources by name', footer: 'filter' },
  { keys: [{ name: 'return' }], command: { type: 'chooseDevice' }, help: 'switch to selected device', inDevices: 'only' },
  { keys: [{ char: 'z' }], command: { type: 'toggleZoom' }, help: 'zoom focused pane / unzoom', footer: 'zoom' },
  { keys: [{ char: 'r' }], command: { type: 'pollNow' }, help: 'poll the device now', footer: 'poll' },
  { keys: [{ char: ' ' }], command: { type: 'togglePause' }, help: 'pause / resume (also replay)', footer: 'pause' },
  { keys: [{ char: 'd' }], command: { type: 'devices' }, help: 'devices: switch profile', inDevices: true },
  { keys: [{ char: '[' }], command: { type: 'step', delta: -1 }, help: 'replay: step back' },
  { keys: [{ char: ']' }], command: { type: 'step', delta: 1 }, help: 'replay: step forward' },
  { keys: [{ char: 's' }], command: { type: 'screendump' }, help: 'screendump to a file' },
  { keys: [{ char: FINDINGS_KEY }, { char: '!' }], command: { type: 'toggleFindings' }, help: 'list every finding (health)' },
  { keys: [{ ctrl: 'l' }], command: { type: 'redraw' }, help: 'redraw the whole screen', inHelp: true, inDevices: true },
  { keys: [{ char: '?' }], command: { type: 'toggleHelp' }, help: 'show / hide this help', footer: 'help', inHelp: true },
  { keys: [{ name: 'escape' }], command: { type: 'closeOverlay' }, help: 'close help / device list', inHelp: true, inDevices: true },
  { keys: [{ char: 'q' }, { ctrl: 'c' }], command: { type: 'quit' }, help: 'quit', footer: 'quit', inHelp: true, inDevices: true },
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
    case 'return':
      return key.return;
    case 'pageUp':
      return key.pageUp;
    case 'pageDown':
      return key.pageDown;
    case 'home':
      return key.home;
    case 'end':
      return key.end;
  }
}

/**
 * The command a key press means, or null. Overlays are modal: while help is open only `inHelp`
 * bindings act, while the device list is open only `inDevices` ones.
 */
export function commandFor(input: string, key: Key, overlay: Overlay): Command | null {
  for (const binding of bindings) {
    if (overlay === 'help' && !binding.inHelp) continue;
    if (overlay === 'devices' && !binding.inDevices) continue;
    if (overlay === null && binding.inDevices === 'only') continue;
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
    return: 'Enter',
    pageUp: 'PgUp',
    pageDown: 'PgDn',
    home: 'Home',
    end: 'End',
  };
  return names[spec.name];
}

export function bindingLabel(binding: Binding, glyphs: Glyphs): string {
  const chars = binding.keys.map((k) => ('char' in k ? k.char : ''));
  // A run of digits reads better as a range: "1-5", not "1/2/3/4/5".
  if (chars.length > 2 && chars.every((c, i) => /^\d$/.test(c) && (i === 0 || Number(c) === Number(chars[i - 1]) + 1))) {
    return `${chars[0]}-${chars[chars.length - 1]}`;
  }
  return binding.keys.map((k) => keyLabel(k, glyphs)).join('/');
}

/** Control characters a terminal sends for keys, by code: what Ink would report for them alone. */
const CONTROL_KEYS: Record<number, Partial<Key>> = { 0x09: { tab: true }, 0x0d: { return: true }, 0x0a: { return: true }, 0x7f: { backspace: true }, 0x08: { backspace: true } };

/**
 * The keys in one chunk of input. Ink passes several keys read together (`jj`, `23`, typed
 * ahead over a slow link) as one string; each is a key of its own here. Escape sequences
 * (arrows, PgUp) already arrive one per call; a single key is passed through unchanged.
 */
export function splitKeys(input: string, key: Key): [string, Key][] {
  const chars = [...input];
  if (chars.length <= 1 || key.escape || key.meta || key.ctrl) return [[input, key]];
  const plain = { ...key, shift: false };
  return chars.map((c): [string, Key] => {
    const code = c.codePointAt(0)!;
    const control = CONTROL_KEYS[code];
    if (control) return ['', { ...plain, ...control }];
    if (code < 0x20) return [String.fromCharCode(code + 0x60), { ...plain, ctrl: true }];
    return [c, { ...plain, shift: c !== c.toLowerCase() }];
  });
}
