/**
 * Fault injection: every way a device, its web server or the network between can misbehave,
 * as one table. A fault takes over the HTTP answer of one operation (or of the whole device) and
 * is set at run time (`Simulator.setFault`) or from a spec string (`--faults`).
 *
 * Spec syntax: comma-separated `op=fault`, op one of ntp, gnss, alarm, ptp, all; a fault without
 * `op=` applies to all. Arguments follow a colon. Example: `ntp=stall-headers,ptp=device:40004`,
 * `all=trickle`, `reboot:10`. Later items win over earlier ones for the same operation.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { operationNames, type OperationName } from '../api/endpoints.js';

// ---------------------------------------------------------------------------------------------
// The device's own error envelopes
// ---------------------------------------------------------------------------------------------

/** errorMessage and showType of each documented code; 40003 has no documented showType. */
export const deviceErrors: Record<string, { errorMessage: string; showType?: number }> = {
  '40000': { errorMessage: 'no.blank.params', showType: 4 },
  '40003': { errorMessage: 'gnss.no.device' },
  '40004': { errorMessage: 'ptp.not.found', showType: 4 },
  '40007': { errorMessage: 'ntp.input.sources.unavailable', showType: 1 },
};

export type Envelope = Record<string, unknown>;

export function errorEnvelope(errorCode: string): Envelope {
  const known = deviceErrors[errorCode] ?? { errorMessage: 'unknown.error', showType: 9 };
  return { success: false, errorCode, ...known };
}

export function successEnvelope(data: unknown): Envelope {
  return { success: true, data };
}

// ---------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------

export type SimpleFaultKind =
  | 'refused'
  | 'reset'
  | 'reset-mid-body'
  | 'stall-headers'
  | 'stall-body'
  | 'trickle'
  | 'http500'
  | 'http502'
  | 'http401'
  | 'http403'
  | 'invalid-json'
  | 'truncated-json'
  | 'wrong-types'
  | 'extra-fields'
  | 'huge'
  | 'flood'
  | 'huge-headers'
  | 'redirect';

export type Fault = { kind: SimpleFaultKind } | { kind: 'device'; code: string } | { kind: 'reboot'; seconds: number };
export type FaultKind = Fault['kind'];
export type FaultTarget = OperationName | 'all';

/** What a fault gets to work with: the normal answer and the means to spoil it. */
export interface FaultExchange {
  op: OperationName;
  /** What the device would have answered without the fault. */
  envelope: Envelope;
  res: ServerResponse;
  socket: Socket;
  /** Restarts the whole device (used by the reboot fault). */
  reboot(downMs: number): void;
}

interface FaultEntry {
  /** One line for --help and the README. */
  doc: string;
  /** `device:CODE` and `reboot:SECONDS` take an argument. */
  argument?: 'code' | 'seconds';
  respond(x: FaultExchange, fault: Fault): void;
}

const HUGE_BYTES = 50 * 1024 * 1024;
const TRICKLE_INTERVAL_MS = 1000;

const json = (x: FaultExchange) => JSON.stringify(x.envelope);

function sendRaw(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function htmlPage(status: number, title: string): string {
  return `<!DOCTYPE html>\n<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1><hr><address>lighttpd</address></body></html>\n`;
}

/** Headers announcing the whole body, so the client waits for bytes that never come. */
function announce(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(body) });
}

/** Wrong JSON types per operation: each breaks a field the schema is strict about. */
const wrongTypes: Record<OperationName, (data: Record<string, unknown>) => unknown> = {
  ntp: (data) => ({
    ...data,
    sources: Array.isArray(data.sources) ? data.sources.map((s, i) => (i === 0 ? { ...s, stratum: { value: 1 } } : s)) : 'GPS,10.20.0.11',
  }),
  gnss: (data) => ({ ...data, signal: 'gps:10,bds:9' }),
  alarm: (data) => ({ ...data, recipientEmails: 'noc@example.com;oncall@example.com' }),
  ptp: (data) => ({ ...data, offsetFromMaster: '12ns' }),
};

function spoilTypes(x: FaultExchange): Envelope {
  const data = x.envelope.data;
  if (data === undefined) return { ...x.envelope, success: 'false' };
  // device_status_list answers an array: spoil its first receiver.
  if (Array.isArray(data)) return { ...x.envelope, data: data.map((r, i) => (i === 0 ? wrongTypes[x.op](r as Record<string, unknown>) : r)) };
  return { ...x.envelope, data: wrongTypes[x.op](data as Record<string, unknown>) };
}

/** Adds a vendor field to every object: a newer firmware, which must still parse. */
function withExtraFields(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => withExtraFields(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) copy[k] = withExtraFields(v, depth + 1);
  return { ...copy, vendorExtension: { build: 4711, depth }, firmwareRevision: '3.2.0-rc1' };
}

