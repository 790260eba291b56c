/**
 * The HTTP client of one device: one keep-alive undici Pool, a whole-request deadline, a cap on
 * the response size, one retry when a reused socket turns out to be reset, and TLS options.
 * `call` never throws for anything the device or the network does: it returns a Result.
 */
import { EventEmitter } from 'node:events';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { Pool, buildConnector } from 'undici';
import { z } from 'zod';
import { operations, type OperationName, type RawData } from './endpoints.js';
import { capDeviceLists } from './list-caps.js';
import { envelopeSchema } from './schemas.js';
import {
  authError,
  deviceError,
  httpError,
  isTlsCode,
  networkError,
  notTlsCodes,
  notTlsMessage,
  protocolError,
  tlsMessage,
  type ApiError,
  type CredentialSent,
  type Result,
} from './errors.js';

export interface ClientOptions {
  /** Base URL of the device; a path prefix is kept (http://host/prefix). */
  baseUrl: string;
  /** Whole-request deadline: connect, headers and body together. */
  timeoutMs: number;
  /** Answers larger than this are refused without being read to the end. */
  maxResponseBytes?: number;
  /** Extra request headers: auth carriers (Authorization, Cookie) and --header values. */
  headers?: Record<string, string>;
  /** Where the credential in `headers` came from ("token from SYNCTOP_TOKEN"): named when refused. */
  credentialSource?: string;
  insecure?: boolean;
  /** PEM text of a CA to trust (from --ca FILE). */
  ca?: string;
  /** Accept exactly the certificate with this SHA-256 fingerprint (hex, colons optional). */
  pinSha256?: string;
  /**
   * Idle sockets are closed by us after this long. Shorter than the idle close of a small
   * embedded web server (often 5 s), so that we, not the device, end an idle connection.
   */
  keepAliveMs?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
export const DEFAULT_KEEPALIVE_MS = 4000;

/** Codes meaning "the socket we reused was already closed by the peer": safe to retry once. */
const codeAliases: Record<string, string> = {
  UND_ERR_HEADERS_TIMEOUT: 'TIMEOUT',
  UND_ERR_BODY_TIMEOUT: 'TIMEOUT',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'SIZE',
};
const resetCodes = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export interface CallOptions {
  /** This call's deadline instead of the client's (a one-shot check spending a total budget). */
  timeoutMs?: number;
}

export interface ClientStats {
  requests: number;
  connections: number;
  retries: number;
}

export class DeviceClient {
  readonly baseUrl: string;
  readonly stats: ClientStats = { requests: 0, connections: 0, retries: 0 };
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly opts: Required<Pick<ClientOptions, 'timeoutMs' | 'maxResponseBytes'>> & ClientOptions;
  private fingerprint: Promise<string | undefined> | undefined;
  private plainHttp: Promise<boolean> | undefined;

  constructor(options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.opts = { maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES, ...options };
    const keepAlive = options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS;
    this.pool = new Pool(url.origin, {
      // One kept-alive socket: `call` sends one request at a time, so a second would only be
      // opened by undici's bookkeeping races and double the device's connection load.
      connections: 1,
      pipelining: 1,
      keepAliveTimeout: keepAlive,
      keepAliveMaxTimeout: keepAlive,
      maxResponseSize: this.opts.maxResponseBytes,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: this.connector(url),
    });
    this.pool.on('connect', () => {
      this.stats.connections++;
      this.openSockets++;
    });
    this.pool.on('disconnect', () => {
      this.openSockets = Math.max(0, this.openSockets - 1);
    });
    this.credentialSent = options.credentialSource ?? credentialCarried(options.headers ?? {});
    this.requestHeaders = { ...options.headers, 'content-type': 'application/json', accept: 'application/json' };
  }

  /** Sockets connected now (TLS handshake done): a failed request on one was connected. */
  private openSockets = 0;
  private readonly credentialSent: CredentialSent;
  /** Every request's headers: the same for every call, built once. */
  private readonly requestHeaders: Record<string, string>;

  private connector(url: URL): buildConnector.connector {
    const pin = this.opts.pinSha256 ? normalizeFingerprint(this.opts.pinSha256) : undefined;
    const base = buildConnector({
      timeout: this.opts.timeoutMs,
      // With a pin, the chain is not verified: the exact certificate is.
      rejectUnauthorized: !(this.opts.insecure || pin),
      ...(this.opts.ca ? { ca: this.opts.ca } : {}),
    });
    if (!pin || url.protocol !== 'https:') return base;
    return (options, callback) => {
      base(options, (err, socket) => {
        if (err || !socket) return callback(err ?? new Error('no socket'), null);
        const seen = normalizeFingerprint((socket as TLSSocket).getPeerCertificate().fingerprint256 ?? '');
        if (seen !== pin) {
          socket.destroy();
          const mismatch = Object.assign(new Error('certificate pin mismatch'), { code: 'PIN_MISMATCH', fingerprint: seen });
          return callback(mismatch, null);
        }
        callback(null, socket);
      });
    };
  }

