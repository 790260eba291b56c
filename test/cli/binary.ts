/** The real binary run once with arguments and environment, for the CLI tests; and simulated devices they close. */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { bin, hasBuild, root } from '../e2e/tmux.js';

const run = promisify(execFile);

/** SYNCTOP_TOKEN is cleared unless a test sets it: the developer's own must not leak in. */
export async function synctop(args: string[], env: Record<string, string> = {}, timeoutMs = 20_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, SYNCTOP_TOKEN: '', ...env }, timeout: timeoutMs });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** In-process simulated devices, all closed by closeSims(). */
const sims: Simulator[] = [];

export async function sim(opts: Parameters<typeof startSimulator>[0] = {}): Promise<Simulator> {
  const s = await startSimulator(opts);
  sims.push(s);
  return s;
}

async function closeSims(): Promise<void> {
  for (const s of sims.splice(0)) await s.close();
}

/** For a test file that runs the binary: build it if there is none; close the simulated devices after. */
export function useBinary(): void {
  beforeAll(() => {
    if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  }, 60_000);
  afterAll(closeSims);
}
