/**
 * The remembering tokenizer Ink's Output uses in the bundle gives the package's own answers:
 * for random styled text (colours, 256/true colour, bold and dim together, resets, links),
 * asked once and again, and rows made of characters from several texts and blank cells.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as pkg from '@alcalzone/ansi-tokenize';
import { PIECES_CHAR_BUDGET, PIECES_MEMO_SIZE, piecesMemoSize, styledCharsOf, styledCharsToString } from '../../src/ui/terminal/ink-styled-chars.js';

const pieces = [
  'a', 'LOCKED', ' ', '●', '東', '👍', '─', 'µ',
  '\x1b[1m', '\x1b[2m', '\x1b[22m', '\x1b[31m', '\x1b[32m', '\x1b[39m', '\x1b[41m', '\x1b[49m', '\x1b[0m', '\x1b[m',
  '\x1b[38;5;208m', '\x1b[38;2;10;20;30m', '\x1b[4m', '\x1b[24m', '\x1b[7m', '\x1b[27m', '\x1b[90m', '\x1b[96m',
  '\x1b]8;;https://example.net\x07', '\x1b]8;;\x07',
  // Malformed or cut sequences, and the C1 escape.
  '\x1b', '\x1b[', '\x1b[3', '\x1b[1;', '\x1b]8;;', '\x07', '\x9b', '\x9b31m', '[', 'm', ';', '\u0301', '\ufe0f', '🇩', '🇪',
];
const styledText = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(''));
/** What Ink's Output does with a text: its styled characters, then a row of them back to a string. */
const viaPackage = (text: string) => pkg.styledCharsToString(pkg.styledCharsFromTokens(pkg.tokenize(text)));
const viaMemo = (text: string) => styledCharsToString(styledCharsOf(text));

describe('Ink styled characters, remembered', () => {
  it('a text gives the package characters and string, the first and second time', () => {
    fc.assert(
      fc.property(styledText, (text) => {
        const expected = pkg.styledCharsFromTokens(pkg.tokenize(text));
        for (let round = 0; round < 2; round++) {
          const chars = styledCharsOf(text);
          expect(chars.map((c) => ({ ...c, styles: [...c.styles] }))).toEqual(expected);
          expect(viaMemo(text)).toBe(viaPackage(text));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a grid row of several texts and blank cells reads as the package writes it', () => {
    const blank = (): pkg.StyledChar => ({ type: 'char', value: ' ', fullWidth: false, styles: [] });
    fc.assert(
      fc.property(fc.array(fc.oneof(styledText, fc.constant(null)), { maxLength: 6 }), (parts) => {
        const ours: pkg.StyledChar[] = [];
        const theirs: pkg.StyledChar[] = [];
        for (const part of parts) {
          if (part === null) {
            ours.push(blank(), blank());
            theirs.push(blank(), blank());
          } else {
            ours.push(...styledCharsOf(part));
            theirs.push(...pkg.styledCharsFromTokens(pkg.tokenize(part)));
          }
        }
        expect(styledCharsToString(ours)).toBe(pkg.styledCharsToString(theirs));
      }),
      { numRuns: 2000 },
    );
  });

  it('stays bounded however many distinct texts it sees', () => {
    for (let i = 0; i < PIECES_MEMO_SIZE + 10; i++) styledCharsOf(`\x1b[32mrow ${i}\x1b[39m`);
    expect(piecesMemoSize().pieces).toBeLessThanOrEqual(PIECES_MEMO_SIZE);
    // Pieces of a thousand characters each: bounded by their characters, not only by count.
    for (let i = 0; i < 1000; i++) styledCharsOf(`\x1b[32m${String(i).padStart(1000, '.')}`);
    expect(piecesMemoSize().characters).toBeLessThanOrEqual(PIECES_CHAR_BUDGET);
    const long = `\x1b[1m${'x'.repeat(10_000)}\x1b[22m`;
    expect(viaMemo(long)).toBe(viaPackage(long));
  });
});
