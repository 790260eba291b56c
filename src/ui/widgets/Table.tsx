/**
 * The generic table of every pane (NTP sources, PTP ports).
 *
 * Why not @alcalzone/ink-table (the ESM fork of ink-table, which does render under Ink 6.8):
 * it measures cells with String.length (wide/combining characters misalign), cannot clip or
 * drop columns to fit the terminal width, hard-codes box-drawing characters (no ASCII mode),
 * its `cell` prop sees a column index but not the row (so no per-row state color or selection
 * marker), and it hashes every row with object-hash on every render. This widget is ~80 lines:
 * widths on display width (table-layout.ts), optional columns dropped when narrow, a selection
 * marker, and a fixed height that scrolls to keep the selection visible and says how many rows
 * are hidden.
 */
import { useRef } from 'react';
import { Box } from 'ink';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { useDisplay } from './Display.js';
import { StyledLine } from './StyledLine.js';
import type { TableColumn, TableRow } from '../../view/table-layout.js';
import { COLUMN_GAP, layoutColumns, placeText, scrollWindow } from '../../view/table-layout.js';

export interface TableProps<K extends string> {
  columns: readonly TableColumn<K>[];
  rows: readonly TableRow<K>[];
  width: number;
  /** Lines available, header included. */
  height: number;
  /** Index of the selected row; omit for a table without selection. */
  selected?: number | undefined;
}

export function Table<K extends string>({ columns, rows, width, height, selected }: TableProps<K>) {
  const { glyphs } = useDisplay();
  const startRef = useRef(0);
  const marker = selected === undefined ? 0 : 2;
  const placed = layoutColumns(columns, rows, Math.max(1, width - marker));

  const bodyLines = Math.max(0, height - 1);
  const overflow = rows.length > bodyLines;
  const capacity = overflow ? Math.max(1, bodyLines - 1) : rows.length;
  const start = scrollWindow(startRef.current, selected ?? 0, capacity, rows.length);
  startRef.current = start;
  const visible = rows.slice(start, start + capacity);

  const render = (row: TableRow<K> | null, isSelected: boolean): Line => {
    const out: Line = [];
    if (marker) out.push(cell(isSelected ? `${glyphs.selected} ` : '  ', 'focus', true));
    placed.forEach((col, i) => {
      const c = row ? row[col.key] : cell(col.header, 'muted');
      const gap = i < placed.length - 1 ? ' '.repeat(COLUMN_GAP) : '';
      out.push({ ...c, text: placeText(c.text, col, glyphs.ellipsis) + gap });
    });
    return out;
  };

  const above = start;
  const below = rows.length - start - visible.length;
  const hiddenNote: Line = [
    cell(
      [above > 0 ? `${glyphs.up} ${above} more above` : '', below > 0 ? `${glyphs.down} ${below} more below` : '']
        .filter(Boolean)
        .join(`  `),
      'muted',
    ),
  ];

  if (height <= 0) return null;
  return (
    <Box flexDirection="column" width={width} height={Math.min(height, 1 + visible.length + (overflow ? 1 : 0))} overflowY="hidden">
      <StyledLine line={render(null, false)} width={width} />
      {visible.map((row, i) => (
        <StyledLine key={start + i} line={render(row, start + i === selected)} width={width} />
      ))}
      {overflow ? <StyledLine line={hiddenNote} width={width} /> : null}
    </Box>
  );
}