  /** Tail of the queue of calls: one request in flight per device, never more. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Calls one operation; `id` selects a GNSS receiver or PTP port. Calls are served one at a
   * time, and each one's deadline starts when its turn comes, so an operation waiting behind a
   * slow one is delayed, not failed.
   */
  call<K extends OperationName>(name: K, params: { id?: number } = {}, opts: CallOptions = {}): Promise<Result<RawData<K>>> {
    const turn = this.queue.then(() => this.callNow(name, params, opts.timeoutMs ?? this.opts.timeoutMs));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async callNow<K extends OperationName>(name: K, params: { id?: number }, timeoutMs: number): Promise<Result<RawData<K>>> {
    const op = operations[name];
    let raw = await this.exchange(op.path, op.body(params), timeoutMs);
    if (!raw.ok && raw.retryable) {
      this.stats.retries++;
      raw = await this.exchange(op.path, op.body(params), timeoutMs);
    }
    if (!raw.ok) return { ok: false, error: await this.withFingerprint(raw.error) };
    if (raw.status === 401 || raw.status === 403) return { ok: false, error: authError(raw.status, name, this.credentialSent) };
    if (raw.status < 200 || raw.status > 299) {
      return { ok: false, error: httpError(raw.status, raw.contentType, raw.body.slice(0, 512), raw.location) };
    }
    return decode(name, raw.body);
  }

  private async exchange(
    path: string,
    body: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<
    | { ok: true; status: number; contentType: string | undefined; body: string; location: string | undefined }
    | { ok: false; error: ApiError; retryable: boolean }
  > {
    this.stats.requests++;
    const deadline = requestDeadline(timeoutMs);
    let headersArrived = false;
    const connectsBefore = this.stats.connections;
    const socketOpen = this.openSockets > 0;
    try {
      const res = await this.pool.request({
        path: this.basePath + path,
        method: 'POST',
        headers: this.requestHeaders,
        body: JSON.stringify(body),
        signal: deadline.signal,
      });
      headersArrived = true;
      const length = Number(res.headers['content-length']);
      if (length > this.opts.maxResponseBytes) {
        res.body.destroy();
        return { ok: false, error: networkError('SIZE', timeoutMs), retryable: false };
      }
      const text = await res.body.text();
      const first = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);
      return { ok: true, status: res.statusCode, contentType: first(res.headers['content-type']), body: text, location: first(res.headers.location) };
    } catch (err) {
      const code = deadline.aborted ? 'TIMEOUT' : codeAliases[errorCode(err) ?? ''] ?? errorCode(err);
      const error = networkError(code, timeoutMs);
      // After the headers, a closed socket cut the answer short: "before answering" would mislead.
      if (headersArrived && code !== undefined && resetCodes.has(code)) error.message = 'the device closed the connection in the middle of its answer';
      if (error.kind === 'network') error.connected = headersArrived || socketOpen || this.stats.connections > connectsBefore;
      if (code === 'TIMEOUT' && error.connected === false) error.message = `the connection attempt timed out (no answer to it within ${timeoutMs} ms)`;
      return {
        ok: false,
        error,
        retryable: !headersArrived && !deadline.aborted && code !== undefined && resetCodes.has(code),
      };
    } finally {
      deadline.clear();
    }
  }

  /** A TLS failure names the certificate's fingerprint, so a technician can pin it on first use. */
  private async withFingerprint(error: ApiError): Promise<ApiError> {
    if (error.code !== 'PIN_MISMATCH' && !isTlsCode(error.code)) return error;
    if (notTlsCodes.has(error.code ?? '')) {
      const url = new URL(this.baseUrl);
      this.plainHttp ??= speaksPlainHttp(url, this.opts.timeoutMs);
      return { ...error, message: notTlsMessage(url.origin, await this.plainHttp) };
    }
    this.fingerprint ??= fetchFingerprint(new URL(this.baseUrl), this.opts.timeoutMs);
    const fp = await this.fingerprint;
    if (error.code === 'PIN_MISMATCH') {
      return {
        ...error,
        message: `the device certificate does not match --pin-sha256; it presents ${fp ?? 'an unreadable certificate'} (a replaced certificate, or someone in the middle)`,
      };
    }
    return { ...error, message: tlsMessage(error.code ?? '', fp) };
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }

  destroy(): void {
    void this.pool.destroy().catch(() => undefined);
  }
}

/**
 * A whole-request deadline: `signal` aborts the request (undici takes an EventEmitter as its
 * signal) once `ms` have passed, connect, headers and body together; `clear` when the request
 * is over. Not AbortSignal.timeout: at 50 devices its EventTarget listener per request, and its
 * timer firing after every request that ended long before to build an abort reason no one
 * reads, cost about 2 % of a core (as much again as undici's own work per request).
 */
function requestDeadline(ms: number): { signal: EventEmitter; readonly aborted: boolean; clear(): void } {
  const signal = new EventEmitter();
  let aborted = false;
  const timer = setTimeout(() => {
    aborted = true;
    signal.emit('abort');
  }, ms);
  return {
    signal,
    get aborted() {
      return aborted;
    },
    clear: () => clearTimeout(timer),
  };
}

/** Envelope, then device error, then the operation's own schema: the first failure wins. */
export function decode<K extends OperationName>(name: K, body: string): Result<RawData<K>> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const start = body.trim().slice(0, 40);
    const what = start === '' ? 'an empty body' : /^</.test(start) ? 'an HTML or XML page' : `text starting "${start}"`;
    return { ok: false, error: protocolError(`the answer is not JSON (${what})`) };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, error: protocolError(describeIssue(envelope.error, '', json)) };
  const env = envelope.data;
  if (!env.success) return { ok: false, error: deviceError(env) };
  if (env.data === undefined || env.data === null) {
    return { ok: false, error: protocolError('the device said success but sent no data') };
  }
  // Lists are cut first: the schema never walks the 100,000 sources a hostile device can send.
  const { data, capped } = capDeviceLists(name, env.data);
  const parsed = (operations[name].schema as unknown as z.ZodType<RawData<K>>).safeParse(data);
  if (!parsed.success) return { ok: false, error: protocolError(describeIssue(parsed.error, 'data', data)) };
  return capped.length > 0 ? { ok: true, data: parsed.data, capped } : { ok: true, data: parsed.data };
}

