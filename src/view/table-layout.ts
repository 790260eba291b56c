/**
 * Column widths for the generic Table, on display width (string-width) so wide or combining
 * characters never misalign. Pure: data in, widths out.
 */
import stringWidth from 'string-width';
import type { Cell } from './cell.js';
import { padText, shortenMiddle } from './fit.js';

export interface TableColumn<K extends string = string> {
  key: K;
  header: string;
  align?: 'left' | 'right';
  /** This column gives up width first (down to minWidth) when the row is too wide. */
  flex?: boolean;
  minWidth?: number;
  maxWidth?: number;
  /** Columns with a drop rank disappear when space runs out, highest rank first. */
  drop?: number;
  /**
   * An identity a technician copies or compares (a source address, a clock identity): never
   * capped, never cut while a droppable column is still shown, and when the essential columns
   * alone are wider than the terminal, shortened in its middle so both ends stay readable.
   */
  identity?: boolean;
}

export type TableRow<K extends string = string> = Record<K, Cell>;

export interface PlacedColumn<K extends string = string> extends TableColumn<K> {
  width: number;
}

export const COLUMN_GAP = 1;

/** An identity is not shortened below this many columns (then the row is clipped at its end). */
export const IDENTITY_MIN_WIDTH = 12;

export function naturalWidth<K extends string>(col: TableColumn<K>, rows: readonly TableRow<K>[]): number {
  let natural = stringWidth(col.header);
  for (const r of rows) natural = Math.max(natural, stringWidth(r[col.key]?.text ?? ''));
  return col.maxWidth !== undefined && !col.identity ? Math.min(natural, col.maxWidth) : natural;
}

/**
 * Widths for `width` columns. What gives way, in order: droppable columns (highest rank first)
 * unless shrinking the flexible ones would do, then the flexible columns down to their minimum,
 * then, only when nothing droppable is left, the identities (in their middle, see Table).
 */
export function layoutColumns<K extends string>(columns: readonly TableColumn<K>[], rows: readonly TableRow<K>[], width: number): PlacedColumn<K>[] {
  let placed: PlacedColumn<K>[] = columns.map((col) => ({ ...col, width: naturalWidth(col, rows) }));
  const total = () => placed.reduce((s, c) => s + c.width, 0) + COLUMN_GAP * Math.max(0, placed.length - 1);
  const flexible = (c: PlacedColumn<K>) => c.flex === true && !c.identity;

  // First drop optional columns, highest rank first, as long as flex shrinking alone cannot fit.
  const shrinkable = () => placed.reduce((s, c) => s + (flexible(c) ? Math.max(0, c.width - (c.minWidth ?? 4)) : 0), 0);
  while (total() - shrinkable() > width) {
    let worst = -Infinity;
    for (const c of placed) if (c.drop !== undefined && c.drop > worst) worst = c.drop;
    if (worst === -Infinity) break;
    const idx = placed.findIndex((c) => c.drop === worst);
    placed = placed.filter((_, i) => i !== idx);
  }
  // Then shrink flex columns down to their minimum.
  let excess = total() - width;
  for (const col of placed) {
    if (excess <= 0) break;
    if (!flexible(col)) continue;
    const give = Math.min(excess, Math.max(0, col.width - (col.minWidth ?? 4)));
    col.width -= give;
    excess -= give;
  }
  // Last, the identities, the widest first, each down to its minimum.
  for (const col of [...placed].filter((c) => c.identity).sort((a, b) => b.width - a.width)) {
    if (excess <= 0) break;
    const give = Math.min(excess, Math.max(0, col.width - (col.minWidth ?? IDENTITY_MIN_WIDTH)));
    col.width -= give;
    excess -= give;
  }
  return placed;
}

/** A cell's text fitted to its placed column: identities shortened in the middle, the rest at the end. */
export function placeText(text: string, col: PlacedColumn, ellipsis: string): string {
  if (!col.identity || stringWidth(text) <= col.width) return padText(text, col.width, col.align ?? 'left', ellipsis);
  return padText(shortenMiddle(text, col.width, ellipsis), col.width, col.align ?? 'left', ellipsis);
}

/** True when an identity column is narrower than its text while a droppable column is shown (never should be). */
export function cutsIdentity<K extends string>(placed: readonly PlacedColumn<K>[], rows: readonly TableRow<K>[]): boolean {
  if (!placed.some((c) => c.drop !== undefined)) return false;
  return placed.some((c) => c.identity && rows.some((r) => stringWidth(r[c.key]?.text ?? '') > c.width));
}

/**
 * Which rows a fixed-height list shows: the window moves only as far as needed to keep the
 * selection visible (no jumping), and stays within the list.
 */
export function scrollWindow(previousStart: number, selected: number, capacity: number, total: number): number {
  if (capacity <= 0 || total <= capacity) return 0;
  let start = Math.min(Math.max(0, previousStart), total - capacity);
  if (selected < start) start = selected;
  else if (selected >= start + capacity) start = selected - capacity + 1;
  return Math.max(0, Math.min(start, total - capacity));
}
