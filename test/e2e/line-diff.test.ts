/**
 * The line-diff writer in a real terminal: the live monitor runs in tmux on data that changes
 * as fast as frames go out (600 updates, then 80 after each of five resizes: 1,000 in all);
 * each time, the pane as tmux shows it must equal, character for character, the screen Ink
 * meant to draw (the writer's model, dumped by the harness). No timing is asserted.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TmuxSession, root, shellQuote } from './tmux.js';

const FIRST = 600;
const AFTER_RESIZE = 80;

const normalize = (screen: string) => {
  const lines = screen.split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
};

interface Dump {
  applied: number;
  screen: string;
  stats: { bytesIn: number; bytesOut: number; updates: number; fallbacks: number; fullRepaints: number; lastFallback: string | null };
}

async function waitForFile(path: string, timeoutMs = 80_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 20));
}

let harness = '';
/** Builds the harness like the real binary (packages resolved from node_modules), so it starts
 * in a fraction of a second rather than tsx's few. */
async function buildHarness(): Promise<string> {
  if (harness) return harness;
  const cache = join(root, 'node_modules/.cache/synctop-test');
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `line-diff-harness-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, 'test/e2e/line-diff-harness.tsx')],
    outfile: out,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  harness = out;
  return out;
}
afterAll(() => {
  if (harness) rmSync(harness, { force: true });
});

function startHarness(mode: 'diff' | 'passthrough', first: number, batch: number): { dir: string; session: TmuxSession } {
  const dir = mkdtempSync(join(tmpdir(), 'synctop-linediff-'));
  // React reads NODE_ENV itself (it is not bundled): production, as in the real binary.
  const session = new TmuxSession(`NODE_ENV=production node ${shellQuote(harness)} ${shellQuote(dir)} ${first} ${mode} ${batch}`, { columns: 100, rows: 30 });
  return { dir, session };
}

describe('line-diff writer in tmux', () => {
  let dir: string;
  let session: TmuxSession;
  let dumps = 0;
  let pid = 0;

  beforeAll(async () => {
    await buildHarness();
    ({ dir, session } = startHarness('diff', FIRST, AFTER_RESIZE));
  });
  afterAll(() => {
    session?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Signals the harness. Never with pid 0: process.kill(0) signals this whole process group
   * (vitest and npm with it), which a first dump that timed out would otherwise do.
   */
  function signalHarness(signal: NodeJS.Signals): void {
    if (!pid) pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    if (!(Number.isInteger(pid) && pid > 0)) throw new Error(`no harness pid to send ${signal} to`);
    process.kill(pid, signal);
  }

  /** The next dump, compared with the pane; a dump raced by a clock tick is taken again. */
  async function expectPaneEqualsModel(signal?: NodeJS.Signals): Promise<Dump> {
    if (signal) signalHarness(signal);
    let dump: Dump | undefined;
    let pane = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt > 0) signalHarness('SIGUSR2');
      const path = join(dir, `dump-${++dumps}.json`);
      await waitForFile(path);
      if (!pid) pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
      dump = JSON.parse(readFileSync(path, 'utf8')) as Dump;
      pane = normalize(session.capture());
      if (pane === normalize(dump.screen)) break;
    }
    expect(pane).toBe(normalize(dump!.screen));
    expect(dump!.screen.length).toBeGreaterThan(200);
    return dump!;
  }

  it(`the pane equals the intended screen after ${FIRST} updates`, async () => {
    const dump = await expectPaneEqualsModel();
    expect(dump.applied).toBe(FIRST);
    expect(dump.stats.updates).toBeGreaterThan(FIRST / 2);
    expect(dump.stats.lastFallback).toBe(null);
    // The point of it: far fewer bytes than Ink's full redraws.
    expect(dump.stats.bytesOut).toBeLessThan(dump.stats.bytesIn / 2);
  }, 90_000); // ~15 s alone; a busy machine (other test files in parallel) doubles it

  it.each([
    [80, 24],
    [140, 40],
    [60, 20],
    [120, 25],
    [100, 30],
  ])(`and after a resize to %ix%i and ${AFTER_RESIZE} more updates`, async (columns, rows) => {
    session.resize(columns, rows);
    await new Promise((r) => setTimeout(r, 200));
    const dump = await expectPaneEqualsModel('SIGUSR1');
    expect(dump.stats.lastFallback).toBe(null);
    const lines = dump.screen.split('\n');
    expect(lines.length).toBeLessThan(rows);
  }, 60_000);

  it('1,000 updates in all, none of them passed through, and quits cleanly on q', async () => {
    const last = JSON.parse(readFileSync(join(dir, `dump-${dumps}.json`), 'utf8')) as Dump;
    expect(last.applied).toBe(FIRST + 5 * AFTER_RESIZE);
    expect(last.stats.lastFallback).toBe(null);
    session.type('q');
    await session.waitFor((s) => s.includes('[exit 0]'), 'the harness to exit');
  });
});

describe('the screen model against tmux reading Ink bytes unchanged', () => {
  // Styles are not compared across sessions: tmux's `capture-pane -e` reports attributes of
  // cells that were cleared (not blank-from-start) differently, so two panes that look the same
  // but have different histories capture differently.
  it('after 100 updates, the model of a pass-through session (Ink bytes unchanged) equals its pane', async () => {
    await buildHarness();
    const plain = startHarness('passthrough', 100, 0);
    try {
      await waitForFile(join(plain.dir, 'dump-1.json'));
      const dump = JSON.parse(readFileSync(join(plain.dir, 'dump-1.json'), 'utf8')) as Dump;
      // tmux interpreting Ink's own bytes = the writer's model of them.
      expect(normalize(plain.session.capture())).toBe(normalize(dump.screen));
    } finally {
      for (const h of [plain]) {
        h.session.kill();
        rmSync(h.dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
