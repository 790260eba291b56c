/**
 * The terminal going away under the live monitor: an SSH link dropping, a tmux session or a
 * terminal window killed. The kernel sends SIGHUP, and every read and write of the terminal
 * fails with EIO (EPIPE for a closed pipe). Node's defaults turn that into an unhandled 'error'
 * event with its stack trace and, at exit, a failed assertion in ResetStdio (restoring the mode
 * of a terminal that is gone), then an abort: 60 lines of noise and a lost recording.
 *
 * TerminalWatch notices it once, from whichever comes first; the live monitor then stops
 * drawing, closes the recording and leaves with releaseTerminal() and exit code 129, quietly.
 */
import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** 128 + SIGHUP, what a shell reports for a process ended by a hangup. */
export const HANGUP_EXIT_CODE = 129;

/** Error codes of a read or write that mean the terminal (or the pipe) is gone. */
const goneCodes = new Set(['EIO', 'EPIPE', 'ENXIO', 'EBADF', 'ENOTCONN', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** The standard descriptors that were terminals when the process started (isatty fails later). */
const terminalFds = [0, 1, 2].filter((fd) => isatty(fd));

interface Stream {
  on(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
  off(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
}

export class TerminalWatch {
  /** What ended the terminal ('SIGHUP', 'EIO', ...); null while it is there. */
  lost: string | null = null;
  /** A read or write failed: writing more is pointless (after SIGHUP alone it is still tried). */
  ioFailed = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly streams: Stream[],
    private readonly watchSignal = true,
  ) {
    for (const s of streams) s.on('error', this.onError);
    if (watchSignal) process.on('SIGHUP', this.onHangup);
  }

  /** Called once, when the terminal is found gone. */
  onLost(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Stops watching the signal; the streams keep a listener, so a late EIO stays quiet. */
  dispose(): void {
    if (this.watchSignal) process.off('SIGHUP', this.onHangup);
  }

  private readonly onHangup = () => this.markLost('SIGHUP');

  private readonly onError = (err: NodeJS.ErrnoException) => {
    // Anything else on a terminal stream is a bug: let it surface as one.
    if (!goneCodes.has(err.code ?? '')) throw err;
    this.ioFailed = true;
    this.markLost(err.code ?? 'EIO');
  };

  private markLost(why: string): void {
    if (this.lost !== null) return;
    this.lost = why;
    for (const l of this.listeners) l();
  }
}

const ignoreHangup = () => undefined;

/**
 * For the whole life of a live view: a SIGHUP never ends the process by itself (by default, or
 * through a library's exit hook that re-raises it). The view's TerminalWatch answers the first
 * one; a second one, while the recording is being flushed, must not cut the file short.
 */
export function holdHangups(): void {
  if (!process.listeners('SIGHUP').includes(ignoreHangup)) process.on('SIGHUP', ignoreHangup);
}

/**
 * Just before exiting after a hangup: closes the standard descriptors that were terminals (Node
 * restores a terminal's mode at exit and aborts when that fails on a hung-up one, but it skips a
 * closed descriptor), and ends writing to stdout and stderr, so exit hooks write nothing more
 * (a library's cursor escape would land in a redirected stderr, for no one).
 */
export function releaseTerminal(): void {
  // Stdio streams cannot be ended or destroyed for real; their writes are the one way in.
  const nowhere = () => true;
  process.stdout.write = nowhere;
  process.stderr.write = nowhere;
  for (const fd of terminalFds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}
