/**
 * @alcalzone/ansi-tokenize as Ink's Output uses it, remembered across frames.
 *
 * Painting a row, Ink's Output turns each text placed on it into styled characters
 * (`tokenize`, then `styledCharsFromTokens`: an object and a copy of the style list per
 * character) and the row back into a string (`styledCharsToString`: three Sets and two arrays
 * per character to diff neighbouring styles). Ink's caches are dropped after each frame, yet
 * most texts are the same strings as a second ago. Profiles of the live view at one frame a
 * second put these three functions at a quarter to a third of the process's busy time.
 *
 * The row-remembering Output (ink-output.ts) paints with these; the answers are the package's
 * own:
 * - `styledCharsOf(text)` is `styledCharsFromTokens(tokenize(text))`, worked out per styled
 *   run: a text is cut before each escape sequence, and each piece's characters are remembered
 *   for the style it starts in, so a row in which one value changed costs that value's
 *   characters, not the row's. The characters of one run share one style list (the package
 *   copies it per character; nothing in Ink changes a style list after it is made). Bounded:
 *   cleared when full, which costs one frame of misses.
 * - `styledCharsToString` writes no style change between neighbours whose style lists hold the
 *   same codes (the package's diff is empty for them), so plain runs and blank cells cost a
 *   comparison.
 * test/ui/ink-styled-chars.test.ts holds both to the package over random styled text.
 */
import {
  ansiCodesToString,
  diffAnsiCodes,
  reduceAnsiCodesIncremental,
  tokenize,
  type AnsiCode,
  type StyledChar,
  type Token,
} from '@alcalzone/ansi-tokenize';
import { BoundedMemo, rememberText } from './text-memo.js';

/** Pieces remembered (a piece and the style it starts in): a 250x80 screen holds a few thousand. */
export const PIECES_MEMO_SIZE = 4096;
/**
 * ... and their characters (an object each). Pieces are painted only for rows that changed
 * (the Output remembers whole rows), a thousand or two characters a frame at 100x30: this is
 * some twenty frames of them, and no more memory than that.
 */
export const PIECES_CHAR_BUDGET = 1 << 15;
/** Longer pieces are worked out without remembering them (a memo key is the whole piece). */
const MAX_REMEMBERED_LENGTH = 1024;

interface Piece {
  chars: StyledChar[];
  /** The style in force after the piece. */
  after: Style;
}
/** A style list and its key (its codes, joined); equal lists are one object. */
interface Style {
  key: string;
  codes: AnsiCode[];
}

const NO_STYLE: Style = { key: '', codes: [] };
const styles = new Map<string, Style>([['', NO_STYLE]]);
const pieces = new BoundedMemo<Piece>(PIECES_MEMO_SIZE, PIECES_CHAR_BUDGET);

function styleOf(codes: AnsiCode[]): Style {
  const key = codes.map((c) => c.code).join('');
  let style = styles.get(key);
  if (style === undefined) {
    if (styles.size >= PIECES_MEMO_SIZE) {
      styles.clear();
      styles.set('', NO_STYLE);
    }
    style = { key, codes };
    styles.set(key, style);
  }
  return style;
}

function pieceOf(text: string, before: Style): Piece {
  const remember = text.length <= MAX_REMEMBERED_LENGTH;
  const key = `${before.key}\u0000${text}`;
  let piece = remember ? pieces.get(key) : undefined;
  if (piece === undefined) {
    const chars: StyledChar[] = [];
    let style = before;
    for (const token of simpleTokens(text) ?? tokenize(text)) {
      // reduceAnsiCodesIncremental returns a new list; a style's list is never changed.
      if (token.type === 'ansi') style = styleOf(reduceAnsiCodesIncremental(style.codes, [token]));
      else chars.push({ ...token, styles: style.codes });
    }
    piece = { chars, after: style };
    if (remember) pieces.set(key, piece, chars.length);
  }
  return piece;
}

