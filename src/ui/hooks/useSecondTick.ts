import { useEffect, useState } from 'react';

/**
 * Re-renders once per second so ages advance ("12s ago"). Ages are whole seconds, so a tick
 * that changes nothing visible yields the identical frame and Ink writes nothing.
 */
export function useSecondTick(intervalMs = 1000): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => (n + 1) % 1_000_000), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}
