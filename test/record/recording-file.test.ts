/**
 * --record FILE is opened at start, safely: created 0600, an existing file left as it is (with a
 * warning when others can read it), never through a symbolic link, only a regular file, and
 * every refusal is a usage error naming the flag and the reason.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/config.js';
import { MonitorStore } from '../../src/monitor/store.js';
import { openRecordingFile, startRecording } from '../../src/record/recorder.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-recfile-'));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('opening the recording', () => {
  it('creates a new file with mode 0600, whatever the umask leaves', () => {
    const path = join(dir, 'new.jsonl');
    const before = process.umask(0);
    try {
      const opened = openRecordingFile(path);
      closeSync(opened.fd);
      expect(opened.warnings).toEqual([]);
    } finally {
      process.umask(before);
    }
    expect(mode(path)).toBe(0o600);
  });

  it('leaves an existing 0644 file 0644, appends to it, and warns', async () => {
    const path = join(dir, 'shared.jsonl');
    writeFileSync(path, 'kept\n');
    chmodSync(path, 0o644);
    const opened = openRecordingFile(path);
    expect(opened.warnings).toEqual([`--record ${path} can be read by other users (mode 0644); it is left so: chmod 600 it`]);
    const recorder = startRecording(new MonitorStore('http://192.0.2.1', 1000), path, { intervalMs: 1000, version: 't' }, opened);
    await recorder.close();
    expect(mode(path)).toBe(0o644);
    expect(readFileSync(path, 'utf8')).toMatch(/^kept\n\{"schema":"synctop.recording\/1"/);
  });

  it('does not follow a symbolic link', () => {
    const target = join(dir, 'target.jsonl');
    writeFileSync(target, '');
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    expect(() => openRecordingFile(link)).toThrow(UsageError);
    expect(() => openRecordingFile(link)).toThrow(`--record ${link}: it is a symbolic link, which synctop does not follow (give the file itself)`);
    expect(readFileSync(target, 'utf8')).toBe('');
  });

  it.each<[string, () => string, RegExp]>([
    ['a missing directory', () => join(dir, 'nowhere', 'x.jsonl'), /: no such directory$/],
    ['a directory', () => {
      const d = join(dir, 'adir');
      mkdirSync(d);
      return d;
    }, /: it is a directory$/],
    ['a FIFO', () => {
      const f = join(dir, 'fifo');
      execFileSync('mkfifo', [f]);
      return f;
    }, /: it is not a regular file$/],
  ])('refuses %s with a sentence', (_name, make, message) => {
    const path = make();
    expect(() => openRecordingFile(path)).toThrow(UsageError);
    expect(() => openRecordingFile(path)).toThrow(message);
  });
});
