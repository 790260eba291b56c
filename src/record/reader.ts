/**
 * Reading a recording, which is outside input like a device answer: a file handed over by
 * someone else can be crafted, edited, cut short or huge.
 *
 * - The file is streamed line by line with a cap per line: a 1 GB file is never read whole
 *   (readFile of it took 2.1 GB and then failed), and only where each usable line starts is kept,
 *   so memory stays flat whatever the size. A replayed line is read again from its place.
 * - Every line goes through the schema, the sanitizer and the list caps of a live answer: a
 *   recorded string is shown exactly as safely as one from the device, never as raw bytes.
 * - A line that fails is skipped and counted, not trusted and not fatal; a last line cut short
 *   (synctop stopped while writing it) is said as such. Messages name lines and fields, never
 *   quote the file's bytes.
 */
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { capList, LIST_CAPS } from '../api/list-caps.js';
import type { CappedList } from '../model/snapshot.js';
import { sanitizeDeep, sanitizePath, sanitizeText } from '../model/sanitize.js';
import { recordingEntrySchema, recordingHeaderSchema, RECORDING_SCHEMA, type RecordingEntry, type RecordingHeader } from './format.js';

/** The longest line read: a recorded section with every list at its cap is far below it. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export class RecordingError extends Error {}

/** A recorded section result, validated, sanitized and capped, with its time in epoch ms. */
export type RecordedResult = RecordingEntry & { atMs: number };

export interface SkippedLines {
  count: number;
  /** The first skipped line and why, for the warning. */
  first: { line: number; why: string } | null;
  /** The file's last line was cut short: the usual end of a recording stopped mid-write. */
  lastLineCut: boolean;
}

export interface Recording {
  path: string;
  header: RecordingHeader;
  /** Usable entries (of the device played, for a fleet recording). */
  readonly count: number;
  /** Epoch ms of entry i. */
  atMs(i: number): number;
  /** Entry i, read again from the file; null when it no longer reads (the file changed since). */
  entry(i: number): RecordedResult | null;
  skipped: SkippedLines;
  /** Sentences about what was skipped, for stderr and the screen; empty when nothing was. */
  warnings(): string[];
  close(): void;
}

// ---------------------------------------------------------------------------------------------
// One line
// ---------------------------------------------------------------------------------------------

/** A path of a schema issue, for a message: keys as the schema names them, made safe anyway. */
function issuePath(path: readonly PropertyKey[]): string {
  return sanitizeText(path.map(String).join('.'), 80) || 'the line';
}

/** A recorded data section with its lists cut like a live answer's. */
export function capRecorded(section: RecordingEntry['section'], data: Record<string, unknown>): Record<string, unknown> {
  const capped: CappedList[] = Array.isArray(data.capped) ? capList(data.capped as CappedList[], LIST_CAPS.cappedLists, 'cut lists', []) : [];
  const lists: Record<RecordingEntry['section'], [key: string, max: number, what: string][]> = {
    ntp: [['sources', LIST_CAPS.ntpSources, 'NTP sources']],
    gnss: [['receivers', LIST_CAPS.gnssReceivers, 'GNSS receivers']],
    alarm: [['recipientEmails', LIST_CAPS.alarmRecipients, 'alarm mail recipients']],
    ptp: [['ports', LIST_CAPS.ptpPorts, 'PTP ports']],
  };
  const out = { ...data };
  for (const [key, max, what] of lists[section]) out[key] = capList(data[key] as unknown[], max, what, capped);
  if (capped.length > 0) out.capped = capped;
  return out;
}

export type LineResult = { ok: true; entry: RecordedResult } | { ok: false; why: string };

/**
 * One entry line: JSON, the recording schema, a readable time; then the sanitizer and the list
 * caps, as for a live answer. Never throws; `why` quotes nothing from the line.
 */
export function parseRecordingLine(text: string): LineResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not JSON' };
  }
  const parsed = recordingEntrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, why: issue ? `${issuePath(issue.path)}: ${sanitizeText(issue.message, 120)}` : 'not a recorded poll result' };
  }
  const atMs = Date.parse(parsed.data.at);
  if (Number.isNaN(atMs)) return { ok: false, why: '"at" is not a time' };
  const safe = sanitizeDeep(parsed.data);
  const result = safe.result.ok ? { ok: true as const, data: capRecorded(safe.section, safe.result.data as Record<string, unknown>) } : safe.result;
  return { ok: true, entry: { ...safe, result, atMs } as RecordedResult };
}

// ---------------------------------------------------------------------------------------------
// The file, line by line
// ---------------------------------------------------------------------------------------------

interface Line {
  /** 1-based. */
  number: number;
  offset: number;
  length: number;
  /** null when the line is longer than MAX_LINE_BYTES (its bytes were not kept). */
  text: string | null;
  /** The file ended without a newline after this line. */
  unterminated: boolean;
}

const NEWLINE = 0x0a;

/** Bytes read at a time. */
const CHUNK_BYTES = 256 * 1024;

/** Calls onLine for every line of the open file, holding at most one capped line in memory. */
async function forEachLine(file: FileHandle, onLine: (line: Line) => void): Promise<void> {
  let parts: Buffer[] = [];
  let kept = 0;
  let tooLong = false;
  let lineStart = 0;
  let position = 0;
  let number = 0;
  const finish = (end: number, unterminated: boolean) => {
    number++;
    const text = tooLong ? null : Buffer.concat(parts, kept).toString('utf8');
    onLine({ number, offset: lineStart, length: end - lineStart, text, unterminated });
    parts = [];
    kept = 0;
    tooLong = false;
    lineStart = end + 1;
  };
  const take = (piece: Buffer) => {
    if (tooLong) return;
    if (kept + piece.length > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
      kept = 0;
      return;
    }
    // A copy: the chunk buffer is reused for the next read.
    parts.push(Buffer.from(piece));
    kept += piece.length;
  };
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    const data = chunk.subarray(0, bytesRead);
    let from = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, from)) {
      take(data.subarray(from, nl));
      finish(position + nl, false);
      from = nl + 1;
    }
    take(data.subarray(from));
    position += bytesRead;
  }
  if (position > lineStart) finish(position, true);
}

