/**
 * The terminal sanitizer. Every string the device sends passes through here before any output:
 * Ink passes OSC 52 (clipboard), OSC 0/2 (title), OSC 8 (links), SGR, BEL and bidi overrides
 * byte for byte, so a hostile or broken device could otherwise write into the technician's
 * clipboard, retitle the tmux pane, or reorder what the screen shows.
 *
 * Scheme: each unsafe character is replaced by a visible, printable escape, so tampering shows
 * instead of vanishing:
 *   - code points below U+0100 (C0 controls incl. TAB/CR/LF, DEL, C1 controls) -> `\xNN`
 *     (ESC -> `\x1b`, so `\x1b]0;title\x07` becomes the harmless text `\x1b]0;title\x07`);
 *   - everything else (bidi controls, zero-width and invisible characters, soft hyphen, tag
 *     characters, line/paragraph separators, lone surrogates) -> `\u{XXXX}` (e.g. `\u{202E}`).
 * The output holds only printable characters, so sanitizing it again changes nothing.
 * A backslash itself is left alone: escaping it would break that idempotence, and a literal
 * `\x1b` typed by someone is as harmless as an escaped one.
 *
 * One exception: a zero-width joiner between two pictographs is kept, because it is what glues
 * emoji sequences (family, profession emoji) together; anywhere else it is escaped.
 *
 * Unassigned and private-use code points (U+103FF, U+E000, U+FFFE...) become U+FFFD, the
 * replacement character: terminals and string-width disagree on their width (string-width counts
 * one column, tmux zero), and the line-diff writer's screen model would drift from the pane.
 * Whether a code point is assigned comes from the Unicode data of the JavaScript engine
 * (the property escapes \p{Cn} and \p{Co}), tested one code point at a time.
 */
import type { ApiError } from '../api/errors.js';
import type { SnapshotError } from './snapshot.js';

/** Ranges of code points that are escaped, inclusive. One table, read by both functions below. */
const unsafeRanges: readonly [number, number][] = [
  [0x0000, 0x001f], // C0 controls, incl. ESC, BEL, TAB, CR, LF
  [0x007f, 0x009f], // DEL and C1 controls (U+009B is a one-byte CSI)
  [0x00ad, 0x00ad], // soft hyphen (invisible)
  [0x061c, 0x061c], // Arabic letter mark (bidi)
  [0x180e, 0x180e], // Mongolian vowel separator (invisible)
  [0x200b, 0x200f], // zero-width space/non-joiner/joiner, LRM, RLM
  [0x2028, 0x2029], // line and paragraph separators
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x2064], // word joiner and invisible operators
  [0x2066, 0x2069], // bidi isolates
  [0x206a, 0x206f], // deprecated invisible format characters
  [0xd800, 0xdfff], // lone surrogates (paired ones never reach here as single code points)
  [0xfeff, 0xfeff], // zero-width no-break space / BOM
  [0xfff9, 0xfffb], // interlinear annotation controls (invisible)
  [0xe0000, 0xe007f], // tag characters ("ASCII smuggling")
];

const ZWJ = 0x200d;
const pictograph = /\p{Extended_Pictographic}/u;
/** Emoji modifiers that may sit between a pictograph and a joiner. */
const emojiModifier = /[\u{FE0F}\u{1F3FB}-\u{1F3FF}]/u;

/** Unassigned (Cn, noncharacters included) or private use (Co): no agreed width, no meaning. */
const unassignedOrPrivate = /^[\p{Cn}\p{Co}]$/u;
const REPLACEMENT = '\uFFFD';
const printableAscii = /^[\x20-\x7e]*$/;

function isUnsafeCodePoint(cp: number): boolean {
  return unsafeRanges.some(([lo, hi]) => cp >= lo && cp <= hi);
}

