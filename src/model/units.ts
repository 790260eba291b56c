/**
 * Units: parsing the device's unit-bearing texts into numbers, and formatting numbers back into
 * compact text for the terminal. One module does both so every output agrees on units.
 *
 * Parsers never throw and never invent values: whatever they cannot read is null (never 0,
 * never NaN). Results are finite numbers, and -0 is normalized to 0.
 */
import { lookupTable } from './lookup.js';

// ---------------------------------------------------------------------------------------------
// Small numeric helpers
// ---------------------------------------------------------------------------------------------

/** A finite number, with -0 turned into 0; anything else is null. */
export function finiteOrNull(n: number | null | undefined): number | null {
  if (typeof n !== 'number' || !Number.isFinite(n)) return null;
  return n === 0 ? 0 : n;
}

/** Rounds to 3 decimals to kill binary float noise ("12.3us" -> 12300, not 12300.000000000002). */
function roundMilli(n: number): number {
  const scaled = Math.round(n * 1000) / 1000;
  // Near the top of the float range n*1000 overflows; such a value has no decimals to round.
  return Number.isFinite(scaled) ? scaled : n;
}

// ---------------------------------------------------------------------------------------------
// Signed time quantities (chrony style: "+12us", "-1.5ms")
// ---------------------------------------------------------------------------------------------

/** Nanoseconds per unit. Both micro signs (U+00B5 and U+03BC) appear in the wild. */
const nsPerUnit = lookupTable<number>({
  ns: 1,
  us: 1e3,
  'µs': 1e3,
  'μs': 1e3,
  ms: 1e6,
  s: 1e9,
});

const quantityPattern = /^([+-]?)\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-zµμ]+)$/i;

/** One signed quantity with a time unit, in nanoseconds; null when there is no (known) unit. */
export function parseQuantityNs(text: string): number | null {
  const match = quantityPattern.exec(text.trim());
  if (!match) return null;
  const [, sign, digits, unit] = match;
  const factor = nsPerUnit[(unit ?? '').toLowerCase()];
  if (factor === undefined || digits === undefined) return null;
  const magnitude = Number(digits) * factor;
  if (!Number.isFinite(magnitude)) return null;
  return finiteOrNull(roundMilli(sign === '-' ? -magnitude : magnitude));
}

export interface LastSample {
  offsetNs: number | null;
  measuredOffsetNs: number | null;
  errorNs: number | null;
}

/** "+/-" as chrony prints it, or a plus-minus sign. */
const plusMinusPattern = /\+\s*\/\s*-|±/;

/**
 * chrony's `adjusted[measured] +/- error`, e.g. "+12us[ +15us] +/-  120us". Each part is read on
 * its own, so a missing or broken part gives null for that part only.
 */
export function parseLastSample(text: string | null | undefined): LastSample {
  const none: LastSample = { offsetNs: null, measuredOffsetNs: null, errorNs: null };
  if (typeof text !== 'string') return none;
  const pm = plusMinusPattern.exec(text);
  const head = pm ? text.slice(0, pm.index) : text;
  const errorText = pm ? text.slice(pm.index + pm[0].length) : '';
  const open = head.indexOf('[');
  const adjustedText = open >= 0 ? head.slice(0, open) : head;
  const measuredText = open >= 0 ? head.slice(open + 1).replace(/\]\s*$/, '') : '';
  return {
    offsetNs: parseQuantityNs(adjustedText),
    measuredOffsetNs: measuredText ? parseQuantityNs(measuredText) : null,
    errorNs: errorText ? parseQuantityNs(errorText) : null,
  };
}

/**
 * Whether a text has the lastSample shape. The device's own example carries the sample in
 * lastRx for one source; a real lastRx ("12", "5m") never has a time unit, so any readable
 * quantity means it is a sample.
 */
export function looksLikeSample(text: string): boolean {
  const sample = parseLastSample(text);
  return sample.offsetNs !== null || sample.measuredOffsetNs !== null;
}

// ---------------------------------------------------------------------------------------------
// lastRx, poll, reach
// ---------------------------------------------------------------------------------------------

/** Seconds per lastRx suffix; a year is 365 days as in chrony. */
const secondsPerSuffix = lookupTable<number>({
  '': 1,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  y: 365 * 86400,
});

/** chrony prints 2^32-1 when a source has never been heard from. */
const NEVER_SENTINEL = 4294967295;

/** lastRx: "12" seconds, "5m", "3h", "2d", "1y"; "-" and the "never" sentinel are null. */
export function parseLastRxSeconds(text: string | null | undefined): number | null {
  if (typeof text !== 'string') return null;
  const match = /^(\d+)\s*([a-z]?)$/i.exec(text.trim());
  if (!match) return null;
  const [, digits, suffix] = match;
  const factor = secondsPerSuffix[(suffix ?? '').toLowerCase()];
  if (factor === undefined) return null;
  const value = Number(digits);
  if (value === NEVER_SENTINEL) return null;
  return finiteOrNull(value * factor);
}

