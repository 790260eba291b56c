import { describe, expect, it } from 'vitest';
import { rememberText } from '../../src/ui/terminal/text-memo.js';

describe('rememberText', () => {
  it("gives the function's answers and asks it once per text", () => {
    let calls = 0;
    const upper = rememberText((t: string) => (calls++, t.toUpperCase()));
    expect([upper('a'), upper('b'), upper('a'), upper('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(calls).toBe(2);
  });

  it('remembers undefined answers too', () => {
    let calls = 0;
    const none = rememberText((_t: string) => void calls++);
    none('x');
    none('x');
    expect(calls).toBe(1);
  });

  it('stays bounded, and does not keep texts over the length limit', () => {
    let calls = 0;
    const id = rememberText((t: string) => (calls++, t), 100, 10);
    for (let i = 0; i < 1000; i++) id(`row ${i}`);
    expect(id.size()).toBeLessThanOrEqual(100);
    const bounded = rememberText((t: string) => t, 1000, 100, 250);
    for (let i = 0; i < 100; i++) bounded(`${i}`.padStart(100, '0'));
    expect(bounded.size()).toBeLessThanOrEqual(2);
    const long = 'x'.repeat(11);
    calls = 0;
    id(long);
    id(long);
    expect(calls).toBe(2);
  });
});
