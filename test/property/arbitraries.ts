/**
 * Generators for the property tests: every fixture in fixtures/, mutated the ways a broken or
 * hostile device could spoil it (fields removed or retyped, huge and NaN-like numbers, deep
 * nesting, long and hostile strings), whole-body damage (truncation, garbage), and the checks
 * every output must pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { OperationName } from '../../src/api/endpoints.js';

/** Runs per property: 1,000 in `npm test`, far more under `npm run fuzz`. */
export const numRuns = Number(process.env.FUZZ_RUNS ?? 1000);

/**
 * A test's time limit from the runs it makes: `npm run fuzz` (100,000 runs) must not trip the
 * 20 s default. `msPerRun` is a generous figure for this 2-core machine.
 */
export const timeoutFor = (msPerRun: number) => Math.max(20_000, Math.ceil(numRuns * msPerRun));

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The operation of an error fixture, as fixtures/README.md lists it. */
const errorFixtureOps: Record<string, OperationName> = {
  'error-40000.json': 'gnss',
  'error-40003.json': 'gnss',
  'error-40004.json': 'ptp',
  'error-40007.json': 'ntp',
  'error-unknown.json': 'alarm',
};

function operationOf(file: string): OperationName {
  const byError = errorFixtureOps[file];
  if (byError) return byError;
  const op = /^(?:hostile-strings-)?(ntp|gnss|alarm|ptp)[-.]/.exec(file)?.[1];
  if (!op) throw new Error(`fixtures/${file}: no operation known for it; add it to test/property/arbitraries.ts`);
  return op as OperationName;
}

export interface Fixture {
  file: string;
  op: OperationName;
  body: unknown;
}

/** Every JSON file in fixtures/: a new fixture is fuzzed without anyone listing it. */
export const fixtures: Fixture[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, op: operationOf(file), body: JSON.parse(readFileSync(dir + file, 'utf8')) as unknown }));

export const fixturesOf = (op: OperationName) => fixtures.filter((f) => f.op === op);

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/** Terminal attacks and awkward text: escapes, C1 controls, bidi, invisible and wide characters. */
const nasty = [
  '\x1b]0;PWNED\x07',
  '\x1b]52;c;cm0gLXJmIH4vKg==\x07',
  '\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\',
  '\x1b[2J\x1b[H',
  '\x1b[31m',
  '\x1bP+q\x1b\\',
  '\x9b2J',
  '\x9d0;title\x9c',
  '\x07',
  '\x00',
  '\r',
  '\n',
  '\t',
  '\x7f',
  '\u202e',
  '\u2066',
  '\u200f',
  '\u061c',
  '\u200b',
  '\ufeff',
  '\u{e0041}',
  '\ud800',
  '\udfff',
  '👨‍👩‍👧',
  '漢字',
  '\u0301',
  '\\x1b',
  '%s%n',
  '<title>x</title>',
];

/**
 * Names of Object.prototype members: a lookup table indexed by a device string finds these
 * unless it has no prototype (src/model/lookup.ts). Device states, units, constellations and
 * error codes are all looked up in such tables.
 */
export const prototypeKeys = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'] as const;

export const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.oneof(fc.constantFrom(...nasty), fc.string({ maxLength: 6 })), { maxLength: 8 }).map((parts) => parts.join('')),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '-0', '0x1F', '', ' ', 'None', 'null', '377', '+12ns[+13ns] +/- 1ms'),
  fc.constantFrom(...prototypeKeys),
);

/** Long text: the sanitizer truncates, the views cut; nothing may grow without bound. */
const longString = fc
  .tuple(fc.constantFrom('a', '漢', '\x1b', '\u202e', '👍', '9'), fc.integer({ min: 257, max: 20_000 }))
  .map(([unit, n]) => unit.repeat(n));

const hugeNumber = fc.constantFrom(1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 1e21, 5e-324, -0);

/**
 * A value nested `depth` levels deep (arrays or objects). Kept to 500 levels: the generator
 * clones bodies with structuredClone, whose recursion overflows the worker's stack near a few
 * thousand levels (a far deeper body is tested on its own in decode.test.ts).
 */
