/**
 * Reading a file named by the user (config file, token, cookie jar, CA) without trusting it:
 * at most `maxBytes` are read (a multi-gigabyte file or /dev/zero is refused, not loaded), and
 * with `regularOnly` a FIFO, socket or device is refused without blocking: it is opened
 * non-blocking and checked with fstat on the same descriptor, so nothing can swap it between
 * the check and the read.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export class FileReadError extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG',
    message: string,
  ) {
    super(message);
  }
}

const kinds: [(s: ReturnType<typeof fstatSync>) => boolean, string][] = [
  [(s) => s.isDirectory(), 'a directory'],
  [(s) => s.isFIFO(), 'a FIFO (named pipe)'],
  [(s) => s.isSocket(), 'a socket'],
  [(s) => s.isCharacterDevice() || s.isBlockDevice(), 'a device'],
];

export function readBoundedFile(path: string, maxBytes: number, opts: { regularOnly?: boolean; noFollow?: boolean } = {}): string {
  // noFollow: a symbolic link fails with ELOOP (a link planted in a shared directory is not read through).
  const fd = openSync(path, constants.O_RDONLY | (opts.regularOnly ? constants.O_NONBLOCK : 0) | (opts.noFollow ? constants.O_NOFOLLOW : 0));
  try {
    if (opts.regularOnly) {
      const stat = fstatSync(fd);
      if (!stat.isFile()) {
        const kind = kinds.find(([is]) => is(stat))?.[1] ?? 'not a regular file';
        throw new FileReadError('ENOTREG', `it is ${kind}, not a regular file`);
      }
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new FileReadError('EFBIG', `it is larger than ${formatBytes(maxBytes)}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${n / 1024} KiB`;
}

/** A read failure as the few words after "FLAG PATH: ". */
export function readFailure(err: unknown): string {
  if (err instanceof FileReadError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is not a directory',
    ELOOP: 'too many symbolic links',
  };
  return (code && Object.hasOwn(words, code) ? words[code] : undefined) ?? code ?? 'unreadable';
}
