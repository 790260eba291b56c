import type { ReactNode } from 'react';
import { Box } from 'ink';
import stringWidth from 'string-width';
import type { Line } from '../../view/cell.js';
import { cell } from '../../view/cell.js';
import { useDisplay } from './Display.js';
import { StyledLine } from './StyledLine.js';

/**
 * A pane: a one-line title rule (number key, name, data age, extra state), then a body clipped
 * to a fixed height. Box borders would cost two lines and cannot carry text in Ink 6.8; the
 * rule costs one and shows focus without color: a heavy (or `=`) rule and a marker.
 */
export function PaneFrame({
  index,
  title,
  status,
  focused,
  width,
  height,
  children,
}: {
  index?: number | undefined;
  title: string;
  status: Line;
  focused: boolean;
  width: number;
  height: number;
  children: ReactNode;
}) {
  const { glyphs } = useDisplay();
  if (height <= 0) return null;
  const rule = focused ? glyphs.ruleFocus : glyphs.ruleLine;
  const head: Line = [
    cell(`${rule}${focused ? glyphs.selected : rule} `, focused ? 'focus' : 'muted', focused),
    cell(`${index === undefined ? '' : `${index} `}${title}`, focused ? 'focus' : 'title', true),
    cell(' '),
    ...status,
    cell(' '),
  ];
  const used = head.reduce((s, c) => s + stringWidth(c.text), 0);
  head.push(cell(rule.repeat(Math.max(0, width - used)), focused ? 'focus' : 'muted'));
  return (
    <Box flexDirection="column" width={width} height={height} overflowY="hidden" flexShrink={0}>
      <StyledLine line={head} width={width} />
      {height > 1 ? (
        <Box flexDirection="column" width={width} height={height - 1} overflowY="hidden">
          {children}
        </Box>
      ) : null}
    </Box>
  );
}
