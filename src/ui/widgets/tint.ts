import chalk from 'chalk';
import type { Cell } from '../../view/cell.js';
import { palette } from '../../view/theme.js';

/**
 * A row's segments as one styled string, exactly as Ink would style them as nested `<Text>`s
 * (its Text transform: dim, then the colour, then bold, then inverse, through the same chalk),
 * so that a row is a single text node for Ink: no nested nodes to walk, transform and squash in
 * every frame, only the row's string, built again when the row changes.
 *
 * With color off no SGR at all (no color, no bold, no inverse): state is already carried by
 * symbols and words. chalk (under Ink) ignores NO_COLOR, so color is decided once (Display).
 */
export function tintedText(cells: readonly Cell[], color: boolean, inverse?: boolean): string {
  let text = '';
  for (const c of cells) {
    if (!color || c.text === '') {
      text += c.text;
      continue;
    }
    const name = c.token === undefined ? undefined : palette[c.token];
    let s = c.text;
    if (c.token === 'muted' && name === undefined) s = chalk.dim(s);
    if (name !== undefined) s = chalk[name as 'green'](s);
    if (c.bold) s = chalk.bold(s);
    if (inverse) s = chalk.inverse(s);
    text += s;
  }
  return text;
}
