/**
 * The threshold range syntax of the monitoring-plugin guidelines (Nagios, Icinga, Zabbix agents
 * running plugins): `[@][start:][end]`.
 *
 *   10      alert when the value is outside 0..10
 *   10:     alert when the value is below 10
 *   ~:10    alert when the value is above 10 (~ is minus infinity)
 *   10:20   alert when the value is outside 10..20
 *   @10:20  alert when the value is inside 10..20 (bounds included)
 *
 * Pure: parsing, testing a value and writing a range back (for perfdata) live here.
 */

export interface PluginRange {
  start: number;
  end: number;
  /** `@`: alert inside start..end instead of outside. */
  inside: boolean;
}

export type RangeParse = { ok: true; range: PluginRange } | { ok: false; message: string };

/**
 * Plain decimal or exponent notation; the guidelines only show decimals, exponents are a kindness.
 * Written so that no digit can be matched two ways (`\d+\.?\d*` could split a run of digits at
 * every place, and took quadratic time on a long one).
 */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function parseBound(text: string, what: string): number | string {
  if (!NUMBER.test(text)) return `${what} "${text}" is not a number`;
  return Number(text);
}

export function parsePluginRange(text: string): RangeParse {
  const raw = text.trim();
  const bad = (why: string): RangeParse => ({
    ok: false,
    message: `bad range "${text}": ${why}; use [@][start:][end], e.g. 10, 10:, ~:10, 10:20, @10:20`,
  });
  if (raw === '') return bad('it is empty');
  const inside = raw.startsWith('@');
  const body = inside ? raw.slice(1) : raw;
  if (body === '') return bad('nothing follows @');
  const colon = body.indexOf(':');
  let start = 0;
  let end = Number.POSITIVE_INFINITY;
  if (colon === -1) {
    const e = parseBound(body, 'end');
    if (typeof e === 'string') return bad(e);
    end = e;
  } else {
    const startText = body.slice(0, colon);
    const endText = body.slice(colon + 1);
    if (endText.includes(':')) return bad('more than one colon');
    if (startText === '~') start = Number.NEGATIVE_INFINITY;
    // ":10" reads as "0:10", as the reference C implementation reads it.
    else if (startText !== '') {
      const s = parseBound(startText, 'start');
      if (typeof s === 'string') return bad(s);
      start = s;
    }
    if (endText !== '') {
      const e = parseBound(endText, 'end');
      if (typeof e === 'string') return bad(e);
      end = e;
    }
  }
  if (start > end) return bad('start is above end');
  return { ok: true, range: { start, end, inside } };
}

/** True when `value` is in the alerting part of the range. */
export function rangeAlerts(range: PluginRange, value: number): boolean {
  const within = value >= range.start && value <= range.end;
  return range.inside ? within : !within;
}

/**
 * A number as perfdata wants it: the guidelines allow only [-0-9.], so no exponent (1.2e-8 is
 * written 0.000000012). Twelve decimals reach picoseconds, below any offset a device reports.
 */
export function perfNumber(value: number): string {
  if (!Number.isFinite(value)) return 'U';
  if (value === 0) return '0';
  // The shortest text that reads back as the same number, unless JavaScript chose an exponent.
  const shortest = String(value);
  if (!/e/i.test(shortest)) return shortest;
  const text = value.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

/** The range written back in its shortest form, as the warn/crit field of perfdata. */
export function formatRange(range: PluginRange): string {
  const at = range.inside ? '@' : '';
  const end = range.end === Number.POSITIVE_INFINITY ? '' : perfNumber(range.end);
  if (range.start === 0 && end !== '') return `${at}${end}`;
  const start = range.start === Number.NEGATIVE_INFINITY ? '~' : perfNumber(range.start);
  return `${at}${start}:${end}`;
}

/** The range that alerts exactly when a value exceeds `limit` (values here are never negative). */
export function upperLimit(limit: number): PluginRange {
  return { start: 0, end: limit, inside: false };
}
