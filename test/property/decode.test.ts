/**
 * decode() on anything a device could send: mutated fixtures of every operation and arbitrary
 * JSON or text. It never throws, and answers either data or an ApiError with a kind and a
 * sentence; the sentence (which may quote device text) is safe once it reaches the snapshot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/api/client.js';
import { operationNames, type OperationName } from '../../src/api/endpoints.js';
import type { Result } from '../../src/api/errors.js';
import { toSnapshotError } from '../../src/model/sanitize.js';
import { arbitraryBody, firstUnsafe, fixtures, numRuns, operationBody, prototypeKeys, timeoutFor } from './arbitraries.js';

const kinds = new Set(['network', 'http', 'protocol', 'device', 'auth']);

/** Data, or an error with a known kind and a non-empty sentence that prints safely. */
function wellFormed(r: Result<unknown>): string | null {
  if (r.ok) return r.data === undefined || r.data === null ? 'ok without data' : null;
  if (!kinds.has(r.error.kind)) return `unknown kind ${r.error.kind}`;
  if (typeof r.error.message !== 'string' || r.error.message.trim() === '') return 'empty message';
  const safe = toSnapshotError(r.error);
  return firstUnsafe(safe.message) ?? (safe.code !== undefined ? firstUnsafe(safe.code) : null);
}

describe('decode', () => {
  it.each(['ntp', 'gnss', 'alarm', 'ptp'] as const)('a body nested 100,000 levels deep for %s: a protocol error, no crash', (op) => {
    const depth = 100_000;
    for (const body of ['['.repeat(depth) + ']'.repeat(depth), '{"success":true,"data":' + '['.repeat(depth) + ']'.repeat(depth) + '}']) {
      const r = decode(op, body);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('protocol');
    }
  });

  it('has a fixture for every operation to mutate', () => {
    for (const op of operationNames) expect(fixtures.some((f) => f.op === op), op).toBe(true);
  });

  it.each(operationNames)('mutated fixtures of %s: never throws, data or a sentence', (op: OperationName) => {
    fc.assert(
      fc.property(operationBody(op), (body) => {
        const problem = wellFormed(decode(op, body));
        if (problem) throw new Error(problem);
      }),
      { numRuns },
    );
  }, timeoutFor(2));

  it('arbitrary JSON and text for any operation: never throws, data or a sentence', () => {
    fc.assert(
      fc.property(fc.constantFrom(...operationNames), arbitraryBody, (op, body) => {
        const problem = wellFormed(decode(op, body));
        if (problem) throw new Error(problem);
      }),
      { numRuns },
    );
  }, timeoutFor(2));

  // Found by the property above: errorCode "toString" used to find Object.prototype.toString in
  // the table of documented codes and produce an error without a message.
  it.each(prototypeKeys)('errorCode "%s" is an undocumented device error with its raw fields', (code) => {
    const r = decode('alarm', JSON.stringify({ success: false, errorCode: code, errorMessage: 'x', showType: 9 }));
    expect(r).toEqual({
      ok: false,
      error: { kind: 'device', code, message: `the device reported an error it does not document (errorCode=${code} errorMessage=x showType=9)` },
    });
  });
});
