/**
 * Soak: N poll cycles against the simulated device over real HTTP, each result fed to a
 * MonitorStore the way the poller feeds it, and the real App rendered by Ink, through the
 * line-diff writer as in the live monitor, into a fake 120x40 terminal after every result. Every 50th cycle a fault (a different one each time) spoils
 * a random operation, cleared the next cycle. Heap is measured after a warm-up and at the end
 * (after gc), and the bounded structures are checked; one JSON line of figures is printed.
 * --census adds live strings and objects counted from heap snapshots (growth the JIT's code
 * does not blur); --checkpoint-every N, the heap every N cycles; --heap-snapshots DIR keeps the
 * start and end snapshots to diff by constructor.
 *
 *   NODE_ENV=production node --expose-gc --import tsx test/soak/run.ts --cycles 2000
 *
 * Exit 0 when every bound held, 1 otherwise. React must run in production mode: it is set here
 * before React is first imported (everything below is loaded dynamically for that reason), since
 * the development build keeps a timing entry per render and would grow without bound.
 */
import { parseArgs } from 'node:util';

process.env.NODE_ENV = 'production';
// Ink writes nothing but the last frame when it believes it runs in CI.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

const { values: args } = parseArgs({
  options: {
    cycles: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '300' },
    'fault-every': { type: 'string', default: '50' },
    'max-growth-mb': { type: 'string', default: '5' },
    scenario: { type: 'string', default: 'healthy' },
    seed: { type: 'string', default: '1' },
    // Ink's frame throttle: the live monitor draws at most a few frames a second; 0 draws every update.
    fps: { type: 'string', default: '30' },
    // Apply the four results of a cycle as one snapshot (the replay path): one frame per cycle.
    batch: { type: 'boolean', default: false },
    // No Ink at all: separates what the store and the client hold from what rendering holds.
    headless: { type: 'boolean', default: false },
    // Write a heap snapshot after warm-up and at the end into this directory (to diff what grew).
    'heap-snapshots': { type: 'string' },
    // Also measure the heap (after gc) every N measured cycles; the figures list them.
    'checkpoint-every': { type: 'string', default: '0' },
    // Count the live objects by kind (from a heap snapshot) at the start and the end: growth of
    // strings and objects, which the JIT's code does not blur. Cheap (well under a second each).
    census: { type: 'boolean', default: false },
  },
});

const cycles = Number(args.cycles);
const warmup = Number(args.warmup);
const faultEvery = Number(args['fault-every']);
const fps = Number(args.fps);
const maxGrowthMb = Number(args['max-growth-mb']);
const checkpointEvery = Number(args['checkpoint-every']);
const MB = 1024 * 1024;
const INTERVAL_MS = 2000;
const SIZE = { columns: 120, rows: 40 };

const { EventEmitter } = await import('node:events');
const { getHeapSpaceStatistics, writeHeapSnapshot } = await import('node:v8');
const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const React = await import('react');
const { render } = await import('ink');
const { DeviceClient } = await import('../../src/api/client.js');
const { startSimulator } = await import('../../src/sim/server.js');
const { isScenarioName } = await import('../../src/sim/scenarios.js');
const { MonitorStore, sectionNames } = await import('../../src/monitor/store.js');
const { MAX_SERIES, seriesKey } = await import('../../src/monitor/history.js');
const { pollPorts, ptpSectionResult } = await import('../../src/monitor/ptp-discovery.js');
const { normalizeNtp } = await import('../../src/model/ntp.js');
const { normalizeGnss } = await import('../../src/model/gnss.js');
const { normalizeAlarm } = await import('../../src/model/alarm.js');
const { normalizePtp } = await import('../../src/model/ptp.js');
const { toSnapshotError } = await import('../../src/model/sanitize.js');
const { App } = await import('../../src/ui/App.js');
const { LineDiffWriter } = await import('../../src/ui/terminal/line-diff-writer.js');
type Fault = import('../../src/sim/faults.js').Fault;
type SectionName = import('../../src/model/snapshot.js').SectionName;
type Section = import('../../src/model/snapshot.js').Section<unknown>;
type MonitorController = import('../../src/monitor/state.js').MonitorController;

