/**
 * Column widths for the generic Table, on display width (string-width) so wide or combining
 * characters never misalign. Pure: data in, widths out.
 */
import stringWidth from 'string-width';
import type { Cell } from './cell.js';

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
}

export type TableRow<K extends string = string> = Record<K, Cell>;

export interface PlacedColumn<K extends string = string> extends TableColumn<K> {
  width: number;
}

export const COLUMN_GAP = 1;

export function layoutColumns<K extends string>(columns: readonly TableColumn<K>[], rows: readonly TableRow<K>[], width: number): PlacedColumn<K>[] {
  let placed: PlacedColumn<K>[] = columns.map((col) => {
    const natural = Math.max(stringWidth(col.header), ...rows.map((r) => stringWidth(r[col.key]?.text ?? '')));
    return { ...col, width: col.maxWidth !== undefined ? Math.min(natural, col.maxWidth) : natural };
  });
  const total = () => placed.reduce((s, c) => s + c.width, 0) + COLUMN_GAP * Math.max(0, placed.length - 1);

  // First drop optional columns, highest rank first, as long as flex shrinking alone cannot fit.
  const shrinkable = () => placed.reduce((s, c) => s + (c.flex ? Math.max(0, c.width - (c.minWidth ?? 4)) : 0), 0);
  while (total() - shrinkable() > width) {
    const ranks = placed.filter((c) => c.drop !== undefined).map((c) => c.drop!);
    if (ranks.length === 0) break;
    const worst = Math.max(...ranks);
    const idx = placed.findIndex((c) => c.drop === worst);
    placed = placed.filter((_, i) => i !== idx);
  }
  // Then shrink flex columns down to their minimum.
  let excess = total() - width;
  for (const col of placed) {
    if (excess <= 0) break;
    if (!col.flex) continue;
    const give = Math.min(excess, Math.max(0, col.width - (col.minWidth ?? 4)));
    col.width -= give;
    excess -= give;
  }
  return placed;
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
