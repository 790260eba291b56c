import { Box } from 'ink';
import stringWidth from 'string-width';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import type { Field } from '../../view/field.js';
import { useDisplay } from './Display.js';
import { fitLine, fitLineMiddle, lineWidth, wrapValue } from '../../view/fit.js';
import { StyledLine } from './StyledLine.js';

export const FIELD_GAP = 3;

export interface GridShape {
  columns: number;
  rows: number;
  labelWidth: number;
  valueWidth: number;
  /** Set when a one-column grid is too tall for its pane: the fields of each line, one or two (see pairLines). */
  paired?: Field[][];
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
  if (naturalColumns === 1 && fields.length > height) {
    const paired = pairLines(fields, width, labelWidth, height);
    if (paired) return { columns: 2, rows: paired.length, labelWidth, valueWidth, paired };
  }
  const most = Math.max(1, Math.min(fields.length, fit(Math.max(Math.min(valueWidth, MIN_VALUE_WIDTH), whole))));
  let columns = naturalColumns;
  while (Math.ceil(fields.length / columns) > height && columns < most) columns++;
  const balanced = Math.ceil(fields.length / columns);
  const rows = columns > naturalColumns && balanced <= height ? Math.min(height, fields.length) : balanced;
  return { columns, rows, labelWidth, valueWidth };
}

/** The value width of each half of a paired line. */
function halfValueWidth(width: number, labelWidth: number): number {
  return Math.floor((width - FIELD_GAP) / 2) - labelWidth - 1;
}

/**
 * A one-column grid that is a few lines too tall for its pane: neighbouring fields share a line
 * (in reading order) until the lines fit `height`. First only fields whose values both fit half
 * the width; if that is not enough, fields still alone with a neighbour alone whatever their width
 * (a cut value beats a hidden field); failing that, neighbours from the start; never a whole value
 * that would be cut.
 * The column-by-column squeeze it replaces cut every value of its first column while its last
 * column left lines empty. Null when even pairing cannot bring the fields into `height` lines.
 */
export function pairLines(fields: readonly Field[], width: number, labelWidth: number, height: number): Field[][] | null {
  const half = halfValueWidth(width, labelWidth);
  if (half < 1 || fields.length > 2 * height) return null;
  const fitsHalf = (f: Field) => lineWidth(f.value) <= half;
  let lines: Field[][] = fields.map((f) => [f]);
  const merge = (may: (a: Field, b: Field) => boolean) => {
    const out: Field[][] = [];
    for (const [i, line] of lines.entries()) {
      const prev = out[out.length - 1];
      const [a, b] = [prev?.[0], line[0]];
      if (out.length + lines.length - i > height && prev?.length === 1 && line.length === 1 && a && b && may(a, b)) prev.push(b);
      else out.push([...line]);
    }
    lines = out;
  };
  const mayCut = (a: Field, b: Field) => (fitsHalf(a) || !a.whole) && (fitsHalf(b) || !b.whole);
  merge((a, b) => fitsHalf(a) && fitsHalf(b));
  // Then the fewest cuts: the lines still alone pair up with a neighbour alone...
  if (lines.length > height) merge(mayCut);
  // ...and only when the pairs made so far leave too few such neighbours, from the start again.
  if (lines.length > height) {
    lines = fields.map((f) => [f]);
    merge(mayCut);
  }
  return lines.length <= height ? lines : null;
}

function fieldCells(field: Field, labelWidth: number, valueWidth: number, ellipsis: string): Line {
  const label = cell(field.label.padEnd(labelWidth + 1 - (stringWidth(field.label) - field.label.length)), 'muted');
  return [label, ...(field.whole ? fitLineMiddle(field.value, valueWidth, ellipsis) : fitLine(field.value, valueWidth, ellipsis))];
}

export function gridLines(fields: readonly Field[], width: number, maxValueWidth: number, ellipsis: string, height?: number): Line[] {
  const shape = gridShape(fields, width, maxValueWidth, height);
  if (shape.paired) {
    const half = halfValueWidth(width, shape.labelWidth);
    return shape.paired.map(([a, b]) => {
      if (!b) return fitLine(fieldCells(a!, shape.labelWidth, width - shape.labelWidth - 1, ellipsis), width, ellipsis);
      const left = fieldCells(a!, shape.labelWidth, half, ellipsis);
      const pad = half + shape.labelWidth + 1 - lineWidth(left) + FIELD_GAP;
      return fitLine([...left, cell(' '.repeat(pad)), ...fieldCells(b, shape.labelWidth, half, ellipsis)], width, ellipsis);
    });
  }
  // Columns share the whole width: values get what the labels and gaps leave.
  const share = Math.floor((width - (shape.columns - 1) * FIELD_GAP) / shape.columns);
  const valueWidth = Math.max(1, share - shape.labelWidth - 1);
  if (shape.columns === 1 && height !== undefined && height > shape.rows) return wrappedLines(fields, shape.labelWidth, valueWidth, height - shape.rows, ellipsis);
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

/** A value that would be cut (an identity: shortened in its middle) in a one-column grid: it may wrap. */
function wraps(field: Field, valueWidth: number): boolean {
  return lineWidth(field.value) > valueWidth;
}

/**
 * A one-column grid with `spare` lines beyond one per field: values that would be cut wrap under
 * themselves, in order, into the lines left (the last one holding the rest, cut where it ends).
 */
function wrappedLines(fields: readonly Field[], labelWidth: number, valueWidth: number, spare: number, ellipsis: string): Line[] {
  let left = spare;
  const indent = cell(' '.repeat(labelWidth + 1));
  return fields.flatMap((field) => {
    const value = left > 0 && wraps(field, valueWidth) ? wrapValue(field.value, valueWidth, left + 1) : [field.value];
    if (value.length === 1) return [fieldCells(field, labelWidth, valueWidth, ellipsis)];
    left -= value.length - 1;
    const [label] = fieldCells(field, labelWidth, valueWidth, ellipsis);
    return value.map((piece, i) => fitLine([i === 0 ? label! : indent, ...piece], labelWidth + 1 + valueWidth, ellipsis));
  });
}

/** Lines a one-column grid of `fields` takes with every value that would be cut wrapped (for a pane's need). */
export function wrappedGridRows(fields: readonly Field[], width: number, maxValueWidth: number): number {
  const shape = gridShape(fields, width, maxValueWidth);
  if (shape.columns !== 1) return shape.rows;
  const valueWidth = Math.max(1, width - shape.labelWidth - 1);
  return fields.reduce((rows, f) => rows + (wraps(f, valueWidth) ? wrapValue(f.value, valueWidth).length : 1), 0);
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