if (!(Number.isInteger(cycles) && cycles > 0 && Number.isInteger(warmup) && warmup >= 0 && faultEvery >= 0 && fps >= 0 && Number.isInteger(checkpointEvery) && checkpointEvery >= 0)) {
  process.stderr.write('usage: run.ts --cycles N [--warmup N] [--fault-every N (0: none)] [--fps N (0: every update)] [--batch] [--max-growth-mb MB] [--scenario S] [--seed N] [--checkpoint-every N] [--heap-snapshots DIR] [--headless]\n');
  process.exit(2);
}
if (!isScenarioName(args.scenario)) {
  process.stderr.write(`unknown scenario ${args.scenario}\n`);
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with node --expose-gc: the heap is measured after a full collection\n');
  process.exit(2);
}

/** A terminal that keeps nothing: it counts what the line-diff writer sends it. */
class FakeStdout extends EventEmitter {
  readonly columns = SIZE.columns;
  readonly rows = SIZE.rows;
  readonly isTTY = true;
  writes = 0;
  bytes = 0;
  write(chunk: string | Uint8Array): boolean {
    this.writes++;
    this.bytes += chunk.length;
    return true;
  }
}

/** Ink's keyboard hook needs a raw-mode TTY to attach to; nothing is ever typed. */
class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  setRawMode(): this {
    return this;
  }
  setEncoding(): this {
    return this;
  }
  read(): null {
    return null;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** Seeded PRNG (mulberry32): a failing soak can be replayed with the same --seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Faults in turn, one per fault cycle: every kind the simulator knows. */
const faultCycle: Fault[] = [
  { kind: 'http500' },
  { kind: 'stall-headers' },
  { kind: 'invalid-json' },
  { kind: 'reset' },
  { kind: 'wrong-types' },
  { kind: 'http403' },
  { kind: 'truncated-json' },
  { kind: 'huge' },
  { kind: 'device', code: '40007' },
  { kind: 'reset-mid-body' },
  { kind: 'http502' },
  { kind: 'extra-fields' },
  { kind: 'stall-body' },
  { kind: 'http401' },
  { kind: 'device', code: '50012' },
  { kind: 'trickle' },
  { kind: 'refused' },
  { kind: 'reboot', seconds: 0.1 },
];

const sim = await startSimulator({ scenario: args.scenario });
const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 300 });
const store = new MonitorStore(sim.url, INTERVAL_MS);
const random = prng(Number(args.seed));
/** Simulated wall clock: each cycle is one 2 s interval, so ages, events and histories move as in a real session. */
let now = Date.UTC(2026, 10, 22, 8, 0, 0);

const controller: MonitorController = {
  getState: store.getState,
  subscribe: store.subscribe,
  pollNow: () => undefined,
  setPaused: () => undefined,
  now: () => now,
};

const stdout = new FakeStdout();
// As in the live monitor (ui/run.tsx), Ink renders into the line-diff writer, which keeps a model
// of the screen and sends the terminal only the rows that changed.
const writer = args.headless ? null : new LineDiffWriter(stdout);
const stdin = new FakeStdin();
const instance = args.headless ? null : render(
  React.createElement(App, { controller, color: true, ascii: false, size: SIZE, now: () => now, onQuit: () => undefined }),
  {
    stdout: writer as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stdout as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: fps,
    incrementalRendering: false,
  },
);

let requests = 0;
let errors = 0;
let faultsInjected = 0;
let outageSince: number | null = null;

/** One operation polled as the poller does it; its result applied to the store, or returned in batch mode. */
async function pollSection(name: SectionName): Promise<Section> {
  let section: Section;
  if (name === 'ptp') {
    const results = await pollPorts((id) => client.call('ptp', { id }), [0, 1]);
    requests += 2;
    const r = ptpSectionResult(results, false);
    section = r.ok ? { ok: true, data: normalizePtp(r.data) } : { ok: false, error: toSnapshotError(r.error) };
  } else {
    const r = await client.call(name);
    requests++;
    if (!r.ok) section = { ok: false, error: toSnapshotError(r.error) };
    else if (name === 'ntp') section = { ok: true, data: normalizeNtp(r.data as Parameters<typeof normalizeNtp>[0]) };
    else if (name === 'gnss') section = { ok: true, data: normalizeGnss(r.data as Parameters<typeof normalizeGnss>[0]) };
    else section = { ok: true, data: normalizeAlarm(r.data as Parameters<typeof normalizeAlarm>[0], { showSecrets: false }) };
  }
  if (!section.ok) errors++;
  let unreachable;
  if (!section.ok && section.error.kind === 'network') {
    outageSince ??= now;
    unreachable = { since: outageSince, retryAt: now + INTERVAL_MS, reason: section.error.message };
  } else if (outageSince !== null) {
    outageSince = null;
    unreachable = null;
  }
  if (!args.batch) store.apply(name, section, now, unreachable);
  return section;
}

