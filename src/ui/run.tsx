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
import { LineDiffWriter } from './terminal/line-diff-writer.js';
import { coalesceRoutineUpdates } from './terminal/render-cadence.js';
import { writeScreendump } from './terminal/screendump.js';

export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';

const signalExitCodes: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

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

export function runLiveMonitor(controller: MonitorController, opts: RunOptions): Promise<void> {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  const writer = new LineDiffWriter(stdout, { mode: opts.lineDiff === false ? 'passthrough' : 'diff' });
  opts.onWriter?.(writer);
  const cadence = opts.coalesce === false || opts.view ? null : coalesceRoutineUpdates(controller);
  const viewed = cadence?.controller ?? controller;
  const onScreendump = () =>
    writeScreendump({
      screen: writer.screenText(),
      snapshot: controller.snapshot?.(),
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
      const root = opts.view ? opts.view({ quit, onScreendump }) : null;
      instance = render(root ?? <App controller={viewed} color={opts.color} ascii={opts.ascii} onQuit={quit} onScreendump={onScreendump} bell={opts.bell ?? false} />, {
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
