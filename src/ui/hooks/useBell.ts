import { useEffect, useRef } from 'react';
import { useStdout } from 'ink';
import type { Severity } from '../../monitor/health.js';
import { severityRank } from '../../monitor/health.js';

export const BEL = '\x07';

/**
 * Rings the terminal bell once each time the verdict worsens (ok -> warning -> critical, or
 * ok -> critical), never when it improves and never again while it stays. Written to the raw
 * stream: Ink's own `write` would re-render the frame around it.
 */
export function useBell(severity: Severity, enabled: boolean): void {
  const { stdout } = useStdout();
  const previous = useRef<Severity>('ok');
  useEffect(() => {
    const before = previous.current;
    previous.current = severity;
    if (enabled && severityRank[severity] > severityRank[before]) stdout.write(BEL);
  }, [severity, enabled, stdout]);
}
