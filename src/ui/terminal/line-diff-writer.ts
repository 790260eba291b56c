/**
 * A line-diff adapter between Ink and the terminal. Ink 6.8's standard renderer rewrites its
 * whole frame on every update (erase the previous frame line by line, then every line again):
 * about 3 KB for a 40-line screen, every poll, over an SSH link. Its incremental renderer drifts
 * in tmux. This Writable is what Ink renders into: it replays Ink's bytes on a model of the
 * screen (one styled string per row, with the SGR pen each line starts with), and sends the
 * terminal only the rows that differ from what the terminal already shows, each with absolute
 * cursor positioning (we own the alternate screen, so rows are absolute).
 *
 * It understands what Ink 6.8 writes: erase-line / cursor-up / column-1 sequences, text with
 * SGR styles, newlines, clear-screen + home (Ink's full-height path), cursor hide/show,
 * synchronized-update markers and BEL. Anything else in a write (an OSC, an unknown CSI, text
 * over a non-blank row, a row wider than the terminal) makes that update pass through verbatim
 * from where Ink believes the cursor is, and the next update repaints the whole screen: the
 * screen is never wrong, only sometimes more expensive.
 */
import { Writable } from 'node:stream';
import stringWidth from 'string-width';
import { type Cell, patchRow, rowCells } from './cells.js';
import { Pen } from './pen.js';

/** The real terminal: process.stdout, or a fake in tests. */
export interface TerminalOut {
  write(chunk: string): boolean;
  columns?: number | undefined;
  rows?: number | undefined;
  isTTY?: boolean | undefined;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

interface Row {
  /** What to write after positioning on a blank row: the starting pen, then the row's text. */
  bytes: string;
  /** The row's text without escape sequences (screendumps, tests). */
  plain: string;
  /** True when the pen is back to the default at the row's end. */
  endsDefault: boolean;
  /** The row as cells, computed when first needed for a within-row diff (null: not possible). */
  cells?: Cell[] | null;
  /** Parsed from exactly these bytes, from and to the default pen: the same bytes are this row again. */
  reusable?: boolean;
}

const BLANK: Row = { bytes: '', plain: '', endsDefault: true };
const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
const RESET = '\x1b[m';

export interface LineDiffStats {
  /** Bytes Ink wrote into the adapter. */
  bytesIn: number;
  /** Bytes the adapter wrote to the terminal. */
  bytesOut: number;
  /** Updates sent to the terminal (flushes that wrote something). */
  updates: number;
  rowsWritten: number;
  fullRepaints: number;
  /** Rows of which only the changed cells were written. */
  rowsPatched: number;
  /** Updates passed through verbatim because something in them was not understood. */
  fallbacks: number;
  /** Why the latest fallback happened. */
  lastFallback: string | null;
}

export interface LineDiffOptions {
  /** Within a row, write only the changed cells when that is shorter (default true). */
  cellDiff?: boolean;
  /** Wrap multi-row updates in synchronized-update markers (tmux >= 3.4, most modern terminals). */
  synchronized?: boolean;
  /**
   * 'diff' (default) writes changed rows only; 'passthrough' writes Ink's bytes unchanged and
   * only keeps the screen model (for screendumps, and to compare against).
   */
  mode?: 'diff' | 'passthrough';
}

export class LineDiffWriter extends Writable {
  readonly stats: LineDiffStats = { bytesIn: 0, bytesOut: 0, updates: 0, rowsWritten: 0, rowsPatched: 0, fullRepaints: 0, fallbacks: 0, lastFallback: null };
  /** The screen Ink intends. */
  private screen: Row[];
  /** What the terminal shows, row by row, as far as we know. */
  private shown: Row[];
  private repaintAll = false;
  /** The terminal's pen is unknown or not the default (after a pass-through or a styled row). */
  private shownPenDirty = false;

  // Ink's cursor and pen, as its own bytes move them.
  private row = 0;
  private atColumn1 = true;
  private open: { parts: string[]; plain: string[]; startPen: string } | null = null;
  private readonly pen = new Pen();
  private carry = '';
  /**
   * The rows of the screen as last sent, by their bytes, for rows that start and end with the
   * default pen: Ink writes every row in every frame, most of them the same bytes as the frame
   * before, and such a row is the same Row again without parsing it. Only the rows on screen are
   * kept (rebuilt after each update), so it holds nothing the screen does not.
   */
  private parsedRows = new Map<string, Row>();

  // The update being collected (everything Ink writes within one synchronous render).
  private pending = false;
  private scheduled = false;
  private raw: string[] = [];
  private rawStartRow = 0;
  private notUnderstood: string | false = false;
  /** A frame with a row wider than the terminal waits this long for a corrected one. */
  private overwideTimer: NodeJS.Timeout | null = null;
  private bells = 0;
  private cursorWanted: boolean | null = null;
  private cursorShown: boolean | null = null;
  private readonly synchronized: boolean;
  private readonly passthrough: boolean;
  private readonly cellDiff: boolean;

