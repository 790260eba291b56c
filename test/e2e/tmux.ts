/**
 * Drives the real binary in a real terminal: tmux runs it, send-keys types, capture-pane reads
 * the screen. Each session gets its own tmux server socket, so tests never touch a user's tmux.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = `${root}dist/synctop.js`;

export function hasBuild(): boolean {
  return existsSync(bin);
}

let counter = 0;

export class TmuxSession {
  readonly socket = `synctop-test-${process.pid}-${++counter}`;
  readonly name = 'main';

  constructor(
    command: string,
    readonly size: { columns: number; rows: number } = { columns: 100, rows: 30 },
    env: Record<string, string> = {},
  ) {
    // A clean, known environment: UTF-8 locale, a real TERM, and no CI (which makes Ink hold
    // frames back) unless a test sets it on purpose.
    const envArgs = Object.entries({ LANG: 'C.UTF-8', TERM: 'xterm-256color', ...env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const unsetCi = 'CI' in env ? '' : 'env -u CI -u CONTINUOUS_INTEGRATION ';
    this.tmux(['new-session', '-d', '-s', this.name, '-x', String(size.columns), '-y', String(size.rows), ...envArgs, `${unsetCi}${command}; echo "[exit $?]"; sleep 600`]);
    this.tmux(['set-option', '-t', this.name, 'remain-on-exit', 'on']);
  }

  tmux(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** The visible screen as text; with `escapes`, including SGR color sequences. */
  capture(escapes = false): string {
    return this.tmux(['capture-pane', '-p', '-t', this.name, ...(escapes ? ['-e'] : [])]);
  }

  keys(...keys: string[]): void {
    for (const k of keys) this.tmux(['send-keys', '-t', this.name, k]);
  }

  /** Literal text (no key-name lookup). */
  type(text: string): void {
    this.tmux(['send-keys', '-t', this.name, '-l', text]);
  }

  resize(columns: number, rows: number): void {
    this.tmux(['resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows)]);
  }

  /** Polls the screen until `predicate` holds; returns the screen, or throws with it. */
  async waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.capture();
      if (predicate(screen)) return screen;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}; screen was:\n${screen}`);
  }

  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // already gone
    }
  }
}

/** The simulated device as its own process, the way a technician would start it (port 0: a free one). */
export async function startSimProcess(args: string[] = [], port = 0): Promise<{ url: string; child: ChildProcess; stop: () => void }> {
  const child = spawn(process.execPath, [bin, 'simulate', '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`simulator did not print its URL: ${out}`)), 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const first = out.split('\n')[0];
      if (out.includes('\n') && first) {
        clearTimeout(timer);
        resolve(first.trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}: ${out}`)));
  });
  return { url, child, stop: () => void child.kill('SIGTERM') };
}

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