let faulted: { op: SectionName } | null = null;

async function cycle(i: number): Promise<void> {
  if (faulted) {
    sim.setFault(faulted.op, null);
    await sim.settled();
    faulted = null;
  } else if (faultEvery > 0 && i > 0 && i % faultEvery === 0) {
    const fault = faultCycle[faultsInjected % faultCycle.length]!;
    const op = sectionNames[Math.floor(random() * sectionNames.length)]!;
    sim.setFault(op, fault);
    await sim.settled();
    faulted = { op };
    faultsInjected++;
  }
  if (args.batch) {
    const snap = store.snapshot(now);
    for (const name of sectionNames) (snap as unknown as Record<SectionName, Section>)[name] = await pollSection(name);
    store.applySnapshot(snap, now);
  } else {
    for (const name of sectionNames) await pollSection(name);
  }
  now += INTERVAL_MS;
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Bytes in V8's code space: compiled code, which grows while the JIT warms up and then stays. */
function codeSpace(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'code_space')?.space_used_size ?? 0;
}

/** Heap after gc every --checkpoint-every cycles (and at the start and end of the measured run). */
const checkpoints: { cycle: number; heapMb: number; codeMb: number }[] = [];
function checkpoint(cycleNo: number, heap: number): void {
  checkpoints.push({ cycle: cycleNo, heapMb: +(heap / MB).toFixed(3), codeMb: +(codeSpace() / MB).toFixed(3) });
}

interface Census {
  /** Self size in bytes of live strings and of live JS objects (objects, arrays, closures, numbers). */
  stringBytes: number;
  objectBytes: number;
  /** Compiled code, bytecode, feedback, maps and other engine-internal objects. */
  engineBytes: number;
  strings: number;
  objects: number;
}

const dataTypes = new Set(['object', 'array', 'closure', 'regexp', 'number', 'symbol', 'bigint']);
const stringTypes = new Set(['string', 'concatenated string', 'sliced string']);