/** Items of every list in a flooded answer: empty ones, so 100,000 still fit under the 1 MiB cap. */
const FLOOD_ITEMS = 100_000;

const padded = <T>(list: unknown, filler: T): unknown[] => {
  const items = Array.isArray(list) ? list : [];
  return [...items, ...Array.from({ length: Math.max(0, FLOOD_ITEMS - items.length) }, () => filler)];
};

/** Every list of the answer padded to FLOOD_ITEMS: a device gone mad, or a hostile one. */
const flooders: Record<OperationName, (data: unknown) => unknown> = {
  ntp: (data) => ({ ...(data as object), sources: padded((data as { sources?: unknown }).sources, {}) }),
  gnss: (data) => {
    const [first, ...others] = Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
    return first ? padded([{ ...first, signal: padded(first.signal, {}) }, ...others], {}) : data;
  },
  alarm: (data) => ({ ...(data as object), recipientEmails: padded((data as { recipientEmails?: unknown }).recipientEmails, '') }),
  ptp: (data) => data,
};

/** A 50 MB JSON body, streamed in 64 KB chunks with back-pressure and no length announced. */
function streamHuge(x: FaultExchange): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const head = Buffer.from('{"success":true,"padding":"');
  const tail = Buffer.from(`","data":${JSON.stringify(x.envelope.data ?? null)}}`);
  x.res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
  x.res.write(head);
  let sent = 0;
  const pump = (): void => {
    while (sent < HUGE_BYTES) {
      if (x.res.destroyed) return;
      sent += chunk.length;
      if (!x.res.write(chunk)) {
        x.res.once('drain', pump);
        return;
      }
    }
    x.res.end(tail);
  };
  pump();
}

/** One byte per second: every idle gap is short, the whole answer takes minutes. */
function trickle(x: FaultExchange): void {
  const body = Buffer.from(json(x));
  announce(x.res, json(x));
  x.res.flushHeaders();
  let next = 0;
  const timer = setInterval(() => {
    if (next >= body.length) {
      clearInterval(timer);
      x.res.end();
      return;
    }
    x.res.write(body.subarray(next, next + 1));
    next++;
  }, TRICKLE_INTERVAL_MS);
  timer.unref();
  // The client giving up or the simulator closing destroys the socket; the timer stops with it.
  x.res.once('close', () => clearInterval(timer));
}

export const faults: Record<FaultKind, FaultEntry> = {
  refused: {
    doc: 'the whole device stops listening (connection refused) until the fault is cleared; per operation it still applies to the device',
    respond: (x) => x.socket.destroy(),
  },
  reset: {
    doc: 'the connection is reset before any answer',
    respond: (x) => x.socket.destroy(),
  },
  'reset-mid-body': {
    doc: 'headers and half the body, then the connection is reset',
    respond: (x) => {
      const body = json(x);
      announce(x.res, body);
      x.res.write(body.slice(0, Math.floor(body.length / 2)), () => x.socket.destroy());
    },
  },
  'stall-headers': {
    doc: 'the request is read and never answered',
    respond: () => undefined,
  },
  'stall-body': {
    doc: 'headers and a third of the body, then silence with the connection open',
    respond: (x) => {
      const body = json(x);
      announce(x.res, body);
      x.res.write(body.slice(0, Math.floor(body.length / 3)));
    },
  },
  trickle: {
    doc: 'the answer arrives at one byte per second',
    respond: trickle,
  },
  http500: {
    doc: 'HTTP 500 with an HTML error page',
    respond: (x) => sendRaw(x.res, 500, 'text/html', htmlPage(500, 'Internal Server Error')),
  },
  http502: {
    doc: 'HTTP 502 with an HTML error page, as from a reverse proxy whose backend is down',
    respond: (x) => sendRaw(x.res, 502, 'text/html', htmlPage(502, 'Bad Gateway')),
  },
  http401: {
    doc: 'HTTP 401: not logged in',
    respond: (x) => sendRaw(x.res, 401, 'text/html', htmlPage(401, 'Unauthorized')),
  },
  http403: {
    doc: 'HTTP 403: permission refused',
    respond: (x) => sendRaw(x.res, 403, 'text/html', htmlPage(403, 'Forbidden')),
  },
  'invalid-json': {
    doc: 'HTTP 200 with a body that is not JSON (unquoted keys)',
    respond: (x) => sendRaw(x.res, 200, 'application/json', json(x).replace(/"(\w+)":/g, '$1:')),
  },
  'truncated-json': {
    doc: 'HTTP 200 with the first half of the JSON body, correctly framed',
    respond: (x) => {
      const body = json(x);
      sendRaw(x.res, 200, 'application/json', body.slice(0, Math.floor(body.length / 2)));
    },
  },
  'wrong-types': {
    doc: 'valid JSON with a field of the wrong type (stratum as an object, signal as a string, ...)',
    respond: (x) => sendRaw(x.res, 200, 'application/json', JSON.stringify(spoilTypes(x))),
  },
  'extra-fields': {
    doc: 'unknown fields added to every object (a newer firmware); must still parse',
    respond: (x) => {
      const envelope = { ...(withExtraFields(x.envelope) as Envelope), traceId: 'sim-extra-fields' };
      sendRaw(x.res, 200, 'application/json', JSON.stringify(envelope));
    },
  },
  flood: {
    doc: 'every list padded to 100,000 items under the 1 MiB cap: NTP sources, GNSS receivers and the first one\'s signals, mail recipients',
    respond: (x) => {
      const data = x.envelope.data;
      sendRaw(x.res, 200, 'application/json', JSON.stringify(data === undefined ? x.envelope : { ...x.envelope, data: flooders[x.op](data) }));
    },
  },
  huge: {
    doc: 'a 50 MB JSON body, streamed without a length',
    respond: streamHuge,
  },
  'huge-headers': {
    doc: 'HTTP 200 with 64 KB of response headers (a broken web server or proxy)',
    respond: (x) => {
      x.res.setHeader('x-debug-trace', 'x'.repeat(64 * 1024));
      sendRaw(x.res, 200, 'application/json', json(x));
    },
  },
  redirect: {
    doc: 'HTTP 302 to a login page (/login.html), as a web interface whose session expired',
    respond: (x) => {
      x.res.setHeader('location', '/login.html?next=%2F');
      sendRaw(x.res, 302, 'text/html', '');
    },
  },
  device: {
    doc: 'device:CODE, success=false with that code (its documented errorMessage and showType; unknown codes get unknown.error, showType 9)',
    argument: 'code',
    respond: (x, fault) => sendRaw(x.res, 200, 'application/json', JSON.stringify(errorEnvelope(fault.kind === 'device' ? fault.code : ''))),
  },
  reboot: {
    doc: 'reboot:SECONDS, the next request reboots the device: down that long, then back with fresh data (once)',
    argument: 'seconds',
    respond: (x, fault) => {
      x.socket.destroy();
      x.reboot(fault.kind === 'reboot' ? fault.seconds * 1000 : 0);
    },
  },
};

