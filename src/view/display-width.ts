/**
 * string-width with a memo, for the live view's once-a-second frame. Every frame, Ink measures
 * each row's styled text (widest-line in renderNodeToOutput), our fitLine measures each cell,
 * and the line-diff writer checks rows for overwidth; most rows are the same strings as a
 * second ago, and a row with any non-ASCII character (box rules, µ, …) takes string-width's
 * slow path (ANSI stripping, grapheme segmentation, an emoji regex per cluster) every time.
 *
 * The bundle routes the `string-width` imports of our code, Ink, widest-line and cli-truncate
 * here (scripts/build.mjs): the same answers, remembered, and found without segmenting when
 * every character is one that is one column wide anyway (most rows of this view). Ink's own per-frame caches are
 * dropped after every frame; this one lives across frames and is bounded (cleared when full,
 * which costs one frame of misses: rows that change every second are new strings anyway).
 */
import stringWidth from 'string-width';

type Options = Parameters<typeof stringWidth>[1];

/** Distinct strings remembered: a 200x60 screen has a few hundred rows and cells. */
export const DISPLAY_WIDTH_MEMO_SIZE = 4096;
/** Longer strings are measured without remembering them (a memo key is the whole string). */
const MAX_REMEMBERED_LENGTH = 1024;

const memo = new Map<string, number>();

/**
 * Symbol blocks the live view draws from (arrows, geometric shapes such as ● ○ ◆ ▶, braille
 * sparklines, general punctuation, letterlike and technical signs): U+2010-U+2BFF without the
 * zero-width, joining and bidi controls of General Punctuation. None of their characters joins
 * its neighbour into one grapheme (no marks, format or control characters; those, and
 * unassigned code points, are left to string-width), so a string's width is the sum of its
 * characters' widths, each asked of string-width once: 1 for most, 2 for the emoji-presentation
 * ones (⌚, ⭐).
 */
const SYMBOLS_FROM = 0x2010;
const SYMBOLS_TO = 0x2bff;
const symbolWidths = new Int8Array(SYMBOLS_TO - SYMBOLS_FROM + 1);
const NOT_SUMMABLE = /[\p{M}\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cn}\p{Co}]/u;
const UNKNOWN = 0;

function symbolWidth(c: number): number {
  if (c < SYMBOLS_FROM || c > SYMBOLS_TO || (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f)) return -1;
  let w = symbolWidths[c - SYMBOLS_FROM]!;
  if (w === UNKNOWN) {
    const ch = String.fromCharCode(c);
    // Stored as width + 1 so that 0 means "not asked yet"; -1 stays -1.
    const measured = NOT_SUMMABLE.test(ch) ? -1 : stringWidth(ch);
    w = measured < 0 ? -1 : measured + 1;
    symbolWidths[c - SYMBOLS_FROM] = w;
  }
  return w < 0 ? -1 : w - 1;
}

/**
 * The width of text made only of characters one column wide whatever the terminal and with no
 * grapheme joining (printable ASCII, Latin-1 letters and signs, Latin Extended A/B, box drawing,
 * block elements, the ellipsis), of the symbol blocks below (each character's width asked of
 * string-width once) and SGR styles (ESC [ digits ; m, zero columns); -1 for anything else,
 * which string-width measures. test/view/display-width.test.ts checks this against
 * string-width over that whole alphabet.
 */
function narrowWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) width++;
    else if (c === 0x1b) {
      if (text.charCodeAt(i + 1) !== 0x5b) return -1;
      let j = i + 2;
      for (let d = text.charCodeAt(j); (d >= 0x30 && d <= 0x39) || d === 0x3b; d = text.charCodeAt(++j));
      if (text.charCodeAt(j) !== 0x6d) return -1;
      i = j;
    } else if ((c >= 0xa0 && c <= 0x2ff && c !== 0xad) || (c >= 0x2500 && c <= 0x259f) || c === 0x2026) width++;
    else {
      const w = symbolWidth(c);
      if (w < 0) return -1;
      width += w;
    }
  }
  return width;
}

export default function displayWidth(text: string, options?: Options): number {
  if (options !== undefined || typeof text !== 'string' || text.length > MAX_REMEMBERED_LENGTH) return stringWidth(text, options);
  let width = memo.get(text);
  if (width === undefined) {
    width = narrowWidth(text);
    if (width < 0) width = stringWidth(text);
    if (memo.size >= DISPLAY_WIDTH_MEMO_SIZE) memo.clear();
    memo.set(text, width);
  }
  return width;
}

/** Strings currently remembered (tests). */
export function displayWidthMemoSize(): number {
  return memo.size;
}
