/**
 * The one place where meaning becomes appearance. Views ask for a semantic token ("bad"), never
 * for a color ("red"); every state a device reports maps to ONE entry holding its token, its
 * symbol and its word, so state stays readable without color (NO_COLOR, colour-blind eyes) and
 * the help legend reads the same table the panes do.
 */
import { lookupTable } from '../model/lookup.js';

export type Token = 'ok' | 'warn' | 'bad' | 'muted' | 'accent' | 'focus' | 'title' | 'text';

/** Ink color names per token; only consulted when color is on. */
export const palette: Record<Token, string | undefined> = {
  ok: 'green',
  warn: 'yellow',
  bad: 'red',
  muted: 'gray',
  accent: 'cyan',
  focus: 'cyanBright',
  title: 'blueBright',
  text: undefined,
};

export interface StateStyle {
  token: Token;
  /** One character that carries the state without color. */
  symbol: string;
  /** The state in words, as short as stays unambiguous. */
  word: string;
}

/** chrony's source states, as `chronyc sources` prints them. Order is the help legend's order. */
export const ntpSourceStates = lookupTable<StateStyle>({
  'Best source': { token: 'ok', symbol: '*', word: 'best' },
  'Combined with best': { token: 'ok', symbol: '+', word: 'combined' },
  Selectable: { token: 'accent', symbol: '-', word: 'selectable' },
  'False ticker': { token: 'bad', symbol: 'x', word: 'false ticker' },
  'Too variable': { token: 'warn', symbol: '~', word: 'too variable' },
  'Not selectable': { token: 'muted', symbol: '?', word: 'not selectable' },
});

/** NTP source modes: chrony's mode mark (^ server, = peer, # reference clock) and a short word. */
export const ntpModes = lookupTable<StateStyle>({
  Server: { token: 'text', symbol: '^', word: 'server' },
  Peer: { token: 'text', symbol: '=', word: 'peer' },
  'Reference clock': { token: 'text', symbol: '#', word: 'refclock' },
});

export const ntpOverallStates = lookupTable<StateStyle>({
  Synchronized: { token: 'ok', symbol: '*', word: 'synchronized' },
  'Not synchronized': { token: 'bad', symbol: '!', word: 'not synchronized' },
  Unknown: { token: 'warn', symbol: '?', word: 'unknown' },
});

export const ptpSyncStates = lookupTable<StateStyle>({
  STABLE: { token: 'ok', symbol: '*', word: 'STABLE' },
  ACQUIRED: { token: 'warn', symbol: '+', word: 'ACQUIRED' },
  ACQUIRING: { token: 'warn', symbol: '~', word: 'ACQUIRING' },
  LOST: { token: 'bad', symbol: '!', word: 'LOST' },
  NEVER: { token: 'bad', symbol: 'x', word: 'NEVER' },
  UNKNOWN: { token: 'muted', symbol: '?', word: 'UNKNOWN' },
});

export const gnssStatuses = lookupTable<StateStyle>({
  working: { token: 'ok', symbol: '*', word: 'working' },
  standby: { token: 'muted', symbol: '-', word: 'standby' },
  offline: { token: 'bad', symbol: '!', word: 'offline' },
});

export const antennaStates = lookupTable<StateStyle>({
  normal: { token: 'ok', symbol: '*', word: 'normal' },
  open: { token: 'bad', symbol: '!', word: 'open' },
  'short-circuited': { token: 'bad', symbol: '!', word: 'short-circuited' },
  unknown: { token: 'muted', symbol: '?', word: 'unknown' },
  uninitialized: { token: 'muted', symbol: '?', word: 'uninitialized' },
  'not-support': { token: 'muted', symbol: '-', word: 'not supported' },
});

/** Severities of derived events, and the health verdict: symbol and word beside the color. */
export const eventSeverities: Record<'info' | 'ok' | 'warning' | 'critical', StateStyle> = {
  critical: { token: 'bad', symbol: '!', word: 'critical' },
  warning: { token: 'warn', symbol: '~', word: 'warning' },
  ok: { token: 'ok', symbol: '*', word: 'recovered' },
  info: { token: 'muted', symbol: '-', word: 'info' },
};

