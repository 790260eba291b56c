import { Box } from 'ink';
import type { Line } from '../../view/cell.js';
import { StyledLine } from '../widgets/StyledLine.js';

/** The header lines (status, verdict, outage banner), one terminal row each. */
export function Header({ lines, width }: { lines: readonly Line[]; width: number }) {
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {lines.map((line, i) => (
        <StyledLine key={i} line={line} width={width} />
      ))}
    </Box>
  );
}