/** The poll interval in seconds from its base-2 logarithm; null outside the plausible -10..20. */
export function pollSeconds(log2: number | null | undefined): number | null {
  if (typeof log2 !== 'number' || !Number.isInteger(log2) || log2 < -10 || log2 > 20) return null;
  return 2 ** log2;
}

export type ReachInput = string | number | null | undefined;

/**
 * The 8-bit reachability register. Text is octal as the spec says ("377"). A JSON number is
 * taken as the register value (0..255); a number above 255 made only of octal digits is the
 * octal text that lost its quotes (377), which is what a sloppy firmware would send.
 */
export function reachRegister(reach: ReachInput): number | null {
  if (typeof reach === 'number') {
    if (!Number.isInteger(reach) || reach < 0) return null;
    if (reach <= 0o377) return reach;
    return reachRegister(String(reach));
  }
  if (typeof reach !== 'string') return null;
  const text = reach.trim();
  if (!/^[0-7]{1,3}$/.test(text)) return null;
  const value = Number.parseInt(text, 8);
  return value <= 0o377 ? value : null;
}

/** The register as three-digit octal text ("377"), or null when it cannot be read. */
export function reachText(reach: ReachInput): string | null {
  const value = reachRegister(reach);
  return value === null ? null : value.toString(8).padStart(3, '0');
}

/** Successful polls among the last 8. */
export function reachCount(reach: ReachInput): number | null {
  const bits = reachBits(reach);
  return bits === null ? null : bits.filter(Boolean).length;
}

/** The 8 polls, oldest first, newest last (the rightmost bit is the newest poll). */
export function reachBits(reach: ReachInput): boolean[] | null {
  const value = reachRegister(reach);
  if (value === null) return null;
  return Array.from({ length: 8 }, (_, i) => ((value >> (7 - i)) & 1) === 1);
}

// ---------------------------------------------------------------------------------------------
// Coordinates
// ---------------------------------------------------------------------------------------------

export type Axis = 'lat' | 'lon';

/** Per axis: the largest magnitude and the hemisphere letters with their signs. */
const axes: Record<Axis, { max: number; hemispheres: Record<string, 1 | -1> }> = {
  lat: { max: 90, hemispheres: { N: 1, S: -1 } },
  lon: { max: 180, hemispheres: { E: 1, W: -1 } },
};

/** Degree, minute and second marks people and firmwares use (the sample uses a quote as the degree mark). */
const marks = new Set(['°', 'º', '˚', "'", '"', '′', '″']);

const isAsciiLetter = (ch: string | undefined) => ch !== undefined && ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'));
const isNumberChar = (ch: string | undefined) => ch !== undefined && ((ch >= '0' && ch <= '9') || ch === '.');
const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t';

/**
 * The numbers of `31°30'15.2"`, `22.543'`, `22°32.58'` or `33.9`, in order; null when
 * the text is anything else. One pass over the text, no regular expression: device text can be
 * a megabyte of spaces, and a backtracking pattern would spend minutes on it. Marks separate the
 * numbers, with spaces allowed around them; spaces alone do not (`1   1` is not 1°1′).
 */
function splitDegreesMinutesSeconds(text: string): string[] | null {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    while (isNumberChar(text[i])) i++;
    if (i === start || parts.length === 3) return null;
    parts.push(text.slice(start, i));
    while (isSpace(text[i])) i++;
    let marked = false;
    while (marks.has(text[i] ?? '')) {
      i++;
      marked = true;
    }
    while (isSpace(text[i])) i++;
    if (!marked && i < text.length) return null;
  }
  return parts;
}

const decimalNumber = /^(\d+(\.\d+)?|\.\d+)$/;

/**
 * Signed decimal degrees from `22.543'N`, `113.95"E`, `22.543°S`, `31°30'15.2"N`, `22°32.58'N`,
 * `-33.9` or a plain number. S and W are negative.
 *
 * NMEA-style ddmm.mmmm: the spec shows the form "number, quote, hemisphere" and does not say
 * whether the number is degrees or NMEA degrees-and-minutes. A single value within range is read
 * as decimal degrees (the sample's 22.5'N). A single value beyond the axis limit that carries a
 * hemisphere letter and no sign (NMEA always does) is read as [d]ddmm.mmmm: 2232.58'N ->
 * 22 + 32.58/60; its minutes must be below 60. A plain number beyond the limit is null.
 * Unavoidable ambiguity: an NMEA value below 1 degree (0045.5 = 0°45.5') reads as 45.5.
 */
