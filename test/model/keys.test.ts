/** Label keys from device lists: small whole-number ids only, bounded text, unique and deterministic. */
import { describe, expect, it } from 'vitest';
import { boundedText, idKey, MAX_LABEL_TEXT, uniqueKeys } from '../../src/model/keys.js';

describe('idKey', () => {
  it.each([
    [0, 5, '0'],
    [7, 5, '7'],
    [65_535, 5, '65535'],
    [65_536, 5, '5'],
    [1e21, 1, '1'],
    [0.5, 2, '2'],
    [-1, 3, '3'],
    [Number.NaN, 4, '4'],
    [null, 0, '0'],
    [undefined, 9, '9'],
  ] as const)('%s at position %s -> %s', (id, position, key) => {
    expect(idKey(id, position)).toBe(key);
  });
});

describe('uniqueKeys', () => {
  it.each([
    [[], []],
    [['a', 'b'], ['a', 'b']],
    [['GPS', 'GPS'], ['GPS', 'GPS#2']],
    [['GPS', 'GPS', 'GPS'], ['GPS', 'GPS#2', 'GPS#3']],
    // A repeat never takes the name of a later entry: "A#2" belongs to the third.
    [['A', 'A', 'A#2'], ['A', 'A#3', 'A#2']],
    [['A#2', 'A', 'A'], ['A#2', 'A', 'A#3']],
    [['0', '1', '0', '0'], ['0', '1', '0#2', '0#3']],
  ])('%j -> %j', (names, keys) => {
    expect(uniqueKeys(names)).toEqual(keys);
    expect(new Set(uniqueKeys(names)).size).toBe(names.length);
  });

  it('is deterministic for 2,000 copies of one name', () => {
    const names = Array.from({ length: 2000 }, () => 'x');
    const keys = uniqueKeys(names);
    expect(new Set(keys).size).toBe(2000);
    expect(keys).toEqual(uniqueKeys(names));
  });
});

describe('boundedText', () => {
  it('keeps short text and cuts long text to the bound, by code point', () => {
    expect(boundedText('GPS')).toBe('GPS');
    const long = '😀'.repeat(MAX_LABEL_TEXT + 10);
    const cut = boundedText(long);
    expect(Array.from(cut)).toHaveLength(MAX_LABEL_TEXT);
    expect(cut.endsWith('…')).toBe(true);
    expect(boundedText('a'.repeat(1 << 20))).toHaveLength(MAX_LABEL_TEXT);
  });
});
