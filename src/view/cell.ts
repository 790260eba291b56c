/**
 * What renderers produce: text with a semantic token, never a color. A Line is one terminal row
 * made of styled segments; widgets clip it to the width they have.
 */
import type { Token } from './theme.js';

export interface Cell {
  text: string;
  token?: Token;
  bold?: boolean;
}

export type Line = Cell[];

export function cell(text: string, token?: Token, bold?: boolean): Cell {
  const out: Cell = { text };
  if (token !== undefined) out.token = token;
  if (bold) out.bold = true;
  return out;
}

/** Plain text of a line, for tests and for width measurement. */
export function lineText(line: Line): string {
  return line.map((c) => c.text).join('');
}

/** Joins groups of cells with a separator cell, skipping empty groups. */
export function joinCells(groups: Line[], separator: string): Line {
  const out: Line = [];
  for (const group of groups) {
    if (group.length === 0) continue;
    if (out.length > 0) out.push(cell(separator, 'muted'));
    out.push(...group);
  }
  return out;
}