export function parseCoordinate(value: string | number | null | undefined, axis: Axis): number | null {
  const { max, hemispheres } = axes[axis];
  if (typeof value === 'number') return inRange(value, max);
  if (typeof value !== 'string') return null;

  // The hemisphere letter, first or last, with the spaces beside it.
  let text = value.trim();
  let hemisphereSign: 1 | -1 | null = null;
  const letterAt = isAsciiLetter(text[0]) ? 0 : isAsciiLetter(text[text.length - 1]) ? text.length - 1 : -1;
  if (letterAt >= 0) {
    const sign = hemispheres[(text[letterAt] ?? '').toUpperCase()];
    if (sign === undefined) return null;
    hemisphereSign = sign;
    text = letterAt === 0 ? text.slice(1).trimStart() : text.slice(0, -1).trimEnd();
  }

  let explicitSign: 1 | -1 | null = null;
  if (text[0] === '+' || text[0] === '-') {
    explicitSign = text[0] === '-' ? -1 : 1;
    text = text.slice(1).trimStart();
  }
  // A sign and a hemisphere together contradict or repeat each other: refuse to guess.
  if (explicitSign !== null && hemisphereSign !== null) return null;
  const sign = explicitSign ?? hemisphereSign ?? 1;

  const parts = splitDegreesMinutesSeconds(text);
  if (parts === null || parts.length === 0 || !parts.every((p) => decimalNumber.test(p))) return null;
  const [first, minutes, seconds] = parts.map(Number) as [number, number?, number?];

  if (parts.length === 1) {
    if (first <= max) return inRange(sign * first, max);
    if (hemisphereSign === null) return null;
    return inRange(sign * fromNmea(first), max);
  }
  if (!Number.isInteger(first) || (minutes ?? 0) >= 60 || (seconds ?? 0) >= 60) return null;
  return inRange(sign * (first + (minutes ?? 0) / 60 + (seconds ?? 0) / 3600), max);
}

/** [d]ddmm.mmmm -> degrees; NaN (then null) when the minutes are 60 or more. */
function fromNmea(value: number): number {
  const degrees = Math.floor(value / 100);
  const minutes = value - degrees * 100;
  return minutes < 60 ? degrees + minutes / 60 : Number.NaN;
}

function inRange(degrees: number, max: number): number | null {
  const value = finiteOrNull(degrees);
  if (value === null || Math.abs(value) > max) return null;
  return Math.round(value * 1e9) / 1e9 || 0;
}

// ---------------------------------------------------------------------------------------------
// UTC date and time
// ---------------------------------------------------------------------------------------------

const datePattern = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const timePattern = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;
const dateTimePattern = /^(\d{4}[-/]\d{1,2}[-/]\d{1,2})(?:T|\s)+(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(?:Z|UTC)?$/i;

/**
 * ISO-8601 from the receiver's utcDate and utcTime. Declared shapes are `yyyy-mm-dd` and
 * `hh:mm:ss.sss`; the sample instead puts a combined `2026-11-22 03:04:05` in both fields.
 * Whichever reading works is taken, declared pair first.
 */
export function parseUtc(date: string | null | undefined, time: string | null | undefined): string | null {
  const d = typeof date === 'string' ? date.trim() : '';
  const t = typeof time === 'string' ? time.trim() : '';
  return fromParts(d, t) ?? fromCombined(d) ?? fromCombined(t);
}

function fromCombined(text: string): string | null {
  const match = dateTimePattern.exec(text);
  return match ? fromParts(match[1] ?? '', match[2] ?? '') : null;
}

function fromParts(date: string, time: string): string | null {
  const dm = datePattern.exec(date);
  const tm = timePattern.exec(time);
  if (!dm || !tm) return null;
  const [year, month, day] = [dm[1], dm[2], dm[3]].map(Number) as [number, number, number];
  const [hour, minute, second] = [tm[1], tm[2], tm[3] ?? '0'].map(Number) as [number, number, number];
  const millis = Number((tm[4] ?? '').padEnd(3, '0').slice(0, 3));
  if (hour > 23 || minute > 59 || second > 59) return null;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, millis);
  // Date rolls 2026-02-31 over into March: a round trip that changes the day means a bad date.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return at.toISOString();
}

// ---------------------------------------------------------------------------------------------
// Formatters
// ---------------------------------------------------------------------------------------------

const DASH = '-';

/** Offset units from small to large, with their ASCII spelling for terminals without µ. */
const offsetUnits = [
  { ns: 1, unit: 'ns', ascii: 'ns' },
  { ns: 1e3, unit: 'µs', ascii: 'us' },
  { ns: 1e6, unit: 'ms', ascii: 'ms' },
  { ns: 1e9, unit: 's', ascii: 's' },
] as const;

/** About three significant digits: 1.20, 12.3, 123. */
function threeDigits(value: number): string {
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return value.toFixed(0);
}

