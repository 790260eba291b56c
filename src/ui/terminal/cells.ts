/**
 * Within-row diff: a row as cells (one character each, with its column and the pen it is drawn
 * with), and the shortest write that turns the row the terminal shows into the new one. The age
 * ticks change one or two characters of long rows ("3s ago" -> "4s ago" on a rule of 3-byte
 * box characters): rewriting only those cells is a tenth of the row.
 */
import stringWidth from 'string-width';
import { Pen } from './pen.js';

export interface Cell {
  /** The character (with any zero-width marks that follow it). */
  text: string;
  width: number;
  /** 0-based column of the cell's first column. */
  col: number;
  /** The pen the cell is drawn with, as one SGR sequence from the default pen ('' = default). */
  pen: string;
  /** The SGR sequences in the row just before this cell, as written. */
  before: string;
}

const SGR = /\x1b\[[0-9;:]*m/y;

/** Widths of the non-ASCII characters seen (a screen uses a few dozen: box drawing, marks). */
const widths = new Map<string, number>();
function charWidth(ch: string): number {
  let w = widths.get(ch);
  if (w === undefined) {
    w = stringWidth(ch);
    if (widths.size < 4096) widths.set(ch, w);
  }
  return w;
}

/** The row's cells; null when the row holds anything but SGR and printable text. */
export function rowCells(bytes: string): Cell[] | null {
  const cells: Cell[] = [];
  const pen = new Pen();
  let penSgr = '';
  let before = '';
  let col = 0;
  let i = 0;
  while (i < bytes.length) {
    const c = bytes.charCodeAt(i);
    if (c === 0x1b) {
      SGR.lastIndex = i;
      const m = SGR.exec(bytes);
      if (!m) return null;
      pen.apply(m[0].slice(2, -1));
      penSgr = pen.sgr();
      before += m[0];
      i += m[0].length;
      continue;
    }
    if (c < 0x20 || c === 0x7f) return null;
    const cp = bytes.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    const width = cp < 0x7f ? 1 : charWidth(ch);
    if (width === 0 && cells.length > 0 && before === '') {
      // A combining mark or joiner belongs to the character before it.
      cells[cells.length - 1]!.text += ch;
      continue;
    }
    cells.push({ text: ch, width, col, pen: penSgr, before });
    before = '';
    col += width;
  }
  return cells;
}

export interface RowPatch {
  /** Bytes that turn the old row into the new one, from the cursor anywhere. */
  bytes: string;
  /** The terminal's pen afterwards is not the default one. */
  penDirty: boolean;
}

/**
 * The changed cells of row `r` (0-based) only, or null when that is not safe to compute (the
 * caller then rewrites the whole row).
 */
export function patchRow(r: number, old: Cell[], next: Cell[], penDirty: boolean, plainNext: string): RowPatch | null {
  const widthNext = next.length === 0 ? 0 : next[next.length - 1]!.col + next[next.length - 1]!.width;
  // Character-by-character widths must agree with the whole row's (emoji sequences may not).
  if (widthNext !== stringWidth(plainNext)) return null;
  const same = (a: Cell, b: Cell) => a.text === b.text && a.pen === b.pen && a.col === b.col;
  let start = 0;
  while (start < old.length && start < next.length && same(old[start]!, next[start]!)) start++;
  let endOld = old.length;
  let endNext = next.length;
  while (endOld > start && endNext > start && same(old[endOld - 1]!, next[endNext - 1]!)) {
    endOld--;
    endNext--;
  }
  const widthOld = old.length === 0 ? 0 : old[old.length - 1]!.col + old[old.length - 1]!.width;
  if (start === next.length && start === old.length) return { bytes: '', penDirty };
  const col = start < next.length ? next[start]!.col : widthNext;
  let bytes = col === 0 ? `\x1b[${r + 1}H` : `\x1b[${r + 1};${col + 1}H`;
  let pen = '';
  if (start < endNext) {
    const first = next[start]!;
    if (penDirty) bytes += '\x1b[m';
    bytes += first.pen + first.text;
    pen = first.pen;
    for (let k = start + 1; k < endNext; k++) {
      const cell = next[k]!;
      bytes += cell.before + cell.text;
      pen = cell.pen;
    }
  } else if (penDirty) {
    bytes += '\x1b[m';
  }
  // Nothing kept after the changed cells and the old row was longer: clear its tail. (A row
  // that fills the last column never needs this: the old one cannot have been wider.)
  if (endNext === next.length && widthOld > widthNext) {
    if (pen !== '') bytes += '\x1b[m';
    pen = '';
    bytes += '\x1b[K';
  }
  return { bytes, penDirty: pen !== '' };
}
