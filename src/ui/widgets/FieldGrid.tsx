import { Box } from 'ink';
import stringWidth from 'string-width';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import type { Field } from '../../view/field.js';
import { useDisplay } from './Display.js';
import { fitLine, fitLineMiddle, lineWidth } from '../../view/fit.js';
import { StyledLine } from './StyledLine.js';

export const FIELD_GAP = 3;

export interface GridShape {
  columns: number;
  rows: number;
  labelWidth: number;
  valueWidth: number;
}

/** Narrowest value column worth adding a grid column for (long values then end in an ellipsis). */
export const MIN_VALUE_WIDTH = 16;

/**
 * How many label/value columns fit in `width`; fields fill column by column. When the fields
 * would need more than `height` lines, more columns are used as long as each value keeps
 * MIN_VALUE_WIDTH (and every whole value its width): a cut value beats a hidden field, and the
 * columns then fill the height, so no line of the pane is left empty. Pure.
 */
export function gridShape(fields: readonly Field[], width: number, maxValueWidth: number, height = Number.POSITIVE_INFINITY): GridShape {
  const labelWidth = Math.max(0, ...fields.map((f) => stringWidth(f.label)));
  const natural = Math.max(1, ...fields.map((f) => lineWidth(f.value)));
  const whole = Math.max(0, ...fields.map((f) => (f.whole ? lineWidth(f.value) : 0)));
  const valueWidth = Math.max(Math.min(natural, maxValueWidth), whole);
  const fit = (value: number) => Math.floor((width + FIELD_GAP) / (labelWidth + 1 + value + FIELD_GAP));
  const naturalColumns = Math.max(1, Math.min(fields.length, fit(valueWidth)));
  const most = Math.max(1, Math.min(fields.length, fit(Math.max(Math.min(valueWidth, MIN_VALUE_WIDTH), whole))));
  let columns = naturalColumns;
  while (Math.ceil(fields.length / columns) > height && columns < most) columns++;
  const balanced = Math.ceil(fields.length / columns);
  const rows = columns > naturalColumns && balanced <= height ? Math.min(height, fields.length) : balanced;
  return { columns, rows, labelWidth, valueWidth };
}

export function gridLines(fields: readonly Field[], width: number, maxValueWidth: number, ellipsis: string, height?: number): Line[] {
  const shape = gridShape(fields, width, maxValueWidth, height);
  // Columns share the whole width: values get what the labels and gaps leave.
  const share = Math.floor((width - (shape.columns - 1) * FIELD_GAP) / shape.columns);
  const valueWidth = Math.max(1, share - shape.labelWidth - 1);
  const lines: Line[] = [];
  for (let r = 0; r < shape.rows; r++) {
    const line: Line = [];
    for (let c = 0; c < shape.columns; c++) {
      const field = fields[c * shape.rows + r];
      if (!field) continue;
      if (c > 0) line.push(cell(' '.repeat(FIELD_GAP)));
      line.push(cell(field.label.padEnd(shape.labelWidth + 1 - (stringWidth(field.label) - field.label.length)), 'muted'));
      const value = field.whole ? fitLineMiddle(field.value, valueWidth, ellipsis) : fitLine(field.value, valueWidth, ellipsis);
      line.push(...value);
      const pad = valueWidth - lineWidth(value);
      if (pad > 0 && fields[(c + 1) * shape.rows + r]) line.push(cell(' '.repeat(pad)));
    }
    lines.push(fitLine(line, width, ellipsis));
  }
  return lines;
}

/** Labelled values in as many columns as fit; clipped to `height` lines with a count of what is hidden. */
export function FieldGrid({ fields, width, height, maxValueWidth = 40 }: { fields: readonly Field[]; width: number; height: number; maxValueWidth?: number }) {
  const { glyphs } = useDisplay();
  if (height <= 0 || fields.length === 0) return null;
  const lines = gridLines(fields, width, maxValueWidth, glyphs.ellipsis, height);
  const fits = lines.length <= height;
  const shown = fits ? lines : lines.slice(0, Math.max(0, height - 1));
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column" width={width} height={shown.length + (fits ? 0 : 1)} overflowY="hidden">
      {shown.map((line, i) => (
        <StyledLine key={i} line={line} width={width} />
      ))}
      {fits ? null : <StyledLine line={[cell(`${glyphs.down} ${hidden} more line${hidden === 1 ? "" : "s"}`, 'muted')]} width={width} />}
    </Box>
  );
}
