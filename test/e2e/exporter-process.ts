/**
 * The real binary as an exporter process: `synctop export --listen 127.0.0.1:0 ...`, its URL
 * read from the first stdout line. `fdLimit` runs it under `ulimit -n` (a common default of
 * 1,024 open files), to see what happens when clients try to take them all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { bin, shellQuote } from './tmux.js';

export interface ExporterProcess {
  /** http://127.0.0.1:PORT, without a path. */
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

export async function startExporterProcess(args: string[], opts: { fdLimit?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ExporterProcess> {
  const command = [process.execPath, bin, 'export', '--listen', '127.0.0.1:0', ...args].map(shellQuote).join(' ');
  const script = opts.fdLimit ? `ulimit -n ${opts.fdLimit} && exec ${command}` : `exec ${command}`;
  const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the exporter did not print its URL: ${out}${err}`)), 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const first = out.split('\n')[0];
      if (out.includes('\n') && first) {
        clearTimeout(timer);
        resolve(first.trim().replace(/\/metrics$/, ''));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the exporter exited with ${code}: ${out}${err}`));
    });
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
