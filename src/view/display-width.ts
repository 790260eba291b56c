/**
 * string-width with a memo, for the live view's once-a-second frame. Every frame, Ink measures
 * each row's styled text (widest-line in renderNodeToOutput), our fitLine measures each cell,
 * and the line-diff writer checks rows for overwidth; most rows are the same strings as a
 * second ago, and a row with any non-ASCII character (box rules, µ, …) takes string-width's
 * slow path (ANSI stripping, grapheme segmentation, an emoji regex per cluster) every time.
 *
 * The bundle routes the `string-width` imports of our code, Ink, widest-line and cli-truncate
 * here (scripts/build.mjs): the same answers, remembered. Ink's own per-frame caches are
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

export default function displayWidth(text: string, options?: Options): number {
  if (options !== undefined || typeof text !== 'string' || text.length > MAX_REMEMBERED_LENGTH) return stringWidth(text, options);
  let width = memo.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    if (memo.size >= DISPLAY_WIDTH_MEMO_SIZE) memo.clear();
    memo.set(text, width);
  }
  return width;
}

/** Strings currently remembered (tests). */
export function displayWidthMemoSize(): number {
  return memo.size;
}
