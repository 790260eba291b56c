import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeIn, FakeOut } from './fake-terminal.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { runLiveMonitor } from '../../src/ui/run.js';
import type { LineDiffWriter } from '../../src/ui/terminal/line-diff-writer.js';
import { maskPasswordOnScreen, screendumpName, screendumpText, writeScreendump } from '../../src/ui/terminal/screendump.js';
import { fakeController, healthyState } from './fixtures.js';
import { settle } from './harness.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'synctop-dump-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

const snapshot = { schema: 'synctop.snapshot/1', device: 'https://10.20.0.5', alarm: { ok: true, data: { smtpPassword: '***' } } };

describe('writeScreendump', () => {
  it('names the file by local date and time, mode 0600, screen then snapshot JSON', async () => {
    const dir = tempDir();
    const at = new Date(2026, 10, 22, 9, 5, 7);
    const sentence = await writeScreendump({ screen: 'line one\nline two\n\n', snapshot, dirs: [dir], now: at });
    const path = join(dir, 'synctop-screendump-20261122-090507.txt');
    expect(screendumpName(at)).toBe('synctop-screendump-20261122-090507.txt');
    expect(sentence).toBe(`screendump saved to ${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`line one\nline two\n\n${JSON.stringify(snapshot, null, 2)}\n`);
  });

  it('never overwrites: a second dump in the same second gets a suffix', async () => {
    const dir = tempDir();
    const at = new Date(2026, 0, 2, 3, 4, 5);
    await writeScreendump({ screen: 'a', snapshot, dirs: [dir], now: at });
    const second = await writeScreendump({ screen: 'b', snapshot, dirs: [dir], now: at });
    expect(second).toMatch(/synctop-screendump-20260102-030405-2\.txt$/);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('falls back to the next directory when the first is not writable', async () => {
    // A regular file where the directory should be: unwritable even for root.
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, '');
    const fallback = tempDir();
    const sentence = await writeScreendump({ screen: 'x', snapshot, dirs: [notADir, fallback] });
    expect(sentence).toContain(fallback);
    expect(readdirSync(fallback)).toHaveLength(1);
  });

  it('rejects with a sentence naming the directories when none is writable', async () => {
    const missing = join(tempDir(), 'gone');
    await expect(writeScreendump({ screen: 'x', snapshot, dirs: [missing] })).rejects.toThrow(
      `could not save the screendump: no writable directory among ${missing} (ENOENT)`,
    );
  });

  it('a directory name cannot reach the terminal raw: escape sequences escaped, unassigned code points replaced', async () => {
    // cd into such a directory, press s: the notice named it raw and retitled the pane.
    const dir = join(tempDir(), '\x1b]0;pwned\x07\x1b[2J\u{103FF}');
    mkdirSync(dir);
    const sentence = await writeScreendump({ screen: 'x', snapshot, dirs: [dir] });
    expect(sentence).toMatch(/^screendump saved to .*\\x1b\]0;pwned\\x07\\x1b\[2J\uFFFD\/synctop-screendump-/);
    expect(sentence).not.toMatch(/[\x00-\x1f\x7f]/);
    const refused = writeScreendump({ screen: 'x', snapshot, dirs: [join(dir, 'gone')] });
    await expect(refused).rejects.toThrow(/\\x1b\]0;pwned\\x07.*\(ENOENT\)/);
    await expect(refused).rejects.not.toThrow(/[\x00-\x1f\x7f]/);
  });

  it('says so when there is no snapshot', async () => {
    const dir = tempDir();
    const sentence = await writeScreendump({ screen: 'x', snapshot: undefined, dirs: [dir] });
    expect(readFileSync(sentence.replace('screendump saved to ', ''), 'utf8')).toBe('x\n\n(no snapshot available)\n');
  });
});

describe('the SMTP password never reaches a screendump (--show-secrets included)', () => {
  it.each([
    ['password       Demo-Smtp-Pa55', 'password       ***           '],
    ['password       Demo-Smtp-Pa55   GM accuracy 0x21', 'password       ***              GM accuracy 0x21'],
    ['password       Demo-Sm…  GM accuracy', 'password       ***       GM accuracy'],
    ['│ password     Demo-Smtp-Pa55 │ rate', '│ password     ***            │ rate'],
    ['sender Demo-Smtp-Pa55 has no label before it', 'sender Demo-Smtp-Pa55 has no label before it'],
    ['password       something-else', 'password       something-else'],
  ])('%j', (line, masked) => {
    expect(maskPasswordOnScreen(line, 'Demo-Smtp-Pa55')).toBe(masked);
  });

  it('a short password blanks only the value after the label', () => {
    expect(maskPasswordOnScreen('auth  on, user a\npassword  a      a', 'a')).toBe('auth  on, user a\npassword  *      a');
  });

  it('screen and snapshot both masked in the file text', () => {
    const shown = { schema: 'synctop.snapshot/1', alarm: { ok: true, data: { smtpPassword: 'hunter2', smtpUsername: 'u' } } };
    const text = screendumpText('password  hunter2\n', shown);
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual({ ...shown, alarm: { ok: true, data: { smtpPassword: '***', smtpUsername: 'u' } } });
    expect(shown.alarm.data.smtpPassword).toBe('hunter2');
  });
});

describe('the password the screen still shows after the alarm poll failed', () => {
  it('is masked though the snapshot has no alarm data', () => {
    const failed = { schema: 'synctop.snapshot/1', alarm: { ok: false, error: { kind: 'network', message: 'no complete answer within 900 ms (timeout)' } } };
    const text = screendumpText('password       Demo-Smtp-Pa55\nauth  on, user smtp\n', failed, 'Demo-Smtp-Pa55');
    expect(text).not.toContain('Demo-Smtp-Pa55');
    expect(text).toMatch(/^password {7}\*\*\* {11}$/m);
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual(failed);
  });
});

describe('runLiveMonitor screendump (the s key)', () => {
  it('saves the screen as Ink drew it, without styles, then the controller snapshot', async () => {
    const dir = tempDir();
    const controller = fakeController(healthyState());
    controller.snapshot = () => snapshot as unknown as Snapshot;
    const stdout = new FakeOut();
    const stdin = new FakeIn();
    let writer: LineDiffWriter | undefined;
    const done = runLiveMonitor(controller, {
      color: true,
      ascii: false,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new FakeOut() as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      screendumpDirs: [dir],
      onWriter: (w) => (writer = w),
    });
    await settle();
    stdin.send('s');
    // The footer tells when the file is complete.
    for (let i = 0; i < 100 && !writer!.screenText().includes('screendump saved'); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(writer!.screenText()).toContain('screendump saved to');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^synctop-screendump-\d{8}-\d{6}\.txt$/);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    expect(text).not.toMatch(/\x1b/);
    expect(text).toContain('ntp1.example.net');
    expect(text).toContain('"smtpPassword": "***"');
    const screen = text.slice(0, text.indexOf('\n\n{'));
    expect(screen.split('\n')[0]).toBe(writer!.screenText().split('\n')[0]);
    stdin.send('q');
    await done;
  });
});
