import { EventEmitter } from 'node:events';
import ansiEscapes from 'ansi-escapes';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineDiffWriter } from '../../../src/ui/terminal/line-diff-writer.js';
import { Pen } from '../../../src/ui/terminal/pen.js';

class FakeTerminal extends EventEmitter {
  isTTY = true;
  chunks: string[] = [];
  constructor(
    public columns = 40,
    public rows = 10,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  take(): string {
    const s = this.chunks.join('');
    this.chunks = [];
    return s;
  }
}

/** What Ink 6.8's standard renderer writes for a frame, after a frame of `previous` lines. */
function inkUpdate(previous: number, lines: string[]): string {
  return '\x1b[?2026h' + ansiEscapes.eraseLines(previous === 0 ? 0 : previous + 1) + lines.join('\n') + '\n' + '\x1b[?2026l';
}

/** Row-level diffs unless `cellDiff` (tested on its own below). */
function setup(columns = 40, rows = 10, cellDiff = false) {
  const term = new FakeTerminal(columns, rows);
  const writer = new LineDiffWriter(term, { synchronized: false, cellDiff });
  let height = 0;
  const frame = (lines: string[]) => {
    writer.take(inkUpdate(height, lines));
    height = lines.length;
    return term.take();
  };
  return { term, writer, frame };
}

const base = ['header 12:00:01', '\x1b[32mOK\x1b[39m offset \x1b[1m+12ns\x1b[22m', 'row three', 'footer'];

describe('LineDiffWriter', () => {
  it('the first frame writes every non-blank row, positioned absolutely', () => {
    const { frame, writer } = setup();
    const out = frame(base);
    expect(out).toBe(
      '\x1b[1Hheader 12:00:01' + '\x1b[2H\x1b[32mOK\x1b[39m offset \x1b[1m+12ns\x1b[22m' + '\x1b[3Hrow three' + '\x1b[4Hfooter',
    );
    expect(writer.screenText()).toBe('header 12:00:01\nOK offset +12ns\nrow three\nfooter');
  });

  it('writes zero bytes when the frame is identical', () => {
    const { frame, writer } = setup();
    frame(base);
    const before = writer.stats.bytesOut;
    expect(frame(base)).toBe('');
    expect(frame([...base])).toBe('');
    expect(writer.stats.bytesOut).toBe(before);
    expect(writer.stats.bytesIn).toBeGreaterThan(3 * 60);
  });

  it('writes only the changed row when one value changes', () => {
    const { frame, writer } = setup();
    frame(base);
    const next = [...base];
    next[1] = '\x1b[32mOK\x1b[39m offset \x1b[1m+13ns\x1b[22m';
    expect(frame(next)).toBe('\x1b[2H\x1b[K\x1b[32mOK\x1b[39m offset \x1b[1m+13ns\x1b[22m');
    expect(writer.screenText().split('\n')[1]).toBe('OK offset +13ns');
  });

  it('wraps a multi-row update in synchronized-update markers when asked to', () => {
    const term = new FakeTerminal();
    const writer = new LineDiffWriter(term, { cellDiff: false });
    writer.take(inkUpdate(0, ['a', 'b']));
    term.take();
    writer.take(inkUpdate(2, ['c', 'd']));
    expect(term.take()).toBe('\x1b[?2026h\x1b[1H\x1b[Kc\x1b[2H\x1b[Kd\x1b[?2026l');
    writer.take(inkUpdate(2, ['c', 'e']));
    expect(term.take()).toBe('\x1b[2H\x1b[Ke');
  });

  it('blanks the rows a shorter frame no longer uses', () => {
    const { frame, writer } = setup();
    frame(base);
    expect(frame(['header 12:00:01', 'short'])).toBe('\x1b[2H\x1b[Kshort\x1b[3H\x1b[K\x1b[4H\x1b[K');
    expect(writer.screenText()).toBe('header 12:00:01\nshort');
  });

  it('starts each row with the pen the full stream had there', () => {
    const { frame, writer } = setup();
    frame(['\x1b[31mred starts', 'still red\x1b[39m', 'plain']);
    const out = frame(['\x1b[31mred starts', 'still red!\x1b[39m', 'plain']);
    expect(out).toBe('\x1b[2H\x1b[K\x1b[31mstill red!\x1b[39m');
    expect(writer.screenRows()[1]).toBe('\x1b[31mstill red!\x1b[39m');
  });

  it('resets a pen left open before writing the next row', () => {
    const { frame } = setup();
    frame(['a', 'b']);
    const out = frame(['\x1b[44mblue bg', 'c\x1b[49m']);
    expect(out).toBe('\x1b[1H\x1b[K\x1b[44mblue bg\x1b[2H\x1b[m\x1b[K\x1b[44mc\x1b[49m');
  });

  it('passes a BEL through without rewriting the frame (Ink clears and restores around writes)', () => {
    const { frame, writer, term } = setup();
    frame(base);
    // Ink's writeToStdout: clear the frame, write the data, write the last frame again.
    writer.take('\x1b[?2026h' + ansiEscapes.eraseLines(base.length + 1) + '\x07' + base.join('\n') + '\n' + '\x1b[?2026l');
    expect(term.take()).toBe('\x07');
  });

  it('passes cursor visibility through once', () => {
    const { writer, term } = setup();
    writer.take('\x1b[?25l');
    writer.flush();
    expect(term.take()).toBe('\x1b[?25l');
    writer.take('\x1b[?25l');
    writer.flush();
    expect(term.take()).toBe('');
  });

  it('models Ink full-height path: clear screen, home, a frame without trailing newline', () => {
    const { writer, term } = setup(40, 4);
    writer.take(inkUpdate(0, ['1', '2', '3']));
    term.take();
    writer.take(ansiEscapes.clearTerminal + ['1', '2', '3', '4'].join('\n'));
    writer.flush();
    expect(term.take()).toBe('\x1b[4H4');
    expect(writer.screenText()).toBe('1\n2\n3\n4');
  });

  it('passes what it does not understand through, from where Ink left its cursor, then repaints fully', () => {
    const { frame, writer, term } = setup();
    frame(base);
    const odd = ['header 12:00:02', 'with a link \x1b]8;;http://x\x07x\x1b]8;;\x07', 'row three', 'footer'];
    const update = inkUpdate(4, odd);
    writer.take(update);
    expect(term.take()).toBe(`\x1b[m\x1b[5H${update}`);
    expect(writer.stats.fallbacks).toBe(1);
    const out = frame(['header 12:00:03', 'plain', 'row three', 'footer']);
    expect(out).toContain('\x1b[H\x1b[2J');
    expect(out).toContain('\x1b[1Hheader 12:00:03');
    expect(out).toContain('\x1b[4Hfooter');
    expect(writer.stats.fullRepaints).toBe(1);
    // and back to diffs
    expect(frame(['header 12:00:04', 'plain', 'row three', 'footer'])).toBe('\x1b[1H\x1b[Kheader 12:00:04');
  });

  it('waits briefly for a corrected frame when a row is wider than the terminal (resizes)', async () => {
    const { frame, writer } = setup(10, 5);
    frame(['short']);
    expect(frame(['this row is much too wide'])).toBe('');
    expect(frame(['fits'])).toBe('\x1b[1H\x1b[Kfits');
    expect(writer.stats.fallbacks).toBe(0);
  });

  it('then passes the wide row through rather than guess how the terminal wraps it', async () => {
    const { frame, writer, term } = setup(10, 5);
    frame(['short']);
    frame(['this row is much too wide']);
    await new Promise((r) => setTimeout(r, 250));
    expect(writer.stats.fallbacks).toBe(1);
    expect(writer.stats.lastFallback).toBe('a row wider than the terminal');
    expect(term.take()).toContain('this row is much too wide');
  });

  it('repaints fully once on resize, follows the new size, and forwards the event', () => {
    const { frame, writer, term } = setup();
    frame(base);
    let forwarded = 0;
    writer.on('resize', () => forwarded++);
    term.columns = 60;
    term.rows = 3;
    term.emit('resize');
    expect(forwarded).toBe(1);
    expect(writer.columns).toBe(60);
    expect(writer.rows).toBe(3);
    const out = frame(['h', 'b']);
    expect(out.startsWith('\x1b[?2026h\x1b[m\x1b[H\x1b[2J') || out.startsWith('\x1b[m\x1b[H\x1b[2J')).toBe(true);
    expect(writer.screenText()).toBe('h\nb');
    expect(writer.stats.fullRepaints).toBe(1);
    expect(frame(['h', 'c'])).toBe('\x1b[2H\x1b[Kc');
  });

  describe('within a row', () => {
    const header = (s: string) => `\x1b[1m\x1b[36m━▶ 1 NTP ${s} ago ━━━━━━━━━━━━━━━━━━━━\x1b[39m\x1b[22m`;

    it('an age tick rewrites only the changed cell, with its pen', () => {
      const { frame, writer } = setup(40, 10, true);
      frame([header('2s'), 'other']);
      expect(frame([header('3s'), 'other'])).toBe('\x1b[1;10H\x1b[1;36m3');
      expect(writer.stats.rowsPatched).toBe(1);
      expect(writer.screenText().split('\n')[0]).toBe('━▶ 1 NTP 3s ago ━━━━━━━━━━━━━━━━━━━━');
    });

    it('keeps the styles changing inside the changed run, and resets the pen after it', () => {
      const { frame } = setup(40, 10, true);
      frame(['offset \x1b[32m+12ns\x1b[39m ok']);
      expect(frame(['offset \x1b[31m-9.1ms\x1b[39m ok'])).toBe('\x1b[1;8H\x1b[31m-9.1ms\x1b[39m ok');
      expect(frame(['offset \x1b[31m-9.2ms\x1b[39m ok'])).toBe('\x1b[1;11H\x1b[31m2');
      // the pen was left red: the next write resets it first
      expect(frame(['offset \x1b[31m-9.2ms\x1b[39m OK'])).toBe('\x1b[1;15H\x1b[mOK');
    });

    it('clears the tail when the row got shorter', () => {
      const { frame } = setup(40, 10, true);
      frame(['updated 12s ago · LIVE']);
      expect(frame(['updated 9s ago · LIVE'])).toBe('\x1b[1;9H9s ago · LIVE\x1b[K');
    });

    it('moves wide characters by their width', () => {
      const { frame } = setup(40, 10, true);
      frame(['時刻 12 ok']);
      expect(frame(['時刻 13 ok'])).toBe('\x1b[1;7H3');
    });

    it('a row that changed entirely is written from its first column, without erasing', () => {
      const { frame } = setup(40, 10, true);
      frame(['abcdef']);
      expect(frame(['uvwxyz'])).toBe('\x1b[1Huvwxyz');
    });
  });

  it('in passthrough mode writes Ink bytes unchanged and still models the screen', () => {
    const term = new FakeTerminal();
    const writer = new LineDiffWriter(term, { mode: 'passthrough' });
    const u = inkUpdate(0, base);
    writer.take(u);
    writer.flush();
    expect(term.take()).toBe(u);
    expect(writer.screenText()).toBe('header 12:00:01\nOK offset +12ns\nrow three\nfooter');
  });

  it('models every frame of a long run exactly, rows seen before included', () => {
    // Rows from a small pool, so that most rows of a frame are rows parsed before; some leave a
    // pen open (the next row starts with it) and some close one they did not open.
    const pool = ['header 12:00:01', 'header 12:00:02', '\x1b[32mOK\x1b[39m offset \x1b[1m+12ns\x1b[22m', '\x1b[33mopen', 'still \x1b[39mclosed', '東京 ●', '', 'row three', '\x1b[1;31mbold red\x1b[m'];
    const rows = 8;
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: rows - 1 }), { minLength: 1, maxLength: 12 }), (frames) => {
        const { frame, writer } = setup(40, rows);
        // The model: each character of a row with the pen the stream had there (an open pen
        // carries on into the next row and frame).
        const pen = new Pen();
        const styled = (bytes: string, p: Pen) => {
          const out: string[] = [];
          for (const part of bytes.split(/(\x1b\[[0-9;]*m)/)) {
            if (part.startsWith('\x1b[')) p.apply(part.slice(2, -1));
            else for (const ch of part) out.push(`${p.sgr()}|${ch}`);
          }
          return out;
        };
        for (const lines of frames) {
          frame(lines);
          const expected = lines.map((line) => styled(line, pen));
          const shown = writer.screenRows().map((bytes) => styled(bytes, new Pen()));
          expect(shown.slice(0, lines.length)).toEqual(expected);
          expect(shown.slice(lines.length).every((r) => r.length === 0)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an escape sequence split across writes', () => {
    const { writer, term } = setup();
    writer.take('abc\x1b[3');
    writer.take('1mred\x1b[39m\n');
    writer.flush();
    expect(term.take()).toBe('\x1b[1Habc\x1b[31mred\x1b[39m');
    expect(writer.stats.fallbacks).toBe(0);
  });
});
