/**
 * The row-remembering Output the bundle gives Ink's renderer (src/ui/terminal/ink-output.ts)
 * writes exactly what Ink's own Output writes: random writes (styled, multi-line, wide
 * characters, off-grid positions), nested clips and transformers, frame after frame so that
 * remembered rows are used, and rows that change between frames.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
// Ink's package exports only its entry; its Output is read from the file, as Ink's renderer does.
import InkOutput from '../../node_modules/ink/build/output.js';
import Output, { ROW_MEMO_BUDGET, ROW_MEMO_SIZE, rowMemoSize, rowStats } from '../../src/ui/terminal/ink-output.js';

type Op =
  | { type: 'write'; x: number; y: number; text: string; transform: boolean }
  | { type: 'clip'; clip: { x1?: number; x2?: number; y1?: number; y2?: number } }
  | { type: 'unclip' };

const pieces = ['a', 'row', ' ', '●', '東', '👍', '─', '\n', '\x1b[32m', '\x1b[39m', '\x1b[1m', '\x1b[22m', '\x1b[2m', '\x1b[7m', '\x1b[27m', '\x1b[0m'];
const text = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 16 }).map((p) => p.join(''));
const maybe = (arb: fc.Arbitrary<number>) => fc.option(arb, { nil: undefined });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('write' as const), x: fc.integer({ min: -4, max: 34 }), y: fc.integer({ min: -3, max: 12 }), text, transform: fc.boolean().map((b) => b && Math.random() < 0.2) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('clip' as const),
      clip: fc.record({ x1: maybe(fc.integer({ min: -2, max: 20 })), x2: maybe(fc.integer({ min: 0, max: 34 })), y1: maybe(fc.integer({ min: -2, max: 8 })), y2: maybe(fc.integer({ min: 0, max: 12 })) }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'unclip' as const }) },
);
const transformer = (line: string, index: number) => `<${index}>${line}`;

function frame(O: new (o: { width: number; height: number }) => { write: Function; clip: Function; unclip: Function; get: () => { output: string; height: number } }, size: { width: number; height: number }, ops: readonly Op[]) {
  const out = new O(size);
  for (const o of ops) {
    if (o.type === 'write') out.write(o.x, o.y, o.text, { transformers: o.transform ? [transformer] : [] });
    else if (o.type === 'clip') out.clip(o.clip);
    else out.unclip();
  }
  return out.get();
}

describe("Ink's Output, rows remembered", () => {
  it('writes what Ink writes, frame after frame', () => {
    const size = fc.record({ width: fc.integer({ min: 1, max: 30 }), height: fc.integer({ min: 1, max: 10 }) });
    fc.assert(
      fc.property(size, fc.array(fc.array(op, { maxLength: 14 }), { minLength: 1, maxLength: 4 }), (s, frames) => {
        // Each frame is drawn twice (the second time from remembered rows), then the next one.
        for (const ops of frames) {
          for (let round = 0; round < 2; round++) expect(frame(Output, s, ops)).toEqual(frame(InkOutput as never, s, ops));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('takes unchanged rows from memory', () => {
    const ops: Op[] = [
      { type: 'write', x: 0, y: 0, text: '\x1b[32mLOCKED\x1b[39m 12 satellites', transform: false },
      { type: 'write', x: 0, y: 1, text: 'offset +41 ns', transform: false },
    ];
    frame(Output, { width: 40, height: 3 }, ops);
    const before = { ...rowStats };
    const changed: Op[] = [ops[0]!, { type: 'write', x: 0, y: 1, text: 'offset +42 ns', transform: false }];
    expect(frame(Output, { width: 40, height: 3 }, changed)).toEqual(frame(InkOutput as never, { width: 40, height: 3 }, changed));
    expect(rowStats.remembered - before.remembered).toBeGreaterThanOrEqual(1);
    expect(rowStats.painted - before.painted).toBeGreaterThanOrEqual(1);
  });

  it('stays bounded however many distinct rows it paints', () => {
    for (let i = 0; i < ROW_MEMO_SIZE + 10; i++) frame(Output, { width: 20, height: 1 }, [{ type: 'write', x: 0, y: 0, text: `row ${i}`, transform: false }]);
    expect(rowMemoSize().rows).toBeLessThanOrEqual(ROW_MEMO_SIZE);
    // Long rows are bounded by their characters, not only by count.
    const long = 'x'.repeat(1000);
    for (let i = 0; i < 200; i++) frame(Output, { width: 1010, height: 1 }, [{ type: 'write', x: 0, y: 0, text: `${i} ${long}`, transform: false }]);
    expect(rowMemoSize().characters).toBeLessThanOrEqual(ROW_MEMO_BUDGET);
  });
});
