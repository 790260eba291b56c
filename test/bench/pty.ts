/**
 * A program in a pseudo-terminal without node-pty: util-linux `script` allocates the pty, and
 * `stty` inside sets its size. Output is read from script's stdout (what the terminal would
 * receive), keys are written to its stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface PtyProcess {
  child: ChildProcess;
  /** Every byte the program wrote to its terminal. */
  bytes(): number;
  text(): string;
  /** ms since spawn when `marker` first appeared (waits for it). */
  waitFor(marker: string, timeoutMs?: number): Promise<number>;
  /** The program's own pid (script -> sh -> exec program). */
  programPid(): number;
  type(keys: string): void;
  stop(): Promise<void>;
}

export function spawnPty(command: string, size: { columns: number; rows: number }, env: NodeJS.ProcessEnv = process.env): PtyProcess {
  const started = performance.now();
  const child = spawn('script', ['-q', '-e', '-c', `stty cols ${size.columns} rows ${size.rows}; exec ${command}`, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env },
    detached: true,
  });
  const chunks: Buffer[] = [];
  let total = 0;
  let text = '';
  const waiters: { marker: string; resolve: (ms: number) => void }[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    const at = performance.now() - started;
    chunks.push(d);
    total += d.length;
    // Only the tail can complete a marker; keep the text short.
    text = (text + d.toString('utf8')).slice(-20_000);
    for (const w of [...waiters]) {
      if (text.includes(w.marker)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(at);
      }
    }
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    bytes: () => total,
    text: () => text,
    waitFor(marker, timeoutMs = 15_000) {
      if (text.includes(marker)) return Promise.resolve(performance.now() - started);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`"${marker}" did not appear in ${timeoutMs} ms; output: ${JSON.stringify(text.slice(-400))}`)), timeoutMs);
        waiters.push({ marker, resolve: (ms) => (clearTimeout(timer), resolve(ms)) });
      });
    },
    programPid() {
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
      return Number(children[0]);
    },
    type(keys) {
      child.stdin!.write(keys);
    },
    async stop() {
      // The measurements are taken; no need for a graceful exit (script would wait for one).
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

/** CPU seconds (user + system) from a /proc stat file (a process's or one of its threads'). */
function statCpuSeconds(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds (user + system) of a process and of its main thread alone (JavaScript, rendering,
 * I/O callbacks; the rest is V8's helper threads: optimizing compiler, GC, and libuv's), and its
 * resident memory, from /proc.
 */
export function processSample(pid: number): { cpuSeconds: number; mainThreadCpuSeconds: number; rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return {
    cpuSeconds: statCpuSeconds(`/proc/${pid}/stat`),
    mainThreadCpuSeconds: statCpuSeconds(`/proc/${pid}/task/${pid}/stat`),
    rssMb: kb('VmRSS') / 1024,
    hwmMb: kb('VmHWM') / 1024,
  };
}