function escapeCodePoint(cp: number): string {
  return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** A joiner inside an emoji sequence: a pictograph (maybe with modifiers) before, a pictograph after. */
function isEmojiJoiner(chars: readonly string[], i: number): boolean {
  let before = i - 1;
  while (before >= 0 && emojiModifier.test(chars[before] ?? '')) before--;
  return pictograph.test(chars[before] ?? '') && pictograph.test(chars[i + 1] ?? '');
}

function isUnsafeAt(chars: readonly string[], i: number): boolean {
  const cp = chars[i]?.codePointAt(0) ?? 0;
  if (!isUnsafeCodePoint(cp)) return false;
  return !(cp === ZWJ && isEmojiJoiner(chars, i));
}

/**
 * The first `limit` code points (a lone surrogate is its own element), and whether more follow.
 * Lazy: a megabyte of device text costs no more than the few hundred characters that can show.
 */
function leadingCodePoints(s: string, limit: number): { chars: string[]; more: boolean } {
  const chars: string[] = [];
  for (const ch of s) {
    if (chars.length === limit) return { chars, more: true };
    chars.push(ch);
  }
  return { chars, more: false };
}

function safeToken(chars: readonly string[], i: number): string {
  const ch = chars[i] ?? '';
  const cp = ch.codePointAt(0) ?? 0;
  // Printable ASCII, most of what a device sends, needs no table lookup.
  if (cp >= 0x20 && cp < 0x7f) return ch;
  if (isUnsafeAt(chars, i)) return escapeCodePoint(cp);
  return unassignedOrPrivate.test(ch) ? REPLACEMENT : ch;
}

/**
 * A device string made safe to print: unsafe characters escaped (see the scheme above), then
 * truncated to at most `maxLength` characters ending in `…`. Truncation never splits an escape
 * or a surrogate pair.
 */
export function sanitizeText(s: string, maxLength = 256): string {
  const text = typeof s === 'string' ? s : String(s);
  // Printable ASCII that fits, most of what a device sends, is safe as it is.
  if (text.length <= maxLength && printableAscii.test(text)) return text;
  // Every code point gives at least one output character, so beyond maxLength + 1 of them the
  // text is cut anyway; one more is read so a joiner at the end still sees its right neighbour.
  const { chars, more } = leadingCodePoints(text, Math.max(0, maxLength) + 2);
  const tokens = chars.map((_, i) => safeToken(chars, i));
  // Characters, not UTF-16 units: a token is one character or an ASCII escape.
  const lengthOf = (t: string) => (t.length === 2 && t.codePointAt(0)! > 0xffff ? 1 : t.length);
  const total = tokens.reduce((n, t) => n + lengthOf(t), 0);
  if (!more && total <= maxLength) return tokens.join('');
  if (maxLength <= 0) return '';
  const kept: string[] = [];
  let used = 0;
  for (const token of tokens) {
    const n = lengthOf(token);
    if (used + n > maxLength - 1) break;
    kept.push(token);
    used += n;
  }
  return `${kept.join('')}…`;
}

/**
 * A file or directory name made safe to print in a message: a directory name can hold an
 * escape sequence as well as a device string can (a pane retitled by `cd`-ing into it).
 */
export function sanitizePath(path: string): string {
  return sanitizeText(path, 200);
}

/** True when the string holds any character the sanitizer would escape. */
export function hasUnsafeCharacters(s: string): boolean {
  const chars = Array.from(s);
  return chars.some((_, i) => isUnsafeAt(chars, i));
}

/**
 * A copy of a plain JSON value (objects, arrays, primitives) with every string sanitized,
 * object keys included (a key can reach the screen as a label). Non-finite numbers become null,
 * since JSON cannot carry them and no output should print "NaN".
 */
export function sanitizeDeep<T>(value: T): T {
  return sanitizeValue(value) as T;
}

function sanitizeValue(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(sanitizeValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [sanitizeText(k), sanitizeValue(v)]));
  }
  return value;
}

/** A device string that may be missing: null when it was not sent, sanitized otherwise ('' stays ''). */
export function sanitizeOptional(s: string | null | undefined): string | null {
  return typeof s === 'string' ? sanitizeText(s) : null;
}

/**
 * A device label or state name (mode, state, status, syncState…): null when missing or blank,
 * since an empty state says nothing; otherwise sanitized, unknown values passing through.
 */
export function sanitizeLabel(s: string | null | undefined): string | null {
  return typeof s === 'string' && s.trim() !== '' ? sanitizeText(s.trim()) : null;
}

/**
 * An ApiError made safe for output: the message can quote device text (an undocumented
 * errorMessage, an HTML title), and only the contract's fields are kept.
 */
export function toSnapshotError(e: ApiError): SnapshotError {
  const error: SnapshotError = { kind: e.kind, message: sanitizeText(e.message, 512) };
  if (typeof e.code === 'string') error.code = sanitizeText(e.code, 64);
  return error;
}

/**
 * A URL-like text with its user-info part (`user:password@`) replaced by `***@`, for messages
 * about text that did not even parse as a URL. Linear: one indexOf per delimiter, no regex.
 */
export function redactUserinfo(text: string): string {
  const scheme = text.indexOf('://');
  if (scheme < 0) return text;
  const start = scheme + 3;
  let end = text.length;
  for (const d of ['/', '?', '#']) {
    const at = text.indexOf(d, start);
    if (at >= 0 && at < end) end = at;
  }
  const at = text.lastIndexOf('@', end - 1);
  return at >= start ? `${text.slice(0, start)}***${text.slice(at)}` : text;
}