  constructor(
    private readonly terminal: TerminalOut,
    opts: LineDiffOptions = {},
  ) {
    super({ decodeStrings: false });
    this.synchronized = opts.synchronized ?? true;
    this.passthrough = opts.mode === 'passthrough';
    this.cellDiff = opts.cellDiff ?? true;
    this.screen = blankRows(this.rows);
    this.shown = blankRows(this.rows);
    terminal.on('resize', this.onResize);
  }

  // Ink reads the size and TTY-ness from the stream it renders into.
  get columns(): number {
    return this.terminal.columns || 80;
  }
  get rows(): number {
    return this.terminal.rows || 24;
  }
  get isTTY(): boolean {
    return this.terminal.isTTY === true;
  }

  /** Paints every row again (Ctrl-L: another program, a `wall` message, wrote over the screen). */
  redraw(): void {
    this.repaintAll = true;
    this.flush();
  }

  /** Stops following the terminal's resizes. */
  dispose(): void {
    this.terminal.off('resize', this.onResize);
    if (this.overwideTimer) clearTimeout(this.overwideTimer);
    this.overwideTimer = null;
  }

  /** The screen as plain text: rows without styles, trailing blanks and blank rows trimmed. */
  screenText(): string {
    this.commitOpen();
    const lines = this.screen.map((r) => r.plain.trimEnd());
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  /** The screen's rows with their styles (each row self-contained). */
  screenRows(): string[] {
    this.commitOpen();
    return this.screen.map((r) => r.bytes);
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.take(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    callback();
  }

  /** Feeds Ink's bytes (also usable directly, without the stream machinery). */
  take(text: string): void {
    if (text.length === 0) return;
    this.stats.bytesIn += Buffer.byteLength(text);
    if (!this.pending) {
      this.pending = true;
      this.rawStartRow = this.row;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.flush();
      });
    }
    if (this.passthrough) {
      this.stats.bytesOut += Buffer.byteLength(text);
      this.terminal.write(text);
    } else this.raw.push(text);
    const endOfUpdate = this.parse(this.carry + text);
    if (endOfUpdate) this.flush();
  }

  private readonly onResize = () => {
    const rows = this.rows;
    this.screen = resized(this.screen, rows);
    this.shown = blankRows(rows);
    this.row = Math.min(this.row, rows - 1);
    this.repaintAll = true;
    this.emit('resize');
    // Ink normally renders on resize; repaint even if the frame came out identical.
    queueMicrotask(() => this.flush());
  };

