import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Line } from '../renderers/cell.js';
import { useDisplay } from './Display.js';
import { fitLine } from './fit.js';
import { Tinted } from './Tinted.js';

/** One terminal row of styled segments, clipped to `width` by display width: it never wraps. */
export const StyledLine = memo(function StyledLine({ line, width, inverse }: { line: Line; width: number; inverse?: boolean }) {
  const { glyphs } = useDisplay();
  const fitted = fitLine(line, width, glyphs.ellipsis);
  return (
    <Box width={width} height={1} flexShrink={0} overflow="hidden">
      <Text wrap="truncate">
        {fitted.map((c, i) => (
          <Tinted key={i} token={c.token} bold={c.bold} inverse={inverse}>
            {c.text}
          </Tinted>
        ))}
      </Text>
    </Box>
  );
});