/**
 * The package's tokens of a piece that is at most one SGR sequence followed by printable ASCII
 * and Latin-1 characters (most changing values: "+116ns", "±916ns", "1.18µs", "14:15:27"),
 * without the package's grapheme segmenter: each of those characters is a grapheme of its own
 * and never full-width. Null for anything else, which the package tokenizes.
 */
function simpleTokens(text: string): Token[] | null {
  let from = 0;
  let tokens: Token[] = [];
  if (text.charCodeAt(0) === 0x1b) {
    if (text.charCodeAt(1) !== 0x5b) return null;
    let end = 2;
    for (let c = text.charCodeAt(end); (c >= 0x30 && c <= 0x39) || c === 0x3b; c = text.charCodeAt(++end));
    if (text.charCodeAt(end) !== 0x6d) return null;
    from = end + 1;
    tokens = sgrTokens(text.slice(0, from));
  }
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff && c !== 0xad))) return null;
  }
  const out = tokens.slice();
  for (let i = from; i < text.length; i++) out.push({ type: 'char', value: text[i]!, fullWidth: false });
  return out;
}

/** The package's tokens of one SGR sequence (a compound one splits), remembered. */
const sgrTokens = rememberText((sgr: string) => tokenize(sgr), 1024);

/** `styledCharsFromTokens(tokenize(text))`, from remembered pieces (a new array; the characters are shared). */
export function styledCharsOf(text: string): StyledChar[] {
  // An OSC sequence (a link) may run past the next escape character in the package's
  // tokenizer: such a text is worked out whole.
  if (text.includes('\x1b]') || text.includes('\x9b]')) return pieceOf(text, NO_STYLE).chars.slice();
  const chars: StyledChar[] = [];
  let style = NO_STYLE;
  let from = 0;
  // A piece runs up to the next escape character (ESC or C1 CSI, the package's two), so every
  // escape sequence starts a piece. An escape character is a grapheme of its own, and an SGR
  // sequence ends at the first character that is no digit or semicolon: the package's tokens
  // of the pieces are its tokens of the whole.
  for (let i = 1; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : -1;
    if (c === 0x1b || c === 0x9b || c === -1) {
      const piece = pieceOf(text.slice(from, i), style);
      for (const ch of piece.chars) chars.push(ch);
      style = piece.after;
      from = i;
    }
  }
  return chars;
}

function sameCodes(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code) return false;
  return true;
}

/**
 * The SGR that takes the pen from one style list to another, remembered per pair of lists
 * (style lists are never changed once made, and pieces share one list per style).
 */
const transitions = new WeakMap<readonly AnsiCode[], Map<readonly AnsiCode[], string>>();
function transition(from: AnsiCode[], to: AnsiCode[]): string {
  let byTarget = transitions.get(from);
  if (byTarget === undefined) transitions.set(from, (byTarget = new Map()));
  let sgr = byTarget.get(to);
  if (sgr === undefined) {
    sgr = ansiCodesToString(diffAnsiCodes(from, to));
    if (byTarget.size >= 256) byTarget.clear();
    byTarget.set(to, sgr);
  }
  return sgr;
}

export function styledCharsToString(chars: StyledChar[]): string {
  // One join instead of a concatenation per character (a chain of short-lived string pieces).
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (i === 0) parts.push(transition(NO_STYLE.codes, char.styles));
    else {
      const before = chars[i - 1]!.styles;
      if (!sameCodes(before, char.styles)) parts.push(transition(before, char.styles));
    }
    parts.push(char.value);
    if (i === chars.length - 1 && char.styles.length > 0) parts.push(transition(char.styles, NO_STYLE.codes));
  }
  return parts.join('');
}

/** The style list of unstyled characters (the blank cells of a row share it). */
export const UNSTYLED: AnsiCode[] = NO_STYLE.codes;

/** Pieces currently remembered, and their characters (tests). */
export function piecesMemoSize(): { pieces: number; characters: number } {
  const { entries, weight } = pieces.usage();
  return { pieces: entries, characters: weight };
}
