/**
 * A recording is outside input: every line goes through the schema, the sanitizer and the list
 * caps of a live answer; a line that fails is skipped and counted, not trusted and not fatal; a
 * last line cut short (synctop stopped mid-write) is said as such; messages never quote the
 * file's bytes; a line longer than the cap is passed over without being held.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_CAPS } from '../../src/api/list-caps.js';
import type { NtpData, NtpSource } from '../../src/model/snapshot.js';
import { loadRecording, MAX_LINE_BYTES, parseRecordingLine, RecordingError } from '../../src/record/reader.js';
import { ReplayController } from '../../src/record/replay.js';
import { source as snapshotSource } from '../monitor/snapshots.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-untrusted-'));
const ESC = '\x1b';
const BEL = '\x07';
const HOSTILE = `${ESC}]0;PWNED${BEL}${ESC}]52;c;cm0gLXJmIH4vKg==${BEL}${ESC}]8;;http://evil${ESC}\\link${ESC}]8;;${ESC}\\`;

const header = (over: Record<string, unknown> = {}) => JSON.stringify({ schema: 'synctop.recording/1', device: 'http://192.0.2.7', intervalMs: 1000, startedAt: '2026-11-22T10:00:00Z', version: 't', ...over });

/** A recorded NTP source named `name` (a device string, as recorded). */
const source = (name: string): NtpSource => snapshotSource({ name });

const ntpLine = (second: number, data: Partial<NtpData> = {}) =>
  JSON.stringify({
    at: `2026-11-22T10:00:${String(second).padStart(2, '0')}Z`,
    section: 'ntp',
    result: { ok: true, data: { overallStatus: 'Synchronized', syncSource: 'GPS', sourceCount: 1, sources: [source('GPS')], ...data } },
  });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('every recorded line is checked and made safe like a live answer', () => {
  it('escape sequences in recorded strings come out as visible text', () => {
    const parsed = parseRecordingLine(ntpLine(1, { overallStatus: HOSTILE, sources: [source(HOSTILE)] }));
    expect(parsed.ok).toBe(true);
    const text = JSON.stringify(parsed.ok && parsed.entry);
    expect(text).not.toContain(ESC);
    expect(text).not.toContain(BEL);
    expect(text).toContain('\\\\x1b]0;PWNED');
  });

  it('a megabyte string is cut like a device string', () => {
    const parsed = parseRecordingLine(ntpLine(1, { sources: [source('x'.repeat(1024 * 1024))] }));
    expect(parsed.ok && Array.from((parsed.entry.result as { data: NtpData }).data.sources[0]!.name).length).toBe(256);
  });

  it('a recorded list longer than a live answer may hold is capped, and says so', () => {
    const parsed = parseRecordingLine(ntpLine(1, { sources: Array.from({ length: 1000 }, (_, i) => source(`s${i}`)) }));
    const data = parsed.ok ? (parsed.entry.result as { data: NtpData }).data : null;
    expect(data?.sources).toHaveLength(LIST_CAPS.ntpSources);
    expect(data?.capped).toEqual([{ list: 'NTP sources', sent: 1000, kept: LIST_CAPS.ntpSources }]);
  });

  it.each([
    ['not JSON', '{"at":', /^not JSON$/],
    ['a field of the wrong type', ntpLine(1, { overallStatus: 5 as unknown as string }), /^result/],
    ['an unreadable time', ntpLine(1).replace('2026-11-22T10:00:01Z', 'yesterday'), /^"at" is not a time$/],
  ])('%s fails with a reason that quotes nothing from the line', (_name, line, why) => {
    const parsed = parseRecordingLine(line);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toMatch(why);
  });
});

describe('damaged lines are skipped and counted', () => {
  it('a last line cut short while writing: everything before it replays, with a warning', async () => {
    const path = file('cut.jsonl', `${header()}\n${ntpLine(1)}\n${ntpLine(2)}\n${ntpLine(3).slice(0, 40)}`);
    const rec = await loadRecording(path);
    expect(rec.count).toBe(2);
    expect(rec.skipped).toMatchObject({ count: 1, lastLineCut: true, first: { line: 4 } });
    expect(rec.warnings()).toEqual([`${path}: its last line (line 4) is cut short, as when synctop stops while writing; replaying everything before it`]);
    const replay = new ReplayController(rec, 1000);
    replay.setPaused(true);
    replay.start();
    while (!replay.getState().replay!.finished) replay.step(1);
    expect(replay.getState().replay).toMatchObject({ position: 2, total: 2, skipped: 1 });
    expect(replay.getState().ntp.data?.overallStatus).toBe('Synchronized');
    replay.stop();
  });

  it('damaged lines in the middle are skipped; the first one is named', async () => {
    const path = file('middle.jsonl', [header(), ntpLine(1), '{"at":garbage', ntpLine(3, { overallStatus: 7 as unknown as string }), ntpLine(4), ''].join('\n'));
    const rec = await loadRecording(path);
    expect(rec.count).toBe(2);
    expect(rec.warnings()).toEqual([`${path}: 2 damaged lines skipped (line 3: not JSON)`]);
    rec.close();
  });

  it('a line longer than the cap is passed over without being held', async () => {
    const path = file('long.jsonl', `${header()}\n${ntpLine(1)}\n${ntpLine(2, { sources: [source('y'.repeat(MAX_LINE_BYTES))] })}\n${ntpLine(3)}\n`);
    const rec = await loadRecording(path);
    expect(rec.count).toBe(2);
    expect(rec.warnings()[0]).toMatch(/1 damaged line skipped \(line 3: longer than 4 MiB\)/);
    rec.close();
  });

  it('a file of nothing but damaged lines is refused, with the first reason', async () => {
    const path = file('all-bad.jsonl', `${header()}\nnope\nnope\n`);
    await expect(loadRecording(path)).rejects.toThrow(/holds no poll results \(2 lines could not be read; line 2: not JSON\)/);
  });
});

describe('messages about a recording never print its bytes', () => {
  it('device names of a fleet recording are sanitized and few', async () => {
    const devices = [`http://a${HOSTILE}`, ...Array.from({ length: 20 }, (_, i) => `http://d${i}`)];
    const path = file('fleet.jsonl', `${header({ device: 'fleet of 21', devices })}\n`);
    const err = await loadRecording(path, { device: `http://x${ESC}[2J` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingError);
    const message = (err as Error).message;
    expect(message).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(message).toContain('\\x1b]0;PWNED');
    expect(message).toMatch(/and 16 more \(choose with --device\)$/);
  });

  it('a recorded device name with escapes reaches the header as text', async () => {
    const path = file('device.jsonl', `${header({ device: `http://h${HOSTILE}` })}\n${ntpLine(1)}\n`);
    const rec = await loadRecording(path);
    expect(rec.header.device).not.toContain(ESC);
    expect(rec.header.device).toContain('\\x1b]0;PWNED');
    rec.close();
  });

  it('a file name with escapes is sanitized in the refusal', async () => {
    await expect(loadRecording(join(dir, `no${ESC}]0;t${BEL}.jsonl`))).rejects.toThrow(/^cannot read .*no\\x1b\]0;t\\x07\.jsonl: no such file$/);
  });
});