  /** Applies Ink's bytes to the screen model; true at an end-of-synchronized-update marker. */
  private parse(s: string): boolean {
    this.carry = '';
    let end = false;
    let i = 0;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x1b) {
        const next = s[i + 1];
        if (next === undefined) {
          this.carry = s.slice(i);
          break;
        }
        if (next === '[') {
          let j = i + 2;
          while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x3f) j++;
          if (j >= s.length) {
            this.carry = s.slice(i);
            break;
          }
          const seq = s.slice(i, j + 1);
          if (this.csi(seq, s.slice(i + 2, j), s[j]!)) end = true;
          i = j + 1;
          continue;
        }
        if (next === ']' || next === 'P' || next === '_' || next === '^') {
          // A string sequence (OSC, DCS, ...): not modelled. Skip to its terminator.
          const bel = s.indexOf('\x07', i);
          const st = s.indexOf('\x1b\\', i);
          const stop = bel < 0 ? st : st < 0 ? bel : Math.min(bel, st);
          if (stop < 0) {
            this.carry = s.slice(i);
            break;
          }
          this.notUnderstood = 'a string sequence (OSC, DCS, ...)';
          i = stop + (stop === st ? 2 : 1);
          continue;
        }
        this.notUnderstood = `ESC ${JSON.stringify(next)}`;
        i += 2;
        continue;
      }
      if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f)) {
        this.control(c);
        i++;
        continue;
      }
      const known = this.knownRow(s, i);
      if (known > i) {
        i = known;
        continue;
      }
      let j = i + 1;
      while (j < s.length) {
        const d = s.charCodeAt(j);
        if (d < 0x20 || d === 0x7f || (d >= 0x80 && d <= 0x9f)) break;
        j++;
      }
      this.text(s.slice(i, j));
      i = j;
    }
    return end;
  }

  /**
   * A whole row (up to its newline) parsed before, starting on a blank row at column 1 with the
   * default pen: put it on the screen as it was, and return where its newline is (else `from`).
   */
  private knownRow(s: string, from: number): number {
    if (this.open || !this.atColumn1 || !this.pen.isDefault || this.screen[this.row] !== BLANK) return from;
    const newline = s.indexOf('\n', from);
    if (newline < 0) return from;
    const row = this.parsedRows.get(s.slice(from, newline));
    if (row === undefined) return from;
    this.screen[this.row] = row;
    this.atColumn1 = false;
    return newline;
  }

  private text(t: string): void {
    if (!this.open) {
      if (!this.atColumn1 || (this.screen[this.row]?.bytes ?? '') !== '') {
        // Text over something already there, or from a column we do not track.
        this.notUnderstood = 'text over a row that is not blank';
        return;
      }
      this.open = { parts: [], plain: [], startPen: this.pen.sgr() };
    }
    this.open.parts.push(t);
    this.open.plain.push(t);
    this.atColumn1 = false;
  }

  private control(c: number): void {
    switch (c) {
      case 0x0a: // LF; the tty's ONLCR makes it CR LF
        this.commitOpen();
        this.atColumn1 = true;
        if (this.row < this.rows - 1) this.row++;
        else {
          this.screen.shift();
          this.screen.push(BLANK);
        }
        return;
      case 0x0d:
        this.commitOpen();
        this.atColumn1 = true;
        return;
      case 0x07:
        this.bells++;
        return;
      default:
        this.notUnderstood = `control character ${c}`;
    }
  }

  /** One CSI sequence; true for the end-of-synchronized-update marker. */
  private csi(seq: string, params: string, final: string): boolean {
    if (params.startsWith('?')) {
      if (final !== 'h' && final !== 'l') {
        this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        return false;
      }
      if (params === '?25') this.cursorWanted = final === 'h';
      else if (params === '?2026') return final === 'l';
      else this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
      return false;
    }
    if (!/^[0-9;]*$/.test(params) && !(final === 'm' && /^[0-9;:]*$/.test(params))) {
      this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
      return false;
    }
    const n = params === '' ? 1 : Number(params.split(';')[0]) || 1;
    switch (final) {
      case 'm':
        this.pen.apply(params);
        if (this.open) this.open.parts.push(seq);
        return false;
      case 'A':
        this.commitOpen();
        this.row = Math.max(0, this.row - n);
        return false;
      case 'B':
        this.commitOpen();
        this.row = Math.min(this.rows - 1, this.row + n);
        return false;
      case 'G':
        this.commitOpen();
        if (n === 1) this.atColumn1 = true;
        else this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        return false;
      case 'H':
      case 'f': {
        this.commitOpen();
        const [r, col] = params.split(';');
        this.row = Math.min(this.rows - 1, Math.max(0, (Number(r) || 1) - 1));
        if ((Number(col) || 1) === 1) this.atColumn1 = true;
        else this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        return false;
      }
      case 'K': {
        const mode = params === '' ? 0 : Number(params);
        if (mode === 2 || (mode === 0 && this.atColumn1 && !this.open)) {
          this.open = null;
          this.screen[this.row] = BLANK;
        } else if (!(mode === 0 && this.open)) {
          // Erasing after text we just wrote on a blank row changes nothing; anything else is not modelled.
          this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        }
        return false;
      }
      case 'J': {
        const mode = params === '' ? 0 : Number(params);
        this.commitOpen();
        if (mode === 2) this.screen = blankRows(this.rows);
        else if (mode === 3) {
          // Scrollback only: nothing on the screen changes.
        } else if (mode === 0 && this.atColumn1) {
          for (let r = this.row; r < this.screen.length; r++) this.screen[r] = BLANK;
        } else this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        return false;
      }
      default:
        this.notUnderstood = `CSI ${JSON.stringify(seq)}`;
        return false;
    }
  }

  private commitOpen(): void {
    const o = this.open;
    if (!o) return;
    this.open = null;
    const row: Row = { bytes: o.startPen + o.parts.join(''), plain: o.plain.join(''), endsDefault: this.pen.isDefault };
    // Its bytes are exactly what Ink wrote for it (text and SGR only: anything else either
    // closes the row or is not understood), from and to the default pen.
    if (o.startPen === '' && row.endsDefault && !this.notUnderstood) row.reusable = true;
    this.screen[this.row] = row;
  }

  /** The rows the next update may take as they are: this screen's. */
  private rememberScreenRows(): void {
    const rows = new Map<string, Row>();
    for (const row of this.screen) if (row.reusable) rows.set(row.bytes, row);
    this.parsedRows = rows;
  }

  /** Sends the collected update to the terminal. */
  flush(): void {
    if (!this.pending && !this.repaintAll) return;
    this.commitOpen();
    if (!this.notUnderstood && !this.passthrough && this.hasOverwideRow()) {
      // During a resize Ink first draws the old layout at the new width; the corrected frame
      // follows at once. Wait for it rather than pass a frame through that the terminal wraps.
      if (!this.overwideTimer) {
        this.overwideTimer = setTimeout(() => {
          this.notUnderstood = 'a row wider than the terminal';
          this.flush();
        }, 200);
        this.overwideTimer.unref?.();
      }
      return;
    }
    if (this.overwideTimer) {
      clearTimeout(this.overwideTimer);
      this.overwideTimer = null;
    }
    this.pending = false;
    this.rememberScreenRows();
    if (this.passthrough) {
      this.notUnderstood = this.repaintAll = false;
      this.bells = 0;
      return;
    }
    const raw = this.raw.join('');
    this.raw = [];
    let out: string;
    if (this.notUnderstood) {
      out = this.passThrough(raw, this.notUnderstood);
    } else if (this.repaintAll) {
      out = this.repaint();
    } else {
      out = this.diff();
    }
    if (this.cursorWanted !== null && this.cursorWanted !== this.cursorShown) {
      out += this.cursorWanted ? '\x1b[?25h' : '\x1b[?25l';
      this.cursorShown = this.cursorWanted;
    }
    if (this.bells > 0) {
      out += '\x07';
      this.bells = 0;
    }
    if (out.length === 0) return;
    this.stats.bytesOut += Buffer.byteLength(out);
    this.stats.updates++;
    this.terminal.write(out);
  }

  private hasOverwideRow(): boolean {
    const columns = this.columns;
    for (let r = 0; r < this.screen.length; r++) {
      const row = this.screen[r]!;
      if (row === this.shown[r] || row.bytes === this.shown[r]!.bytes) continue;
      if (row.plain.length > columns / 2 && stringWidth(row.plain) > columns) return true;
    }
    return false;
  }

  /** Ink's own bytes, from where Ink believes its cursor was; the next update repaints everything. */
  private passThrough(raw: string, reason: string): string {
    this.notUnderstood = false;
    this.stats.fallbacks++;
    this.stats.lastFallback = reason;
    this.repaintAll = true;
    this.shownPenDirty = true;
    this.cursorShown = null;
    return `${RESET}\x1b[${this.rawStartRow + 1}H${raw}`;
  }

  private repaint(): string {
    this.repaintAll = false;
    this.stats.fullRepaints++;
    let out = `${RESET}\x1b[H\x1b[2J`;
    this.shownPenDirty = false;
    for (let r = 0; r < this.screen.length; r++) {
      const row = this.screen[r]!;
      this.shown[r] = row;
      if (row.bytes === '') continue;
      out += this.rowBytes(r, row, false);
    }
    return this.synchronized && this.isTTY ? BSU + out + ESU : out;
  }

  private diff(): string {
    let out = '';
    let rows = 0;
    for (let r = 0; r < this.screen.length; r++) {
      const row = this.screen[r]!;
      const was = this.shown[r]!;
      if (row === was || row.bytes === was.bytes) continue;
      this.shown[r] = row;
      out += this.changedRow(r, was, row);
      rows++;
    }
    return rows > 1 && this.synchronized && this.isTTY ? BSU + out + ESU : out;
  }

  /** The shorter of: the changed cells only, the whole row. */
  private changedRow(r: number, was: Row, row: Row): string {
    const whole = () => this.rowBytes(r, row, was.bytes !== '');
    if (!this.cellDiff || was.bytes === '' || row.bytes === '') return whole();
    if (was.cells === undefined) was.cells = rowCells(was.bytes);
    if (row.cells === undefined) row.cells = rowCells(row.bytes);
    if (!was.cells || !row.cells) return whole();
    const penBefore = this.shownPenDirty;
    const patch = patchRow(r, was.cells, row.cells, penBefore, row.plain);
    const full = whole();
    if (!patch || Buffer.byteLength(patch.bytes) >= Buffer.byteLength(full)) return full;
    this.stats.rowsWritten--;
    this.stats.rowsPatched++;
    this.shownPenDirty = patch.penDirty;
    return patch.bytes;
  }

  /** Position on row r, make it blank, write it. */
  private rowBytes(r: number, row: Row, erase: boolean): string {
    this.stats.rowsWritten++;
    let s = `\x1b[${r + 1}H`;
    if (this.shownPenDirty) s += RESET;
    // Erase first, then write: erasing after a full-width row would hit its last cell on
    // terminals that keep the cursor there (pending wrap).
    if (erase) s += '\x1b[K';
    s += row.bytes;
    this.shownPenDirty = !row.endsDefault;
    return s;
  }
}

function blankRows(n: number): Row[] {
  return Array.from({ length: n }, () => BLANK);
}

function resized(rows: Row[], n: number): Row[] {
  return rows.length >= n ? rows.slice(0, n) : [...rows, ...blankRows(n - rows.length)];
}
