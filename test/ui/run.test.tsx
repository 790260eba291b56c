import { FakeIn, FakeOut } from './fake-terminal.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorState } from '../../src/monitor/state.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR, runLiveMonitor } from '../../src/ui/run.js';
import { fakeController, healthyState } from './fixtures.js';
import { settle } from './harness.js';

function start(controller = fakeController(healthyState())) {
  const stdout = new FakeOut();
  const stderr = new FakeOut();
  const stdin = new FakeIn();
  const done = runLiveMonitor(controller, {
    color: false,
    ascii: false,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  });
  return { stdout, stderr, stdin, done };
}

const savedExitCode = process.exitCode;
afterEach(() => {
  process.exitCode = savedExitCode;
});

describe('runLiveMonitor', () => {
  it('enters the alternate screen first, and q leaves it with the cursor shown', async () => {
    const { stdout, stdin, done } = start();
    await settle();
    expect(stdout.chunks[0]).toBe(ENTER_ALT_SCREEN);
    expect(stdout.text).toContain('ntp1.example.net');
    stdin.send('q');
    await done;
    expect(stdout.text.endsWith(LEAVE_ALT_SCREEN + SHOW_CURSOR)).toBe(true);
  });

  it('Ctrl-C quits the same way', async () => {
    const { stdout, stdin, done } = start();
    await settle();
    stdin.send('\x03');
    await done;
    expect(stdout.text).toContain(LEAVE_ALT_SCREEN);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s restores the screen and sets the exit code', async (signal) => {
    const before = process.listenerCount(signal);
    const { stdout, done } = start();
    await settle();
    expect(process.listenerCount(signal)).toBe(before + 1);
    process.emit(signal, signal);
    await done;
    expect(stdout.text).toContain(LEAVE_ALT_SCREEN + SHOW_CURSOR);
    expect(process.exitCode).toBe(signal === 'SIGTERM' ? 143 : 129);
    expect(process.listenerCount(signal)).toBe(before);
  });

  it.each(['EIO', 'EPIPE'])('%s writing to the terminal: drawing stops, the run ends quietly with 129', async (code) => {
    const { stdout, stderr, done } = start();
    await settle();
    stdout.emit('error', Object.assign(new Error(`write ${code}`), { code, syscall: 'write' }));
    const written = stdout.chunks.length;
    const outcome = await done;
    expect(outcome).toEqual({ terminalLost: true });
    expect(process.exitCode).toBe(129);
    // Nothing more is sent to a terminal that is gone, and nothing is said about it.
    expect(stdout.chunks.length).toBe(written);
    expect(stderr.text).toBe('');
  });

  it('EIO reading the keyboard ends the run the same way', async () => {
    const { stdin, stderr, done } = start();
    await settle();
    stdin.emit('error', Object.assign(new Error('read EIO'), { code: 'EIO', syscall: 'read' }));
    expect(await done).toEqual({ terminalLost: true });
    expect(stderr.text).toBe('');
  });

  it('a crash restores the screen, then prints the error in plain text', async () => {
    const controller = fakeController(healthyState());
    controller.getState = (): MonitorState => {
      throw new Error('boom in render');
    };
    const { stdout, stderr, done } = start(controller);
    await done;
    expect(stdout.text).toContain(LEAVE_ALT_SCREEN);
    expect(stderr.text).toContain('boom in render');
    expect(stderr.text).not.toMatch(/\x1b\[/);
    expect(process.exitCode).toBe(1);
  });
});
