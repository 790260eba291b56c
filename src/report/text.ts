/**
 * --once: a compact plain-text report of the four operations. It reads the same Snapshot as
 * every other output and draws rows with the live view's own pure renderers, so the report and
 * the panes cannot disagree. Color only when asked for (a TTY without NO_COLOR); otherwise not
 * one escape sequence.
 */
import { styleText } from 'node:util';
import stringWidth from 'string-width';
import { lintAlarm } from '../model/alarm-lint.js';
import type { Section, Snapshot } from '../model/snapshot.js';
import { defaultThresholds, evaluateHealth, type Thresholds } from '../monitor/health.js';
import { alarmFields } from '../view/alarm.js';
import { cell, type Line } from '../view/cell.js';
import type { Field } from '../view/field.js';
import { CONSTELLATIONS, constellationNames, gnssReceiverFields, receiverLabel } from '../view/gnss-receiver.js';
import { ntpColumns, ntpSourceRow, ntpStatusLine } from '../view/ntp-source.js';
import { ptpColumns, ptpPortDetail, ptpPortRow } from '../view/ptp-port.js';
import { errorLine } from '../view/section.js';
import { glyphsFor, offsetLimits, palette, type Token } from '../view/theme.js';
import { fitLine, lineWidth, padText, wrapLine } from '../view/fit.js';
import { NO_HISTORY_NOTE } from './history-charts.js';
import { COLUMN_GAP, layoutColumns, placeText, type TableColumn, type TableRow } from '../view/table-layout.js';

export interface TextReportOptions {
  color: boolean;
  ascii: boolean;
  /** Lines are cut to this many columns. */
  width?: number;
  thresholds?: Thresholds;
  now?: number;
  /** Offset charts over kept history (replay --once); without them the report says where they are. */
  history?: Line[];
}

const severityToken: Record<string, Token> = { ok: 'ok', warning: 'warn', critical: 'bad' };

