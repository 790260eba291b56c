/**
 * The floor for synctop's idle cost: a bare Ink 6 app that re-renders 28 coloured rows once a
 * second (what a live monitor's per-second age tick costs Ink itself, with nothing of synctop's).
 * Built by the benchmark like hello.tsx (Ink and React unbundled, from node_modules), run with
 * plain node in a 100x30 pseudo-terminal beside synctop.
 */
import { Box, Text, render } from 'ink';
import { useEffect, useState } from 'react';

const COLORS = ['green', 'yellow', 'cyan', 'red', 'magenta', 'blue', 'white'] as const;
const ROWS = 28;

function Rows() {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Box flexDirection="column">
      {Array.from({ length: ROWS }, (_, i) => (
        <Box key={i}>
          <Text color={COLORS[i % COLORS.length]}>{`row ${String(i + 1).padStart(2)}`}</Text>
          <Text>{`  source 10.20.0.${i + 1}  offset ${((i * 37 + tick) % 997) - 498} us  `}</Text>
          <Text dimColor>{`${tick + i}s ago`}</Text>
        </Box>
      ))}
    </Box>
  );
}

render(<Rows />, { patchConsole: false });