/** Signed, auto-scaled offset: +0ns, -850ns, +12.3µs, -1.20ms, +2.50s; null -> "-". */
export function formatOffset(ns: number | null | undefined, opts: { ascii?: boolean } = {}): string {
  const value = finiteOrNull(ns);
  if (value === null) return DASH;
  const magnitude = Math.abs(value);
  for (const [i, u] of offsetUnits.entries()) {
    const isLast = i === offsetUnits.length - 1;
    const scaled = magnitude / u.ns;
    const text = u.ns === 1 ? scaled.toFixed(0) : threeDigits(scaled);
    // Rounding can reach the next unit (999.96µs -> "1000"): then the next unit says it better.
    if (Number(text) >= 1000 && !isLast) continue;
    const sign = value < 0 && Number(text) !== 0 ? '-' : '+';
    return `${sign}${text}${opts.ascii ? u.ascii : u.unit}`;
  }
  return DASH;
}

/**
 * An unsigned quantity in the offset's units, for what is a magnitude (a path delay, an error
 * bound, a spread, a standard deviation): 850ns, 1.18µs. No "+": nothing is signed here. A
 * negative value keeps its "-" (a negative path delay is itself a finding); null -> "-".
 */
export function formatMagnitude(ns: number | null | undefined, opts: { ascii?: boolean } = {}): string {
  const text = formatOffset(ns, opts);
  return text.startsWith('+') ? text.slice(1) : text;
}

/** Duration steps: below `below` seconds, show it this way. */
const durationSteps: { below: number; format: (s: number) => string }[] = [
  { below: 10, format: (s) => `${+s.toFixed(2)}s` },
  { below: 120, format: (s) => `${Math.floor(s)}s` },
  { below: 3600, format: (s) => `${Math.floor(s / 60)}m` },
  { below: 86400, format: (s) => pair(Math.floor(s / 3600), 'h', Math.floor((s % 3600) / 60), 'm') },
  { below: 365 * 86400, format: (s) => pair(Math.floor(s / 86400), 'd', Math.floor((s % 86400) / 3600), 'h') },
  { below: Number.POSITIVE_INFINITY, format: (s) => `${Math.floor(s / (365 * 86400))}y` },
];

function pair(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${minor}${minorUnit}`;
}

/** Compact duration: 0.25s, 64s, 17m, 2h14m, 3d4h, 2y; null -> "-". */
export function formatDuration(seconds: number | null | undefined): string {
  const value = finiteOrNull(seconds);
  if (value === null) return DASH;
  const magnitude = Math.abs(value);
  const step = durationSteps.find((s) => magnitude < s.below) ?? durationSteps[durationSteps.length - 1];
  const text = step ? step.format(magnitude) : DASH;
  return value < 0 && text !== '0s' ? `-${text}` : text;
}

/**
 * A poll interval in seconds, as chronyc's users read it (`sources -v`: "Poll ... as a base-2
 * logarithm of seconds", so 10 is 1024 s): whole seconds, `64s`, `1024s`, never rounded to
 * minutes; sub-second intervals (negative log2) to three digits, `0.125s`. null -> "-".
 */
export function formatPollInterval(seconds: number | null | undefined): string {
  const value = finiteOrNull(seconds);
  if (value === null) return DASH;
  return `${Number.isInteger(value) ? value : +value.toPrecision(3)}s`;
}

/** Age since an event, same compact form as a duration. */
export const formatAge = formatDuration;

/**
 * A signed frequency offset given in ppm, auto-scaled as chrony and ptp4l users read it: under
 * 1 ppm in parts per billion (+13.2ppb, +0.123ppb), from 1 ppm on in ppm (+1.20ppm, +12.3ppm);
 * about three significant digits like formatOffset. null -> "-".
 */
export function formatPpm(ppm: number | null | undefined): string {
  const value = finiteOrNull(ppm);
  if (value === null) return DASH;
  const magnitude = Math.abs(value);
  let text = threeDigits(magnitude * 1000);
  let unit = 'ppb';
  // Rounding can reach 1000 ppb: then ppm says it better.
  if (magnitude >= 1 || Number(text) >= 1000) {
    text = threeDigits(magnitude);
    unit = 'ppm';
  }
  const sign = value < 0 && Number(text) !== 0 ? '-' : '+';
  return `${sign}${text}${unit}`;
}

/**
 * A plain number: with `digits`, fixed decimals; without, integers as they are and fractions
 * to at most 2 decimals. Never "-0", never "NaN": null and non-finite give "-".
 */
export function formatNumber(n: number | null | undefined, digits?: number): string {
  const value = finiteOrNull(n);
  if (value === null) return DASH;
  const text = digits === undefined ? (Number.isInteger(value) ? String(value) : String(+value.toFixed(2))) : value.toFixed(digits);
  return Number(text) === 0 ? text.replace(/^-/, '') : text;
}
