/**
 * Clipping by display width. Ink's own truncation appends a Unicode ellipsis (wrong for ASCII
 * terminals) and runs after layout; clipping here first means no line can ever be wider than
 * the terminal, whatever the device sends (wide CJK names, combining marks).
 */
import stringWidth from 'string-width';
import type { Cell, Line } from './cell.js';
import { cell } from './cell.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of `text` at most `width` columns wide, and its width. */
export function clipText(text: string, width: number): { text: string; width: number } {
  if (width <= 0) return { text: '', width: 0 };
  const full = stringWidth(text);
  if (full <= width) return { text, width: full };
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return { text: out, width: used };
}

/** Cuts to `width` columns, marking the cut with `ellipsis` (one column). */
export function truncateText(text: string, width: number, ellipsis: string): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 0) return '';
  return clipText(text, width - 1).text + ellipsis;
}

/** The longest suffix of `text` at most `width` columns wide. */
export function clipTextEnd(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  const parts = [...segmenter.segment(text)].map((s) => s.segment);
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = stringWidth(parts[i]!);
    if (used + w > width) break;
    out = parts[i]! + out;
    used += w;
  }
  return out;
}

/**
 * Cuts to `width` columns in the middle, keeping both ends: `[2001:db8…::123]`. For identities,
 * whose start and end both matter (a clock identity's vendor prefix and its serial).
 */
export function shortenMiddle(text: string, width: number, ellipsis: string): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 1) return clipText(text, width).text;
  const head = clipText(text, Math.ceil((width - 1) / 2));
  return head.text + ellipsis + clipTextEnd(text, width - 1 - head.width);
}

/** Pads (or cuts) to exactly `width` columns. */
export function padText(text: string, width: number, align: 'left' | 'right', ellipsis: string): string {
  const cut = truncateText(text, width, ellipsis);
  const gap = Math.max(0, width - stringWidth(cut));
  return align === 'left' ? cut + ' '.repeat(gap) : ' '.repeat(gap) + cut;
}

/** Clips a styled line to `width` columns; the last visible character becomes `ellipsis` when cut. */
export function fitLine(line: Line, width: number, ellipsis: string): Line {
  const total = line.reduce((sum, c) => sum + stringWidth(c.text), 0);
  if (total <= width) return line;
  const out: Line = [];
  let left = Math.max(0, width - 1);
  for (const c of line) {
    if (left <= 0) break;
    const clipped = clipText(c.text, left);
    if (clipped.text !== '') out.push({ ...c, text: clipped.text });
    left -= clipped.width;
    if (clipped.text !== c.text) break;
  }
  if (width > 0) {
    const last: Cell | undefined = out[out.length - 1];
    out.push(last ? { ...last, text: ellipsis } : { text: ellipsis });
  }
  return out;
}

/** Clips a styled line to `width` columns in its middle (see shortenMiddle); the style of the first segment is kept. */
export function fitLineMiddle(line: Line, width: number, ellipsis: string): Line {
  if (lineWidth(line) <= width) return line;
  const text = line.map((c) => c.text).join('');
  return [{ ...line[0], text: shortenMiddle(text, width, ellipsis) }];
}

export function lineWidth(line: Line): number {
  return line.reduce((sum, c) => sum + stringWidth(c.text), 0);
}

/**
 * Word-wraps a styled line to `width`: continuation lines are indented by `indent` columns
 * (default: under the first cell, at most 8). Sentences wrap rather than lose their end.
 */
export function wrapLine(line: Line, width: number, indentWidth?: number): Line[] {
  if (lineWidth(line) <= width) return [line];
  const indent = ' '.repeat(indentWidth ?? Math.min(8, stringWidth(line[0]?.text ?? '')));
  const lines: Line[] = [[]];
  let used = 0;
  for (const c of line) {
    for (const word of c.text.split(/(?<= )/)) {
      const w = stringWidth(word);
      if (used + w > width && used > indent.length) {
        lines.push([cell(indent)]);
        used = indent.length;
      }
      // A single word wider than the line is still printed whole: never cut a sentence.
      lines[lines.length - 1]!.push({ ...c, text: word });
      used += w;
    }
  }
  return lines;
}

/**
 * At most `count` of wrapLine's lines: the last one shown holds the rest of the text (without the
 * indents that began its continuation lines), to be cut where it is drawn.
 */
export function firstWrappedLines(wrapped: readonly Line[], count: number): Line[] {
  if (wrapped.length <= count) return [...wrapped];
  const rest = wrapped.slice(count - 1).flatMap((line, i) => (i === 0 ? line : line.slice(1)));
  return [...wrapped.slice(0, count - 1), rest];
}

/** The most lines a field's value wraps to: a recipient list of 64 addresses stays a few lines. */
export const MAX_VALUE_LINES = 4;

/**
 * A field's value in lines of `width` columns, for a grid with lines to spare: at spaces where
 * every piece then fits, else column by column (a device's long token, an address list without
 * spaces), so nothing of it is cut. A character wider than the line has a line of its own. At
 * most `maxLines` lines, the last holding the rest (cut where it is drawn); the work stops there,
 * however long the value.
 */
export function wrapValue(line: Line, width: number, maxLines = MAX_VALUE_LINES): Line[] {
  if (width < 1 || maxLines <= 1 || lineWidth(line) <= width) return [line];
  const words = wrapLine(line, width, 0);
  // Continuation lines begin with wrapLine's (here empty) indent cell, which firstWrappedLines drops.
  if (words.every((l) => lineWidth(l) <= width)) return firstWrappedLines(words, maxLines).map((l) => l.filter((c) => c.text !== ''));
  const lines: Line[] = [[]];
  let left = width;
  for (const [at, c] of line.entries()) {
    let rest = c.text;
    while (rest !== '') {
      let clipped = clipText(rest, left);
      if (clipped.text === '' && left < width) {
        // The line is full: on to the next one, or the last one holds the rest.
        if (lines.length === maxLines) {
          lines[lines.length - 1]!.push({ ...c, text: rest }, ...line.slice(at + 1));
          return lines;
        }
        lines.push([]);
        left = width;
        continue;
      }
      // A character wider than a whole line: alone on its line.
      if (clipped.text === '') clipped = { text: (segmenter.segment(rest)[Symbol.iterator]().next().value as Intl.SegmentData).segment, width: left };
      lines[lines.length - 1]!.push({ ...c, text: clipped.text });
      left -= clipped.width;
      rest = rest.slice(clipped.text.length);
    }
  }
  return lines;
}