/** "data.sources[2].stratum: expected number, got string": the first field that did not match. */
function describeIssue(error: z.ZodError, root: string, input: unknown): string {
  const issue = deepestIssue(error.issues[0]);
  if (!issue) return 'the answer does not have the documented shape';
  const path = issue.path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    root,
  );
  const where = path ? `${path}:` : 'the answer:';
  let what: string;
  if (issue.code === 'invalid_type') {
    const received = valueAt(input, issue.path);
    what = `expected ${issue.expected}, got ${received === undefined ? 'nothing' : describeType(received)}`;
  } else if (issue.code === 'invalid_union') {
    what = 'has none of the documented shapes';
  } else {
    what = issue.message;
  }
  return `unexpected answer: ${where} ${what}`;
}

/**
 * A union (the GNSS list may be an array or one object) reports only "no branch matched";
 * the useful news is the deepest field that failed inside the branches.
 */
function deepestIssue(issue: z.core.$ZodIssue | undefined): z.core.$ZodIssue | undefined {
  if (!issue || issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const inner = deepestIssue(branch[0]);
    if (inner && (!best || inner.path.length > best.path.length)) best = inner;
  }
  return best && best.path.length > 0 ? { ...best, path: [...issue.path, ...best.path] } : issue;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  // undici wraps the system error as `cause`; the innermost code is the most specific.
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    const cause = (e as { cause?: unknown }).cause;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if (!cause) return typeof code === 'string' ? code : undefined;
    e = cause;
  }
  return undefined;
}

function normalizeFingerprint(fp: string): string {
  return fp.replace(/[^0-9a-f]/gi, '').toUpperCase();
}

export function formatFingerprint(fp: string): string {
  return normalizeFingerprint(fp).replace(/(..)(?!$)/g, '$1:');
}

/** Which credential a request with these headers carries, when no one said where it came from. */
function credentialCarried(headers: Record<string, string>): CredentialSent {
  const names = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  if (names.has('authorization')) return 'token';
  if (names.has('cookie')) return 'session cookie';
  const other = ['x-auth-token', 'x-api-key', 'proxy-authorization'].find((h) => names.has(h));
  return other ? `${other} header` : null;
}

/**
 * After an https:// URL met a port without TLS: does the port answer plain HTTP? One HEAD
 * request without credentials; only the first bytes of the answer are looked at.
 */
function speaksPlainHttp(url: URL, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) });
    let seen = '';
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(Math.min(timeoutMs, 2000), () => done(false));
    socket.once('connect', () => socket.write(`HEAD / HTTP/1.0\r\nHost: ${url.host}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.length >= 5) done(seen.startsWith('HTTP/'));
    });
    socket.once('end', () => done(seen.startsWith('HTTP/')));
    socket.once('error', () => done(false));
  });
}

/** Reads the device's certificate without trusting it, only to name its fingerprint. */
function fetchFingerprint(url: URL, timeoutMs: number): Promise<string | undefined> {
  if (url.protocol !== 'https:') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: /^[\d.]+$|:/.test(url.hostname) ? undefined : url.hostname,
      rejectUnauthorized: false,
    });
    const done = (fp: string | undefined) => {
      socket.destroy();
      resolve(fp);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('secureConnect', () => {
      const cert: PeerCertificate = socket.getPeerCertificate();
      done(cert.fingerprint256 ? formatFingerprint(cert.fingerprint256) : undefined);
    });
    socket.once('error', () => done(undefined));
  });
}
