/**
 * Screendump: what the technician sees, as plain text, followed by the snapshot it was drawn
 * from (already masked and sanitized by the model), in one file to attach to a support ticket.
 * Written to the current directory, or to the temporary directory when that is not writable;
 * mode 0600 because a snapshot names the device and its configuration.
 */
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sanitizePath } from '../../model/sanitize.js';

export interface ScreendumpInput {
  /** The screen as plain text (no escape sequences). */
  screen: string;
  /** The snapshot JSON value; undefined when the controller has none. */
  snapshot: unknown;
  /** Directories to try, in order; the current directory then the temporary one by default. */
  dirs?: string[];
  /** The moment named in the file name (tests). */
  now?: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** synctop-screendump-YYYYMMDD-HHMMSS.txt, local time. */
export function screendumpName(d: Date, suffix = ''): string {
  const date = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  return `synctop-screendump-${date}-${time}${suffix}.txt`;
}

export function screendumpText(screen: string, snapshot: unknown): string {
  const json = snapshot === undefined ? '(no snapshot available)' : JSON.stringify(snapshot, null, 2);
  return `${screen.replace(/\n+$/, '')}\n\n${json}\n`;
}

/**
 * Writes the dump; resolves with "screendump saved to PATH", rejects with a sentence. Both go to
 * the screen, so the current directory's name in them is sanitized.
 */
export async function writeScreendump(input: ScreendumpInput): Promise<string> {
  const now = input.now ?? new Date();
  const dirs = input.dirs ?? [process.cwd(), tmpdir()];
  const body = screendumpText(input.screen, input.snapshot);
  const failures: string[] = [];
  for (const dir of dirs) {
    try {
      const path = await writeNew(dir, now, body);
      return `screendump saved to ${sanitizePath(path)}`;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      failures.push(`${sanitizePath(resolve(dir))} (${e.code ?? sanitizePath(e.message)})`);
    }
  }
  throw new Error(`could not save the screendump: no writable directory among ${failures.join(', ')}`);
}

/** A new file (never overwrites: a second dump in the same second gets -2, -3, ...). */
async function writeNew(dir: string, now: Date, body: string): Promise<string> {
  for (let n = 1; ; n++) {
    const path = resolve(join(dir, screendumpName(now, n === 1 ? '' : `-${n}`)));
    let handle;
    try {
      handle = await open(path, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 100) continue;
      throw err;
    }
    try {
      await handle.writeFile(body, 'utf8');
      await handle.close();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw err;
    }
    return path;
  }
}
