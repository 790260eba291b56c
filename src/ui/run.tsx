/**
 * Runs the live monitor full-screen. Ink 6.8 has no alternate-screen option, so we enter it
 * ourselves and leave it on EVERY way out (q, Ctrl-C, SIGINT/SIGTERM/SIGHUP, a crash, a stray
 * process.exit): otherwise the technician's shell is left inside the alternate screen with a
 * hidden cursor. A crash is printed in plain text after the screen is restored, where it stays
 * readable.
 */
import { render } from 'ink';
import type { Instance } from 'ink';
import type { MonitorController } from '../monitor/state.js';
import { App } from './App.js';

export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';

const signalExitCodes: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface RunOptions {
  color: boolean;
  ascii: boolean;
  /** Streams, for tests; the process's own otherwise. */
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
}

export function runLiveMonitor(controller: MonitorController, opts: RunOptions): Promise<void> {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      stdout.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
    } catch {
      // The terminal may already be gone (SIGHUP); nothing left to restore.
    }
  };

  stdout.write(ENTER_ALT_SCREEN);
  return new Promise<void>((resolve) => {
    let instance: Instance | undefined;
    let failure: unknown = null;
    const quit = () => instance?.unmount();
    const onSignal = (signal: NodeJS.Signals) => {
      process.exitCode = signalExitCodes[signal] ?? 1;
      quit();
    };
    const onCrash = (err: unknown) => {
      failure ??= err;
      if (instance) instance.unmount();
      else finish();
    };
    const detach = () => {
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
      if (failure !== null) {
        const text = failure instanceof Error ? (failure.stack ?? failure.message) : String(failure);
        stderr.write(`synctop: the live monitor stopped on an error:\n${text}\n`);
        process.exitCode = 1;
      }
      resolve();
    }

    for (const s of Object.keys(signalExitCodes)) process.on(s, onSignal);
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    process.on('exit', restore);

    try {
      instance = render(<App controller={controller} color={opts.color} ascii={opts.ascii} onQuit={quit} />, {
        stdout,
        stderr,
        ...(opts.stdin ? { stdin: opts.stdin } : {}),
        exitOnCtrlC: false,
        patchConsole: false,
        maxFps: 10,
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
