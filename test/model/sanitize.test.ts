import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, sanitizeDeep, sanitizeText } from '../../src/model/sanitize.js';

const ESC = '\x1b';

describe('sanitizeText escapes what could tamper with the terminal', () => {
  it.each<[string, string, string]>([
    ['title OSC', `${ESC}]0;pwned${'\x07'}ok`, '\\x1b]0;pwned\\x07ok'],
    ['OSC 52 clipboard', `${ESC}]52;c;cm0gLXJmIH4=${'\x07'}`, '\\x1b]52;c;cm0gLXJmIH4=\\x07'],
    ['OSC 8 link', `${ESC}]8;;http://evil${ESC}\\click${ESC}]8;;${ESC}\\`, '\\x1b]8;;http://evil\\x1b\\click\\x1b]8;;\\x1b\\'],
    ['screen clear', `${ESC}[2Jx`, '\\x1b[2Jx'],
    ['SGR', `${ESC}[31mred${ESC}[0m`, '\\x1b[31mred\\x1b[0m'],
    ['DCS', `${ESC}Pq#0${ESC}\\`, '\\x1bPq#0\\x1b\\'],
    ['BEL', 'a\x07b', 'a\\x07b'],
    ['TAB CR LF', 'a\tb\rc\nd', 'a\\x09b\\x0dc\\x0ad'],
    ['NUL and DEL', 'a\x00b\x7f', 'a\\x00b\\x7f'],
    ['C1 CSI', 'a\x9b2Jb', 'a\\x9b2Jb'],
    ['C1 OSC', '\x9d0;t\x9c', '\\x9d0;t\\x9c'],
    ['bidi override', 'abc\u202Eevil\u202C', 'abc\\u{202E}evil\\u{202C}'],
    ['bidi isolate', '\u2066x\u2069', '\\u{2066}x\\u{2069}'],
    ['LRM RLM ALM', '\u200E\u200F\u061C', '\\u{200E}\\u{200F}\\u{061C}'],
    ['zero-width space', 'ad\u200Bmin', 'ad\\u{200B}min'],
    ['zero-width joiner outside emoji', 'a\u200Db', 'a\\u{200D}b'],
    ['word joiner and BOM', '\u2060x\uFEFF', '\\u{2060}x\\u{FEFF}'],
    ['soft hyphen', 'pass\u00ADword', 'pass\\xadword'],
    ['Mongolian vowel separator', 'a\u180Eb', 'a\\u{180E}b'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c'],
    ['tag characters', 'hi\u{E0041}\u{E007F}', 'hi\\u{E0041}\\u{E007F}'],
    ['lone high surrogate', 'a\uD800b', 'a\\u{D800}b'],
    ['lone low surrogate', 'a\uDC00', 'a\\u{DC00}'],
  ])('%s', (_name, input, expected) => {
    const out = sanitizeText(input);
    expect(out).toBe(expected);
    expect(hasUnsafeCharacters(input)).toBe(true);
    expect(hasUnsafeCharacters(out)).toBe(false);
    expect(out).not.toContain(ESC);
  });
});

describe('sanitizeText replaces unassigned and private-use code points', () => {
  // string-width counts these as one column and tmux as none: the screen model would drift.
  it.each<[string, string, string]>([
    ['unassigned U+103FF', 'a\u{103FF}b', 'a\uFFFDb'],
    ['private use U+E000', '\uE000x', '\uFFFDx'],
    ['supplementary private use U+F0000 and U+10FFFD', '\u{F0000}\u{10FFFD}', '\uFFFD\uFFFD'],
    ['noncharacters U+FFFE and U+FFFF', '\uFFFE\uFFFF', '\uFFFD\uFFFD'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
    expect(sanitizeText(sanitizeText(input))).toBe(expected);
  });
});

describe('sanitizeText leaves ordinary text alone', () => {
  it.each<[string, string]>([
    ['ASCII', 'ntp1.example.org'],
    ['IPv6 in brackets', '[::ffff:192.0.2.1]'],
    ['CJK', '卫星接收机 一号'],
    ['emoji', 'ok ✅ 🛰️ 👍🏽'],
    ['emoji ZWJ sequence', 'family 👨‍👩‍👧 tech 👩🏽‍💻'],
    ['accents and combining marks', 'Zürich e\u0301'],
    ['backslash text', 'C:\\path\\x1b'],
    ['empty', ''],
  ])('%s', (_name, input) => {
    expect(sanitizeText(input)).toBe(input);
    expect(hasUnsafeCharacters(input)).toBe(false);
  });
});

describe('sanitizeText truncation', () => {
  it('truncates to maxLength characters with an ellipsis', () => {
    expect(sanitizeText('abcdefghij', 5)).toBe('abcd…');
    expect(sanitizeText('abcde', 5)).toBe('abcde');
    expect(Array.from(sanitizeText('x'.repeat(1000))).length).toBe(256);
  });

  it('never splits a surrogate pair', () => {
    const out = sanitizeText('🛰🛰🛰🛰', 3);
    expect(out).toBe('🛰🛰…');
    expect(hasUnsafeCharacters(out)).toBe(false);
  });

  it('never splits an escape', () => {
    expect(sanitizeText(`ab${ESC}cdef`, 5)).toBe('ab…');
    expect(sanitizeText(`ab${ESC}cdef`, 7)).toBe('ab\\x1b…');
  });

  it('gives an empty string for a zero length', () => {
    expect(sanitizeText('abc', 0)).toBe('');
  });
});

describe('sanitizeText is idempotent', () => {
  it.each([
    `${ESC}]0;x\x07 \u202E \u200B 中文 👨‍👩‍👧`,
    'a\uD800b\u{E0041}',
    'plain',
    `${'y'.repeat(300)}\x1b`,
  ])('%j', (input) => {
    const once = sanitizeText(input);
    expect(sanitizeText(once)).toBe(once);
  });
});

describe('sanitizeDeep', () => {
  it('sanitizes every string of a JSON value and returns a new value', () => {
    const input = {
      name: `a${ESC}[2J`,
      list: ['ok', '\u202Ex', 3, null, true],
      nested: { deep: [{ s: '\x9b' }] },
      [`k${ESC}`]: 'v',
      n: 1.5,
    };
    const out = sanitizeDeep(input);
    expect(out).toEqual({
      name: 'a\\x1b[2J',
      list: ['ok', '\\u{202E}x', 3, null, true],
      nested: { deep: [{ s: '\\x9b' }] },
      'k\\x1b': 'v',
      n: 1.5,
    });
    expect(out).not.toBe(input);
    expect(input.name).toBe(`a${ESC}[2J`);
  });

  it('turns non-finite numbers into null', () => {
    expect(sanitizeDeep({ a: Number.NaN, b: [Number.POSITIVE_INFINITY], c: 0 })).toEqual({ a: null, b: [null], c: 0 });
  });

  it('passes primitives through', () => {
    expect(sanitizeDeep('x\x07')).toBe('x\\x07');
    expect(sanitizeDeep(null)).toBeNull();
    expect(sanitizeDeep(7)).toBe(7);
  });
});