export const faultKinds = Object.keys(faults) as FaultKind[];

// ---------------------------------------------------------------------------------------------
// The spec string
// ---------------------------------------------------------------------------------------------

export interface FaultSetting {
  target: FaultTarget;
  fault: Fault;
}

export type FaultSpecResult = { ok: true; faults: FaultSetting[] } | { ok: false; message: string };

const targets: FaultTarget[] = [...operationNames, 'all'];
const MAX_REBOOT_S = 3600;

const argumentParsers: Record<'code' | 'seconds', (kind: FaultKind, text: string) => Fault | string> = {
  code: (_kind, text) => (/^\d{1,9}$/.test(text) ? { kind: 'device', code: text } : `device needs a numeric error code, as in device:40004`),
  seconds: (_kind, text) => {
    const seconds = Number(text);
    return /^\d+(\.\d+)?$/.test(text) && seconds > 0 && seconds <= MAX_REBOOT_S
      ? { kind: 'reboot', seconds }
      : `reboot needs a number of seconds above 0 and at most ${MAX_REBOOT_S}, as in reboot:10`;
  },
};

function parseFault(text: string): Fault | string {
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const arg = colon < 0 ? undefined : text.slice(colon + 1);
  if (!Object.hasOwn(faults, name)) return `unknown fault "${name}"; known faults: ${faultKinds.join(', ')}`;
  const kind = name as FaultKind;
  const entry = faults[kind];
  if (entry.argument === undefined) return arg === undefined ? ({ kind } as Fault) : `fault "${name}" takes no argument`;
  if (arg === undefined || arg === '') return argumentParsers[entry.argument](kind, '');
  return argumentParsers[entry.argument](kind, arg);
}

/** Parses `ntp=stall-headers,ptp=device:40004,reboot:10`; the message names the bad item. */
export function parseFaultSpec(spec: string): FaultSpecResult {
  const settings: FaultSetting[] = [];
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const target = eq < 0 ? 'all' : item.slice(0, eq).trim();
    const faultText = (eq < 0 ? item : item.slice(eq + 1)).trim();
    if (!(targets as string[]).includes(target)) {
      return { ok: false, message: `bad fault "${item}": unknown operation "${target}"; use one of ${targets.join(', ')}` };
    }
    const fault = parseFault(faultText);
    if (typeof fault === 'string') return { ok: false, message: `bad fault "${item}": ${fault}` };
    settings.push({ target: target as FaultTarget, fault });
  }
  return { ok: true, faults: settings };
}

/** One line per fault, for help texts. */
export function describeFaults(): string {
  return faultKinds.map((kind) => `${kind.padEnd(15)} ${faults[kind].doc}`).join('\n');
}
