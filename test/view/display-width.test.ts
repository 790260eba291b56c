import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import stringWidth from 'string-width';
import displayWidth, { DISPLAY_WIDTH_MEMO_SIZE, displayWidthMemoSize } from '../../src/view/display-width.js';

describe('displayWidth: string-width, remembered', () => {
  const cases: [string, string][] = [
    ['empty', ''],
    ['printable ASCII', 'NTP  10.20.0.11  offset +41.3 us  3s ago'],
    ['box rule and ellipsis', '─── GNSS ───────…'],
    ['micro sign', 'offset 12.0 µs'],
    ['CJK (two columns each)', '東京 GPS 受信機'],
    ['emoji cluster', 'ok 👍🏽 👨‍👩‍👧'],
    ['combining mark', 'e\u0301te\u0301'],
    ['styled (ANSI does not count)', '\x1b[32mLOCKED\x1b[39m \x1b[1m3\x1b[22m'],
    ['control characters', 'a\tb\x07c'],
  ];
  it.each(cases)('%s: the same width as string-width, first and second time', (_name, text) => {
    const expected = stringWidth(text);
    expect(displayWidth(text)).toBe(expected);
    expect(displayWidth(text)).toBe(expected);
  });

  it('passes options through unremembered', () => {
    const text = '\x1b[31m±·\x1b[39m';
    expect(displayWidth(text, { ambiguousIsNarrow: false })).toBe(stringWidth(text, { ambiguousIsNarrow: false }));
    expect(displayWidth(text, { countAnsiEscapeCodes: true })).toBe(stringWidth(text, { countAnsiEscapeCodes: true }));
  });

  it('stays bounded however many distinct strings it measures', () => {
    for (let i = 0; i < DISPLAY_WIDTH_MEMO_SIZE * 2 + 7; i++) expect(displayWidth(`row ${i} ─`)).toBe(6 + String(i).length);
    expect(displayWidthMemoSize()).toBeLessThanOrEqual(DISPLAY_WIDTH_MEMO_SIZE);
    const long = '─'.repeat(5000);
    expect(displayWidth(long)).toBe(5000);
  });
});

describe('displayWidth: the narrow fast path agrees with string-width', () => {
  // Every character the fast path counts, its neighbours on both sides, and SGR sequences.
  const alphabet = [
    ...Array.from({ length: 0x300 - 0x18 }, (_, i) => String.fromCharCode(0x18 + i)),
    ...Array.from({ length: 0xa4 }, (_, i) => String.fromCharCode(0x24fe + i)),
    // The symbol blocks (U+2010-U+2BFF, summed per character) and their edges.
    ...Array.from({ length: 0x2c08 - 0x2000 }, (_, i) => String.fromCharCode(0x2000 + i)),
    '\u0300', '\u20e3', '\ufe0e', '\ufe0f', '\u{1f3fd}', '\x1b[m', '\x1b[1;32m', '\x1b[39m', '\x1b[2K', '\x1b', '[', 'm', '東', '👍',
  ];
  it('for random strings over that alphabet', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(displayWidth(text)).toBe(stringWidth(text));
      }),
      { numRuns: 3000 },
    );
  });
  it('for symbols next to joiners, variation selectors, keycaps and skin tones', () => {
    const symbols = ['●', '○', '◆', '▶', '◀', '↑', '↓', '⌚', '⭐', '☀', '✓', '⚠', '⠿', '‼', '™', '€'];
    const joiners = ['\u200d', '\ufe0e', '\ufe0f', '\u20e3', '\u{1f3fd}', '\u0301', '\x1b[1m', 'a'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...symbols, ...joiners), { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        expect(displayWidth(text)).toBe(stringWidth(text));
      }),
      { numRuns: 3000 },
    );
  });
  it('for every single character of that alphabet', () => {
    for (const ch of alphabet) expect(displayWidth(`a${ch}b`), JSON.stringify(ch)).toBe(stringWidth(`a${ch}b`));
  });
});