export const verdictStyles: Record<'ok' | 'warning' | 'critical', StateStyle> = {
  ok: { token: 'ok', symbol: '*', word: 'OK' },
  warning: { token: 'warn', symbol: '~', word: 'WARNING' },
  critical: { token: 'bad', symbol: '!', word: 'CRITICAL' },
};

/** Anything a device sends that no table knows: shown as sent, dimmed, never hidden. */
export function styleOf(table: Readonly<Record<string, StateStyle>>, value: string | null | undefined): StateStyle {
  if (value === null || value === undefined) return { token: 'muted', symbol: '?', word: '-' };
  return table[value] ?? { token: 'muted', symbol: '?', word: value };
}

/**
 * A device state in the words the live monitor shows ("Too variable" -> "too variable"), for
 * every text that names one: findings (check, --once, the header) and events. One vocabulary.
 */
export function stateWord(table: Readonly<Record<string, StateStyle>>, value: string | null | undefined, missing = '?'): string {
  return value === null || value === undefined ? missing : styleOf(table, value).word;
}

/** Warning and critical limits on the magnitude of an offset, ns (the health thresholds). */
export interface OffsetLimits {
  warnNs: number;
  critNs: number;
}

/** The health thresholds as the limits of NTP and of PTP offsets. */
export function offsetLimits(t: { ntpWarnNs: number; ntpCritNs: number; ptpWarnNs: number; ptpCritNs: number }): { ntp: OffsetLimits; ptp: OffsetLimits } {
  return { ntp: { warnNs: t.ntpWarnNs, critNs: t.ntpCritNs }, ptp: { warnNs: t.ptpWarnNs, critNs: t.ptpCritNs } };
}

/** An offset's color by threshold: over critical bad, over warning warn, otherwise none. */
export function offsetToken(ns: number | null, limits: OffsetLimits | undefined): Token | undefined {
  if (ns === null || !limits) return undefined;
  const magnitude = Math.abs(ns);
  return magnitude > limits.critNs ? 'bad' : magnitude > limits.warnNs ? 'warn' : undefined;
}

/** Booleans that are good when true (PPS valid, alerting on). */
export function flagStyle(value: boolean | null, words: [yes: string, no: string], badWhenFalse = true): StateStyle {
  if (value === null) return { token: 'muted', symbol: '?', word: '-' };
  return value
    ? { token: 'ok', symbol: '*', word: words[0] }
    : { token: badWhenFalse ? 'bad' : 'muted', symbol: '!', word: words[1] };
}

/** Glyph sets: UTF-8 terminals get the nice ones, others the ASCII fallbacks. */
export interface Glyphs {
  sparkRamp: string;
  reachOn: string;
  reachOff: string;
  ruleLine: string;
  ruleFocus: string;
  selected: string;
  separator: string;
  up: string;
  down: string;
  left: string;
  right: string;
  ellipsis: string;
  inUse: string;
  live: string;
  /** Marks an event not yet seen in the focused events pane. */
  fresh: string;
}

export const unicodeGlyphs: Glyphs = {
  sparkRamp: '▁▂▃▄▅▆▇█',
  reachOn: '●',
  reachOff: '○',
  ruleLine: '─',
  ruleFocus: '━',
  selected: '▶',
  separator: '·',
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  ellipsis: '…',
  inUse: '◆',
  live: '●',
  fresh: '•',
};

export const asciiGlyphs: Glyphs = {
  sparkRamp: ' .:-=+*#',
  reachOn: '|',
  reachOff: '.',
  ruleLine: '-',
  ruleFocus: '=',
  selected: '>',
  separator: '|',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  ellipsis: '~',
  inUse: '@',
  live: '*',
  fresh: 'N',
};

export function glyphsFor(ascii: boolean): Glyphs {
  return ascii ? asciiGlyphs : unicodeGlyphs;
}