export function textReport(snapshot: Snapshot, opts: TextReportOptions): string {
  const width = opts.width ?? 120;
  const glyphs = glyphsFor(opts.ascii);
  const now = opts.now ?? Date.parse(snapshot.takenAt);
  const out: Line[] = [];
  /** Sentences (errors, findings, lint) wrap instead of being cut: a fingerprint must survive. */
  const prose = new WeakSet<Line>();
  const say = (line: Line) => {
    prose.add(line);
    out.push(line);
  };
  const blank = () => out.push([]);
  const title = (text: string) => out.push([cell(text, 'title', true)]);

  const verdict = evaluateHealth(snapshot, opts.thresholds);
  const limits = offsetLimits(opts.thresholds ?? defaultThresholds);
  out.push([cell('synctop report ', 'title', true), cell(snapshot.device), cell(`  ${snapshot.takenAt}`, 'muted')]);
  out.push([cell('health  ', 'muted'), cell(verdict.severity.toUpperCase(), severityToken[verdict.severity], true)]);
  for (const f of verdict.findings) say([cell(`  ${f.severity === 'critical' ? '!' : '~'} `, severityToken[f.severity]), cell(f.message)]);

  blank();
  title('NTP');
  section(snapshot.ntp, say, (data) => {
    out.push(ntpStatusLine(data));
    const rows = data.sources.map((s) => ntpSourceRow(s, [], { ascii: opts.ascii, glyphs, limits: limits.ntp }));
    // No history in a one-shot report: the trend column would be empty.
    out.push(...table(ntpColumns.filter((c) => c.key !== 'trend'), rows, width, glyphs.ellipsis));
  });

  blank();
  title('GNSS');
  section(snapshot.gnss, say, (data) => {
    if (data.receivers.length === 0) out.push([cell('no receivers reported', 'muted')]);
    data.receivers.forEach((rx, i) => {
      out.push([cell(receiverLabel(rx, i), undefined, true)]);
      out.push(...fields(gnssReceiverFields(rx, { ascii: opts.ascii, glyphs }), '  '));
      if (rx.satellitesTotal !== null || CONSTELLATIONS.some((c) => rx.satellites[c] !== null)) {
        const counts = CONSTELLATIONS.map((c) => `${constellationNames[c]} ${rx.satellites[c] ?? '-'}`).join('  ');
        out.push([cell('  satellites      ', 'muted'), cell(counts), cell(`  total ${rx.satellitesTotal ?? '-'}`, undefined, true)]);
      }
    });
  }, (error) => (error.code === '40003' ? 'no GNSS receiver (or no permission to see it)' : undefined));

  blank();
  title('PTP');
  section(snapshot.ptp, say, (data) => {
    if (data.ports.length === 0) {
      out.push([cell('no PTP slave port answered (ids asked: see --ptp-ports)', 'muted')]);
      return;
    }
    out.push(...table(ptpColumns, data.ports.map((p) => ptpPortRow(p, { ascii: opts.ascii, glyphs, limits: limits.ptp })), width, glyphs.ellipsis));
    for (const p of data.ports) {
      if (!p.ok) {
        if (p.error) say([cell(`port ${p.id} `, undefined, true), ...errorLine(p.error)]);
        continue;
      }
      out.push([cell(`port ${p.id}`, undefined, true)]);
      // The list row already shows id, state and offset; the rest of the detail follows.
      const detail = ptpPortDetail(p, [], now, { ascii: opts.ascii, glyphs, sparkWidth: 0, limits: limits.ptp }).slice(3);
      out.push(...fields(detail, '  '));
    }
  });

  blank();
  title('Alarm e-mail');
  section(snapshot.alarm, say, (data) => {
    out.push(...fields(alarmFields(data), '  '));
    for (const lint of lintAlarm(data)) say([cell('  ~ ', 'warn'), cell(lint.message, 'warn')]);
  });

  blank();
  title('History');
  if (opts.history) out.push(...opts.history);
  else say([cell(NO_HISTORY_NOTE, 'muted')]);

  return (
    out
      .flatMap((line) => (prose.has(line) ? wrapLine(line, width) : [fitLine(line, width, glyphs.ellipsis)]))
      .map((line) => render(line, opts.color))
      .join('\n') + '\n'
  );
}

function section<T>(sec: Section<T>, say: (line: Line) => void, body: (data: T) => void, explain?: (e: { code?: string }) => string | undefined): void {
  if (!sec.ok) {
    say(errorLine(sec.error, explain?.(sec.error)));
    return;
  }
  body(sec.data);
}

function fields(list: Field[], indent: string): Line[] {
  const labelWidth = Math.max(0, ...list.map((f) => stringWidth(f.label))) + 2;
  return list.map((f) => [cell(indent + f.label.padEnd(labelWidth), 'muted'), ...f.value]);
}

function table<K extends string>(columns: readonly TableColumn<K>[], rows: TableRow<K>[], width: number, ellipsis: string): Line[] {
  const placed = layoutColumns(columns, rows, width);
  const gap = ' '.repeat(COLUMN_GAP);
  const header: Line = [cell(placed.map((c) => padText(c.header, c.width, c.align ?? 'left', ellipsis)).join(gap), 'muted', true)];
  const body = rows.map((row) =>
    placed.flatMap((c, i) => {
      const v = row[c.key];
      const text = placeText(v.text, c, ellipsis);
      return i === 0 ? [{ ...v, text }] : [cell(gap), { ...v, text }];
    }),
  );
  return [header, ...body];
}

function render(line: Line, color: boolean): string {
  return line
    .map((c) => {
      if (!color || c.text === '') return c.text;
      const fmt: Parameters<typeof styleText>[0][] = [];
      const name = c.token ? palette[c.token] : undefined;
      if (name) fmt.push(name as Parameters<typeof styleText>[0]);
      if (c.bold) fmt.push('bold');
      return fmt.length ? styleText(fmt as Parameters<typeof styleText>[0], c.text) : c.text;
    })
    .join('')
    .trimEnd();
}
