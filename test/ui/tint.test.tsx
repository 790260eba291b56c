import { vi } from 'vitest';

// chalk decides its color level when first imported: force it on, so the comparison is of SGR.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import type { Cell } from '../../src/view/cell.js';
import { palette, type Token } from '../../src/view/theme.js';
import { tintedText } from '../../src/ui/widgets/tint.js';

afterEach(() => cleanup());

const tokens = Object.keys(palette) as Token[];
const cellArb: fc.Arbitrary<Cell> = fc.record(
  { text: fc.constantFrom('', ' ', 'LOCKED', '+41ns', '● 377', '東京', '…'), token: fc.constantFrom(...tokens), bold: fc.boolean() },
  { requiredKeys: ['text'] },
);

/** The row as nested `<Text>`s, the way Ink styles each segment itself. */
function nested(cells: readonly Cell[], color: boolean, inverse: boolean) {
  return (
    <Text>
      {cells.map((c, i) => {
        if (!color) return <Text key={i}>{c.text}</Text>;
        const name = c.token === undefined ? undefined : palette[c.token];
        return (
          <Text key={i} color={name} dimColor={c.token === 'muted' && name === undefined} bold={c.bold} inverse={inverse}>
            {c.text}
          </Text>
        );
      })}
    </Text>
  );
}

describe('tintedText', () => {
  it('is byte for byte what nested Ink Texts give, with and without color', () => {
    fc.assert(
      fc.property(fc.array(cellArb, { maxLength: 8 }), fc.boolean(), fc.boolean(), (cells, color, inverse) => {
        const reference = render(nested(cells, color, inverse)).lastFrame();
        const ours = render(<Text>{tintedText(cells, color, inverse)}</Text>).lastFrame();
        cleanup();
        expect(ours).toBe(reference);
      }),
      { numRuns: 300 },
    );
  });

  it('writes no escape sequence at all without color', () => {
    expect(tintedText([{ text: 'LOCKED', token: 'ok', bold: true }, { text: ' 3s', token: 'muted' }], false, true)).toBe('LOCKED 3s');
  });
});
