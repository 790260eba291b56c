/**
 * Runs the live monitor full-screen. Ink 6.8 has no alternate-screen option, so we enter it
 * ourselves and leave it on EVERY way out (q, Ctrl-C, SIGINT/SIGTERM/SIGHUP, a crash, a stray
 * process.exit): otherwise the technician's shell is left inside the alternate screen with a
 * hidden cursor. A crash is printed in plain text after the screen is restored, where it stays
 * readable.
 *
 * Ink renders into a LineDiffWriter, not into the terminal: it sends only the rows that changed
 * (terminal/line-diff-writer.ts), and its screen model is what a screendump saves.
 */
import { render } from 'ink';
import type { Instance, RenderOptions } from 'ink';
import type { ReactElement } from 'react';
import type { MonitorController } from '../monitor/state.js';
import { App } from './App.js';
import { HANGUP_EXIT_CODE, TerminalWatch } from './terminal/hangup.js';
import { LineDiffWriter, type TerminalOut } from './terminal/line-diff-writer.js';
import { coalesceRoutineUpdates } from './terminal/render-cadence.js';
import { writeScreendump } from './terminal/screendump.js';

export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';

/** SIGHUP is the terminal going away: TerminalWatch answers it, with the I/O errors that come with it. */
const signalExitCodes: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** How the live monitor ended, for the caller's last steps. */
export interface RunOutcome {
  /** The terminal went away (SIGHUP, EIO/EPIPE): exit with HANGUP_EXIT_CODE after releaseTerminal(). */
  terminalLost: boolean;
}

export interface RunOptions {
  color: boolean;
  ascii: boolean;
  /** Ring the terminal bell when the health verdict worsens. */
  bell?: boolean;
  /** false: Ink's bytes go to the terminal unchanged (full redraw); for comparisons. Default true. */
  lineDiff?: boolean;
  /** Ink's per-frame render time (benchmark). */
  onRender?: RenderOptions['onRender'];
  /** Called with the writer Ink renders into (tests, benchmark: its screen model and byte counts). */
  onWriter?: (writer: LineDiffWriter) => void;
  /**
   * Leave routine data changes to the per-second render instead of rendering on every answer
   * (terminal/render-cadence.ts). Default true; tests that count frames turn it off.
   */
  coalesce?: boolean;
  /** Ink's frame rate cap (default 10); tests raise it to render many updates quickly. */
  maxFps?: number;
  /** Where screendumps go; the current directory, then the temporary one, by default. */
  screendumpDirs?: string[];
  /**
   * Another root than the single-device App (the fleet view), given quit and screendump; it
   * paces its own renders, so no cadence wraps the controller.
   */
  view?: (ctx: { quit: () => void; onScreendump: () => Promise<string> }) => ReactElement;
  /** Streams, for tests; the process's own otherwise. */
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
}

export function runLiveMonitor(controller: MonitorController, opts: RunOptions): Promise<RunOutcome> {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const stdin = opts.stdin ?? process.stdin;
  const watch = new TerminalWatch([stdout, stdin, stderr]);
  // Once a write or read has failed, nothing more is sent: there is no one to see it.
  const terminal: TerminalOut = {
    write: (chunk) => (watch.ioFailed ? true : stdout.write(chunk)),
    get columns() {
      return stdout.columns;
    },
    get rows() {
      return stdout.rows;
    },
    get isTTY() {
      return stdout.isTTY;
    },
    on: (event, listener) => stdout.on(event, listener),
    off: (event, listener) => stdout.off(event, listener),
  };
  const writer = new LineDiffWriter(terminal, { mode: opts.lineDiff === false ? 'passthrough' : 'diff' });
  opts.onWriter?.(writer);
  const cadence = opts.coalesce === false || opts.view ? null : coalesceRoutineUpdates(controller);
  const viewed = cadence?.controller ?? controller;
  const onScreendump = () =>
    writeScreendump({
      screen: writer.screenText(),
      snapshot: controller.snapshot?.(),
      screenPassword: controller.getState().alarm.data?.smtpPassword,
      ...(opts.screendumpDirs ? { dirs: opts.screendumpDirs } : {}),
    });
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    cadence?.dispose();
    writer.dispose();
    try {
      writer.flush();
    } catch {
      // A half-parsed update is not worth more than restoring the terminal.
    }
    try {
      terminal.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
    } catch {
      // The terminal may already be gone (SIGHUP); nothing left to restore.
    }
  };

  stdout.write(ENTER_ALT_SCREEN);
  return new Promise<RunOutcome>((resolve) => {
    let instance: Instance | undefined;
    let failure: unknown = null;
    const quit = () => instance?.unmount();
    const onSignal = (signal: NodeJS.Signals) => {
      process.exitCode = signalExitCodes[signal] ?? 1;
      quit();
    };
    // The terminal went away: stop drawing and end the way q does, quietly, with 129.
    watch.onLost(() => {
      process.exitCode = HANGUP_EXIT_CODE;
      quit();
    });
    const onCrash = (err: unknown) => {
      failure ??= err;
      if (instance) instance.unmount();
      else finish();
    };
    const detach = () => {
      watch.dispose();
      for (const s of Object.keys(signalExitCodes)) process.off(s, onSignal);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
      process.off('exit', restore);
    };
    let finished = false;
    function finish() {
      if (finished) return;
      finished = true;
      detach();
      restore();
      if (failure !== null && watch.lost === null) {
        const text = failure instanceof Error ? (failure.stack ?? failure.message) : String(failure);
        stderr.write(`synctop: the live monitor stopped on an error:\n${text}\n`);
        process.exitCode = 1;
      }
      resolve({ terminalLost: watch.lost !== null });
    }

    for (const s of Object.keys(signalExitCodes)) process.on(s, onSignal);
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    process.on('exit', restore);

    try {
      const root = opts.view ? opts.view({ quit, onScreendump }) : null;
      instance = render(root ?? <App controller={viewed} color={opts.color} ascii={opts.ascii} onQuit={quit} onScreendump={onScreendump} bell={opts.bell ?? false} onRedraw={() => writer.redraw()} />, {
        stdout: writer as unknown as NodeJS.WriteStream,
        stderr,
        ...(opts.onRender ? { onRender: opts.onRender } : {}),
        ...(opts.stdin ? { stdin: opts.stdin } : {}),
        exitOnCtrlC: false,
        patchConsole: false,
        maxFps: opts.maxFps ?? 10,
        incrementalRendering: false,
      });
    } catch (err) {
      onCrash(err);
      return;
    }
    instance.waitUntilExit().then(
      () => finish(),
      (err: unknown) => {
        failure ??= err;
        finish();
      },
    );
  });
}
