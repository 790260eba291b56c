import { describe, expect, it } from 'vitest';
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