const deep = fc.tuple(fc.integer({ min: 2, max: 500 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 'bottom\x1b[2J';
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { n: v };
  return v;
});

/** Anything a field could be replaced with. */
export const replacement: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// ---------------------------------------------------------------------------------------------
// Mutations of a JSON value
// ---------------------------------------------------------------------------------------------

type Path = (string | number)[];

/**
 * Every path in a value (the root included), so a mutation can aim anywhere; not below depth 12,
 * where only an earlier mutation's deep nesting lives (listing it would cost depth squared).
 */
function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (prefix.length >= 12) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

type Mutation =
  | { op: 'remove' }
  | { op: 'replace'; value: unknown }
  | { op: 'sameType'; text: string; number: number }
  | { op: 'stringify' }
  | { op: 'add'; key: string; value: unknown }
  | { op: 'duplicate' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Mutation>({ op: 'remove' }) },
  { weight: 5, arbitrary: replacement.map((value): Mutation => ({ op: 'replace', value })) },
  // Keeping the JSON type gets past the schema, so the normalizers and every view see the value.
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.oneof({ weight: 4, arbitrary: hostileString }, { weight: 1, arbitrary: longString }), fc.oneof(hugeNumber, fc.double(), fc.integer()))
      .map(([text, number]): Mutation => ({ op: 'sameType', text, number })),
  },
  { weight: 1, arbitrary: fc.constant<Mutation>({ op: 'stringify' }) },
  { weight: 2, arbitrary: fc.tuple(hostileString, replacement).map(([key, value]): Mutation => ({ op: 'add', key, value })) },
  { weight: 1, arbitrary: fc.constant<Mutation>({ op: 'duplicate' }) },
);

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Applies one mutation at `path` of `root` (a copy), returning the new root. */
function applyAt(root: unknown, path: Path, m: Mutation): unknown {
  if (path.length === 0) {
    if (m.op === 'sameType') return root;
    if (m.op === 'remove') return undefined;
    if (m.op === 'replace') return m.value;
    if (m.op === 'stringify') return JSON.stringify(root);
    if (m.op === 'duplicate') return [root, root];
  }
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1];
  let parent: unknown = root;
  for (const k of parentPath) parent = (parent as Record<string | number, unknown>)[k];
  const p = parent as Record<string | number, unknown> & unknown[];
  switch (m.op) {
    case 'remove':
      if (Array.isArray(p) && typeof key === 'number') p.splice(key, 1);
      else if (key !== undefined) delete p[key];
      break;
    case 'replace':
      if (key !== undefined) p[key] = m.value;
      break;
    case 'sameType':
      if (key === undefined) break;
      if (typeof p[key] === 'string') p[key] = m.text;
      else if (typeof p[key] === 'number') p[key] = m.number;
      break;
    case 'stringify':
      // A number or object sent as text: "12", "{...}", "true".
      if (key !== undefined) p[key] = typeof p[key] === 'string' ? p[key] : JSON.stringify(p[key]);
      break;
    case 'add': {
      if (key === undefined) break;
      const target = p[key];
      if (Array.isArray(target)) target.push(m.value);
      else if (target !== null && typeof target === 'object') (target as Record<string, unknown>)[m.key] = m.value;
      else p[key] = m.value;
      break;
    }
    case 'duplicate':
      if (Array.isArray(p) && typeof key === 'number') p.splice(key, 0, clone(p[key]));
      else if (key !== undefined) p[key] = [p[key], p[key]];
      break;
  }
  return root;
}

/** A fixture body with 0 to 6 mutations, each at a path chosen among those that exist. */
export function mutated(body: unknown): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.nat(), mutation), { maxLength: 6 }).map((steps) => {
    let v: unknown = clone(body);
    for (const [pick, m] of steps) {
      const all = paths(v);
      const path = all[pick % all.length] ?? [];
      v = applyAt(v, path, m);
    }
    return v;
  });
}

/** A body as text, sometimes damaged after serializing: cut short, prefixed, or swapped for junk. */
export function bodyText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.tuple(value, fc.nat(), fc.integer({ min: 0, max: 15 }), hostileString).map(([v, cut, how, junk]) => {
    const text = v === undefined ? '' : JSON.stringify(v);
    switch (how) {
      case 0:
        return text.slice(0, cut % (text.length + 1));
      case 1:
        return `\ufeff${text}`;
      case 2:
        return junk;
      case 3:
        return `${text}${junk}`;
      default:
        return text;
    }
  });
}

/** A mutated body of one of the operation's fixtures, as text. */
export function operationBody(op: OperationName): fc.Arbitrary<string> {
  const bodies = fixturesOf(op).map((f) => mutated(f.body));
  return bodyText(fc.oneof(...bodies));
}

/** Arbitrary JSON, raw or inside a success envelope: not derived from any fixture. */
export const arbitraryBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((data) => JSON.stringify({ success: true, data })),
  fc.record({ success: fc.constant(false), errorCode: fc.oneof(hostileString, fc.integer()), errorMessage: hostileString, showType: fc.oneof(fc.integer(), hostileString) }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/** The SGR color sequences the text report adds itself when color is on. */
export const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * A raw C0 control other than newline, DEL, C1 controls (U+0080-U+009F: U+009B is a one-byte
 * CSI), ESC, and the bidi overrides/embeddings/isolates and marks that reorder a line.
 */
const unsafe = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The first unsafe character with its position, or null: a failing run shows what leaked. */
export function firstUnsafe(text: string): string | null {
  const m = unsafe.exec(text);
  if (!m) return null;
  const cp = m[0].codePointAt(0)!.toString(16).padStart(4, '0');
  return `U+${cp} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 30))}`;
}

/** Every string (and object key) in a JSON value, for checking what --json consumers print. */
export function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}
