/**
 * Ink's Output (ink/build/output.js, MIT), with each row's text remembered across frames.
 *
 * Ink builds every frame on a fresh grid: an object per cell of the terminal, each written text
 * turned into styled characters and painted in, then every row turned back into a string by
 * diffing the styles of neighbouring cells. At one frame a second that is most of what Ink
 * costs, yet most rows are the same texts at the same columns as a second ago.
 *
 * This Output takes the same operations (write, clip, unclip) and follows Ink's placement rules
 * exactly, but first works out which texts land on which row (after clipping) and paints a row
 * only when that list of (column, text) is one it has not painted before; a row painted before
 * is the remembered string. Painting a row is Ink's painting, row by row: a row's string
 * depends only on the texts written to it, in order. Rows with transformers (Ink's
 * <Transform>, which this program does not use) are painted every frame.
 *
 * The bundle routes ink/build/renderer.js's import of './output.js' here (scripts/build.mjs).
 * test/ui/ink-output.test.ts holds it to Ink's own Output over random operations, frame after
 * frame.
 */
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { styledCharsOf, styledCharsToString, UNSTYLED } from './ink-styled-chars.js';
import { BoundedMemo } from './text-memo.js';
import type { StyledChar } from '@alcalzone/ansi-tokenize';

type Transformer = (line: string, index: number) => string;
interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };

/** One text placed on one row: its column, and the transformers that still apply to it. */
interface RowWrite {
  x: number;
  line: string;
  index: number;
  transformers: Transformer[];
}

/** Distinct rows remembered: six screens of rows of a 250x80 terminal (a changed row is a new text anyway). */
export const ROW_MEMO_SIZE = 512;
/** ... and the characters of their keys and texts together. */
export const ROW_MEMO_BUDGET = 1 << 18;
const rowMemo = new BoundedMemo<string>(ROW_MEMO_SIZE, ROW_MEMO_BUDGET);

/** Rows painted (memo misses) and taken from the memo, since start (tests). */
export const rowStats = { painted: 0, remembered: 0 };

const BLANK: StyledChar = { type: 'char', value: ' ', fullWidth: false, styles: UNSTYLED };

const widestLine = (text: string) => {
  let width = 0;
  for (const line of text.split('\n')) width = Math.max(width, stringWidth(line));
  return width;
};

export default class Output {
  readonly width: number;
  readonly height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: 'write', x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  get(): { output: string; height: number } {
    const rows = this.rowWrites();
    const lines: string[] = [];
    for (let y = 0; y < this.height; y++) lines.push(this.rowText(rows[y]!));
    return { output: lines.join('\n'), height: this.height };
  }

  /** Ink's placement: which (column, text) each row receives, in order, after clipping. */
  private rowWrites(): RowWrite[][] {
    const rows: RowWrite[][] = Array.from({ length: this.height }, () => []);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      if (operation.type === 'unclip') clips.pop();
      if (operation.type !== 'write') continue;
      const { text, transformers } = operation;
      let { x, y } = operation;
      let lines = text.split('\n');
      const clip = clips.at(-1);
      if (clip) {
        const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
        const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
        if (clipHorizontally) {
          const width = widestLine(text);
          if (x + width < clip.x1! || x > clip.x2!) continue;
        }
        if (clipVertically) {
          const height = lines.length;
          if (y + height < clip.y1! || y > clip.y2!) continue;
        }
        if (clipHorizontally) {
          lines = lines.map((line) => {
            const from = x < clip.x1! ? clip.x1! - x : 0;
            const width = stringWidth(line);
            const to = x + width > clip.x2! ? clip.x2! - x : width;
            return sliceAnsi(line, from, to);
          });
          if (x < clip.x1!) x = clip.x1!;
        }
        if (clipVertically) {
          const from = y < clip.y1! ? clip.y1! - y : 0;
          const height = lines.length;
          const to = y + height > clip.y2! ? clip.y2! - y : height;
          lines = lines.slice(from, to);
          if (y < clip.y1!) y = clip.y1!;
        }
      }
      // As in Ink: a line whose row is outside the grid is skipped without moving on a row.
      let offsetY = 0;
      for (const [index, line] of lines.entries()) {
        const row = rows[y + offsetY];
        if (!row) continue;
        row.push({ x, line, index, transformers });
        offsetY++;
      }
    }
    return rows;
  }

  private rowText(writes: readonly RowWrite[]): string {
    if (writes.length === 0) return '';
    if (writes.some((w) => w.transformers.length > 0)) return this.paint(writes);
    // The grid's width (its blank cells) and the texts with their lengths: unambiguous whatever
    // the texts hold.
    let key = `${this.width}|`;
    for (const w of writes) key += `${w.x},${w.line.length};${w.line}`;
    let text = rowMemo.get(key);
    if (text === undefined) {
      text = this.paint(writes);
      rowMemo.set(key, text, key.length + text.length);
      rowStats.painted++;
    } else rowStats.remembered++;
    return text;
  }

  /** Ink's painting of one row: blank cells, each text's styled characters, back to a string. */
  private paint(writes: readonly RowWrite[]): string {
    // One blank cell object for all: nothing changes a cell once placed.
    const row: (StyledChar | undefined)[] = new Array<StyledChar>(this.width).fill(BLANK);
    for (const { x, line: written, index, transformers } of writes) {
      let line = written;
      for (const transformer of transformers) line = transformer(line, index);
      let offsetX = x;
      for (const character of styledCharsOf(line)) {
        row[offsetX] = character;
        const characterWidth = Math.max(1, stringWidth(character.value));
        for (let i = 1; i < characterWidth; i++) row[offsetX + i] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        offsetX += characterWidth;
      }
    }
    return styledCharsToString(row.filter((c): c is StyledChar => c !== undefined)).trimEnd();
  }
}

/** Rows currently remembered, and their characters (tests). */
export function rowMemoSize(): { rows: number; characters: number } {
  const { entries, weight } = rowMemo.usage();
  return { rows: entries, characters: weight };
}