/** Live heap by kind, read from a heap snapshot (V8 collects garbage before taking it). */
function census(): Census {
  const dir = mkdtempSync(join(tmpdir(), 'synctop-soak-'));
  try {
    const file = writeHeapSnapshot(join(dir, 'heap.heapsnapshot'));
    const snap = JSON.parse(readFileSync(file, 'utf8')) as {
      snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
      nodes: number[];
    };
    const fields = snap.snapshot.meta.node_fields;
    const types = snap.snapshot.meta.node_types[0];
    const stride = fields.length;
    const typeAt = fields.indexOf('type');
    const sizeAt = fields.indexOf('self_size');
    const c: Census = { stringBytes: 0, objectBytes: 0, engineBytes: 0, strings: 0, objects: 0 };
    for (let i = 0; i < snap.nodes.length; i += stride) {
      const type = types[snap.nodes[i + typeAt]!]!;
      const size = snap.nodes[i + sizeAt]!;
      if (stringTypes.has(type)) {
        c.stringBytes += size;
        c.strings++;
      } else if (dataTypes.has(type)) {
        c.objectBytes += size;
        c.objects++;
      } else c.engineBytes += size;
    }
    return c;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const started = performance.now();
for (let i = 0; i < warmup; i++) await cycle(i);
// Measured as the end is: after Ink has flushed the cycle's frame.
await new Promise((r) => setImmediate(r));
const heapStart = heapAfterGc();
const codeStart = codeSpace();
checkpoint(0, heapStart);
const censusStart = args.census ? census() : null;
if (args['heap-snapshots']) writeHeapSnapshot(`${args['heap-snapshots']}/start.heapsnapshot`);
const rssStart = process.memoryUsage().rss;
// The second half of the run is measured on its own too: a leak keeps its pace there, while
// what only warms up (the JIT's compiled code, caches that fill to a bound) has levelled off.
const half = Math.floor(cycles / 2);
let heapHalf = 0;
for (let i = 0; i < cycles; i++) {
  await cycle(warmup + i);
  if (i + 1 === half) heapHalf = heapAfterGc();
  if (checkpointEvery > 0 && (i + 1) % checkpointEvery === 0 && i + 1 < cycles) checkpoint(i + 1, heapAfterGc());
}
// Let Ink flush its last frame before measuring.
await new Promise((r) => setImmediate(r));
const heapEnd = heapAfterGc();
const codeEnd = codeSpace();
checkpoint(cycles, heapEnd);
const censusEnd = args.census ? census() : null;
if (args['heap-snapshots']) writeHeapSnapshot(`${args['heap-snapshots']}/end.heapsnapshot`);
const rssEnd = process.memoryUsage().rss;
const durationMs = performance.now() - started;

// --- bounds ---
const state = store.getState();
const keys = new Set<string>();
for (const s of state.ntp.data?.sources ?? []) keys.add(seriesKey.ntpOffset(s.name));
for (const r of state.gnss.data?.receivers ?? []) keys.add(seriesKey.gnssTotal(r.id));
for (const p of state.ptp.data?.ports ?? []) keys.add(seriesKey.ptpOffset(p.id)).add(seriesKey.ptpDelay(p.id));
const lengths = [...keys].map((k) => state.history.get(k)?.length ?? 0);
const maxSeriesLength = Math.max(0, ...lengths);
/** What the fullest series should hold: every sample pushed, up to the ring's capacity. */
const expectedSeriesLength = Math.min(state.history.capacity, Math.max(0, ...[...keys].map((k) => state.history.get(k)?.pushes ?? 0)));

const growthMb = (heapEnd - heapStart) / MB;
/** Strings and objects gained per measured cycle (census only): 5 MB a day at one cycle every 2 s is 60 B. */
const dataGrowthPerCycle =
  censusStart && censusEnd
    ? (censusEnd.stringBytes + censusEnd.objectBytes - censusStart.stringBytes - censusStart.objectBytes) / cycles
    : null;
const failures: string[] = [];
if (growthMb >= maxGrowthMb) failures.push(`heap grew ${growthMb.toFixed(2)} MB (limit ${maxGrowthMb} MB)`);
if (maxSeriesLength > state.history.capacity) failures.push(`a history series holds ${maxSeriesLength} > ${state.history.capacity}`);
if (maxSeriesLength !== expectedSeriesLength) failures.push(`history series holds ${maxSeriesLength}, expected ${expectedSeriesLength}`);
if (state.history.seriesCount > MAX_SERIES) failures.push(`${state.history.seriesCount} series > ${MAX_SERIES}`);
if (state.events.length > state.events.capacity) failures.push(`${state.events.length} events > ${state.events.capacity}`);
if (!args.headless && fps === 0 && stdout.writes < cycles) failures.push(`only ${stdout.writes} writes for ${cycles} cycles: frames were not drawn`);
if (writer && !writer.screenText().includes('synctop')) failures.push('the screen has no header');
if (writer && writer.screenRows().length > SIZE.rows) failures.push(`the screen model holds ${writer.screenRows().length} rows > ${SIZE.rows}`);

instance?.unmount();
client.destroy();
await sim.close();

const figures = {
  ok: failures.length === 0,
  failures,
  nodeEnv: process.env.NODE_ENV,
  fps,
  batch: args.batch,
  headless: args.headless,
  cycles,
  warmup,
  faultsInjected,
  requests,
  errors,
  durationMs: Math.round(durationMs),
  msPerCycle: +(durationMs / (warmup + cycles)).toFixed(2),
  heapStartMb: +(heapStart / MB).toFixed(2),
  heapEndMb: +(heapEnd / MB).toFixed(2),
  heapGrowthMb: +growthMb.toFixed(3),
  // Start to end, the JIT's compiled code included; then the second half alone.
  codeGrowthMb: +((codeEnd - codeStart) / MB).toFixed(3),
  heapGrowthSecondHalfMb: +((heapEnd - heapHalf) / MB).toFixed(3),
  checkpoints,
  ...(censusStart && censusEnd
    ? {
        census: {
          stringBytes: censusEnd.stringBytes - censusStart.stringBytes,
          strings: censusEnd.strings - censusStart.strings,
          objectBytes: censusEnd.objectBytes - censusStart.objectBytes,
          objects: censusEnd.objects - censusStart.objects,
          engineBytes: censusEnd.engineBytes - censusStart.engineBytes,
          dataBytesPerCycle: +dataGrowthPerCycle!.toFixed(1),
        },
      }
    : {}),
  rssGrowthMb: +((rssEnd - rssStart) / MB).toFixed(2),
  framesWritten: stdout.writes,
  screenUpdates: writer?.stats.updates ?? 0,
  screenFallbacks: writer?.stats.fallbacks ?? 0,
  bytesWritten: stdout.bytes,
  seriesCount: state.history.seriesCount,
  maxSeries: MAX_SERIES,
  maxSeriesLength,
  expectedSeriesLength,
  historyCapacity: state.history.capacity,
  events: state.events.length,
  eventCapacity: state.events.capacity,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(figures.ok ? 0 : 1);
