import { useEffect, useState } from 'react';
import { useStdout } from 'ink';
import type { Size } from '../layout.js';

const FALLBACK: Size = { columns: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream): Size {
  return { columns: stdout.columns || FALLBACK.columns, rows: stdout.rows || FALLBACK.rows };
}

/** The terminal's size, following 'resize' events; a fixed `override` (tests) wins. */
export function useTerminalSize(override?: Size): Size {
  const { stdout } = useStdout();
  const [size, setSize] = useState<Size>(() => read(stdout));
  useEffect(() => {
    if (override) return;
    const onResize = () => {
      const next = read(stdout);
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, override]);
  return override ?? size;
}
