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
import stringWidth from 'string-width';
import { MASKED_SECRET } from '../../model/alarm.js';

export interface ScreendumpInput {
  /** The screen as plain text (no escape sequences). */
  screen: string;
  /** The snapshot JSON value; undefined when the controller has none. */
  snapshot: unknown;
  /**
   * The SMTP password the screen may show besides the snapshot's: the last good alarm data stays
   * on screen while the latest poll of it failed (the snapshot then has no data to name it).
   */
  screenPassword?: string | null;
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

export function screendumpText(screen: string, snapshot: unknown, screenPassword?: string | null): string {
  const password = shownPassword(snapshot);
  const onScreen = new Set([password, unmasked(screenPassword)].filter((p): p is string => p !== null));
  const safeScreen = [...onScreen].reduce(maskPasswordOnScreen, screen);
  const json = snapshot === undefined ? '(no snapshot available)' : JSON.stringify(password ? withMaskedPassword(snapshot) : snapshot, null, 2);
  return `${safeScreen.replace(/\n+$/, '')}\n\n${json}\n`;
}

// Files never hold the SMTP password, --show-secrets or not (recordings mask it too): the
// screen shows it to the technician, the screendump is attached to a ticket.

type SnapshotWithAlarm = { alarm?: { ok?: boolean; data?: { smtpPassword?: unknown } } };

/** The password the snapshot carries unmasked (under --show-secrets), or null. */
function shownPassword(snapshot: unknown): string | null {
  return unmasked((snapshot as SnapshotWithAlarm | undefined)?.alarm?.data?.smtpPassword);
}

function unmasked(pw: unknown): string | null {
  return typeof pw === 'string' && pw !== '' && pw !== MASKED_SECRET ? pw : null;
}

function withMaskedPassword(snapshot: unknown): unknown {
  const s = snapshot as SnapshotWithAlarm & { alarm: { data: object } };
  return { ...s, alarm: { ...s.alarm, data: { ...s.alarm.data, smtpPassword: MASKED_SECRET } } };
}

/**
 * The password's value after each "password" label of the screen (the alarm pane's field), whole
 * or cut with "…" to fit, replaced by *** padded to the same width, so the columns to its right
 * stay where they were. Only after the label: a short password must not blank other text.
 */
export function maskPasswordOnScreen(screen: string, password: string): string {
  const label = 'password';
  return screen
    .split('\n')
    .map((line) => {
      let out = line;
      for (let at = out.indexOf(label); at >= 0; at = out.indexOf(label, at + label.length)) {
        let v = at + label.length;
        while (out[v] === ' ') v++;
        if (v === at + label.length) continue;
        const shown = shownPrefix(out, v, password);
        if (shown === 0) continue;
        const width = stringWidth(out.slice(v, v + shown));
        const mask = width >= MASKED_SECRET.length ? MASKED_SECRET.padEnd(width) : '*'.repeat(width);
        out = out.slice(0, v) + mask + out.slice(v + shown);
      }
      return out;
    })
    .join('\n');
}

/** How many characters at `from` are the password, or a cut-off start of it ending in "…"; 0 when neither. */
function shownPrefix(line: string, from: number, password: string): number {
  if (line.startsWith(password, from)) return password.length;
  for (let k = Math.min(password.length - 1, line.length - from - 1); k >= 1; k--) {
    if (line[from + k] === '…' && line.startsWith(password.slice(0, k), from)) return k + 1;
  }
  return 0;
}

/**
 * Writes the dump; resolves with "screendump saved to PATH", rejects with a sentence. Both go to
 * the screen, so the current directory's name in them is sanitized.
 */
export async function writeScreendump(input: ScreendumpInput): Promise<string> {
  const now = input.now ?? new Date();
  const dirs = input.dirs ?? [process.cwd(), tmpdir()];
  const body = screendumpText(input.screen, input.snapshot, input.screenPassword);
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