async function openRegularFile(path: string): Promise<FileHandle> {
  const shown = sanitizePath(path);
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unreadable');
    throw new RecordingError(`cannot read ${shown}: ${why}`);
  }
  if (!(await file.stat()).isFile()) {
    await file.close();
    throw new RecordingError(`cannot read ${shown}: not a regular file`);
  }
  return file;
}

function readHeader(text: string | null, shown: string): RecordingHeader {
  if (text === null) throw new RecordingError(`${shown} is not a synctop recording (its first line is longer than any recording's)`);
  let json: unknown;
  try {
    json = JSON.parse(text.trim());
  } catch {
    throw new RecordingError(`${shown} is not a synctop recording (its first line is not JSON)`);
  }
  const header = recordingHeaderSchema.safeParse(json);
  if (!header.success) {
    const schema = (json as { schema?: unknown } | null)?.schema;
    throw new RecordingError(
      schema === RECORDING_SCHEMA ? `${shown}: the header line is incomplete` : `${shown} is not a synctop recording (expected "${RECORDING_SCHEMA}" on its first line)`,
    );
  }
  const safe = sanitizeDeep(header.data);
  return safe.devices ? { ...safe, devices: [...new Set(safe.devices)] } : safe;
}

/** "a, b, c and 12 more": device names from the file, made safe and few. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => sanitizeText(n, 100));
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
}

/** Which device of the file is played: the header's, or for a fleet recording the one chosen. */
function chooseDevice(header: RecordingHeader, wanted: string | undefined, shown: string): string {
  const fleet = header.devices;
  if (fleet) {
    const device = wanted ?? fleet[0];
    if (device === undefined || !fleet.includes(device)) {
      throw new RecordingError(`${shown} holds no device ${sanitizeText(wanted ?? '', 200)}; it holds ${listed(fleet)} (choose with --device)`);
    }
    return device;
  }
  if (wanted !== undefined && wanted !== header.device) throw new RecordingError(`${shown} holds only ${header.device}`);
  return header.device;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Reads FILE once, line by line, and keeps where each usable entry is. Refuses (RecordingError)
 * only a file that is not a recording at all, or holds no usable entry of the device.
 */
export async function loadRecording(path: string, opts: { device?: string } = {}): Promise<Recording> {
  const shown = sanitizePath(path);
  const file = await openRegularFile(path);
  const offsets: number[] = [];
  const lengths: number[] = [];
  const times: number[] = [];
  const skipped: SkippedLines = { count: 0, first: null, lastLineCut: false };
  let header: RecordingHeader | null = null;
  let device = '';
  let fleet = false;
  const skip = (line: Line, why: string) => {
    skipped.count++;
    skipped.first ??= { line: line.number, why };
    if (line.unterminated && why === 'not JSON') skipped.lastLineCut = true;
  };
  try {
    await forEachLine(file, (line) => {
      if (header === null) {
        header = readHeader(line.text, shown);
        device = chooseDevice(header, opts.device, shown);
        fleet = header.devices !== undefined;
        return;
      }
      if (line.text === null) return skip(line, `longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB`);
      if (line.text.trim() === '') return;
      const parsed = parseRecordingLine(line.text);
      if (!parsed.ok) return skip(line, parsed.why);
      if (fleet && parsed.entry.device !== device) return;
      offsets.push(line.offset);
      lengths.push(line.length);
      times.push(parsed.entry.atMs);
    });
  } catch (err) {
    await file.close();
    if (err instanceof RecordingError) throw err;
    throw new RecordingError(`cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  const head = header as RecordingHeader | null;
  if (head === null) {
    await file.close();
    throw new RecordingError(`${shown} is empty: not a synctop recording`);
  }
  if (offsets.length === 0) {
    await file.close();
    const why = skipped.first ? ` (${plural(skipped.count, 'line')} could not be read; line ${skipped.first.line}: ${skipped.first.why})` : '';
    throw new RecordingError(`${shown} holds no poll results${fleet ? ` of ${device}` : ''}${why}`);
  }
  let isOpen = true;
  return {
    path,
    header: { ...head, device },
    count: offsets.length,
    atMs: (i) => times[i]!,
    entry(i) {
      if (!isOpen || i < 0 || i >= offsets.length) return null;
      const buffer = Buffer.alloc(lengths[i]!);
      const read = readSync(file.fd, buffer, 0, buffer.length, offsets[i]!);
      const parsed = parseRecordingLine(buffer.subarray(0, read).toString('utf8'));
      return parsed.ok ? parsed.entry : null;
    },
    skipped,
    warnings() {
      if (skipped.count === 0) return [];
      const { first } = skipped;
      if (skipped.lastLineCut && skipped.count === 1) {
        return [`${shown}: its last line (line ${first!.line}) is cut short, as when synctop stops while writing; replaying everything before it`];
      }
      return [`${shown}: ${plural(skipped.count, 'damaged line')} skipped (line ${first!.line}: ${first!.why})${skipped.lastLineCut ? ', the last one cut short' : ''}`];
    },
    close() {
      if (!isOpen) return;
      isOpen = false;
      void file.close();
    },
  };
}
