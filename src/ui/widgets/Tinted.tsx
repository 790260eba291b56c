import type { ReactNode } from 'react';
import { Text } from 'ink';
import type { Token } from '../../view/theme.js';
import { palette } from '../../view/theme.js';
import { useDisplay } from './Display.js';

/**
 * The only styled Text: with color off it emits no SGR at all (no color, no bold, no inverse),
 * because state is already carried by symbols and words.
 */
export function Tinted({ token, bold, inverse, children }: { token?: Token | undefined; bold?: boolean | undefined; inverse?: boolean | undefined; children: ReactNode }) {
  const { color } = useDisplay();
  if (!color) return <Text>{children}</Text>;
  const c = token === undefined ? undefined : palette[token];
  return (
    <Text color={c} dimColor={token === 'muted' && c === undefined} bold={bold} inverse={inverse}>
      {children}
    </Text>
  );
}
