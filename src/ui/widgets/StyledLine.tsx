import { createElement, memo } from 'react';
import { Box } from 'ink';
import type { Line } from '../../view/cell.js';
import { useDisplay } from './Display.js';
import { fitLine } from '../../view/fit.js';
import { tintedText } from './tint.js';

/**
 * One terminal row of styled segments, clipped to `width` by display width: it never wraps.
 *
 * The row's text node is Ink's own `ink-text` host element given a fixed `width` x 1 size,
 * not `<Text>`. Why: Yoga asks Ink to measure a text node whose size is not fixed, and Ink
 * 6.8's measureText keeps every string it ever measured in a module-level Map that is never
 * evicted (ink#986; bounded only in Ink 7, which needs Node 22). A row's text is the whole
 * styled line, and live values (offsets, ages, times) make nearly every frame's rows new
 * strings: about 1 MB of heap per 1,000 poll cycles, some 90 MB over a day. A text node of
 * fixed width and height is never measured (Yoga sizes it from its style), so nothing is
 * cached. The size is exact anyway: the line is already clipped to `width` here, and the row
 * is one terminal line in a box that hides overflow. Its one child is the row's styled string
 * (tint.ts: the bytes nested `<Text>`s would give). test/soak proves the heap stays flat.
 */
export const StyledLine = memo(function StyledLine({ line, width, inverse }: StyledLineProps) {
  const { glyphs, color } = useDisplay();
  const text = tintedText(fitLine(line, width, glyphs.ellipsis), color, inverse);
  return (
    <Box width={width} height={1} flexShrink={0} overflowY="hidden">
      {createElement('ink-text', { style: { width, height: 1, flexShrink: 0, flexGrow: 0, flexDirection: 'row', textWrap: 'truncate' } }, text)}
    </Box>
  );
}, sameLine);

type StyledLineProps = { line: Line; width: number; inverse?: boolean };

/**
 * Props equal by content: callers build each frame's lines afresh, so comparing the segments
 * lets React skip the rows whose text and styles did not change (most rows of a table).
 */
function sameLine(a: StyledLineProps, b: StyledLineProps): boolean {
  if (a.width !== b.width || a.inverse !== b.inverse || a.line.length !== b.line.length) return false;
  return a.line.every((c, i) => {
    const d = b.line[i]!;
    return c.text === d.text && c.token === d.token && c.bold === d.bold;
  });
}
