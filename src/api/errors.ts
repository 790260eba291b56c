/**
 * The error taxonomy: every way an operation can fail becomes one ApiError with a kind and one
 * sentence a technician understands. Nothing here echoes request headers (they carry secrets).
 */
import type { CappedList } from '../model/snapshot.js';
import type { OperationName } from './endpoints.js';
import { operations } from './endpoints.js';
import { redactUserinfo } from '../model/sanitize.js';

export type ErrorKind = 'network' | 'http' | 'protocol' | 'device' | 'auth';

export interface ApiError {
  kind: ErrorKind;
  /** Device error code (device kind), HTTP status (http/auth) or system code (network). */
  code?: string;
  message: string;
  /**
   * Network errors: whether a connection to the device was established. false = it could not be
   * connected to at all (refused, unreachable, DNS, connect timeout, TLS handshake), so asking it
   * anything else now is pointless; true = it accepted the connection and then failed this answer.
   */
  connected?: boolean;
}

/** `capped`: lists of the answer that were longer than synctop keeps (see list-caps.ts). */
export type Result<T> = { ok: true; data: T; capped?: CappedList[] } | { ok: false; error: ApiError };

/** What the device's own error codes mean, per the API document. */
export const deviceErrorCodes: Record<string, { key: string; meaning: string }> = {
  '40000': { key: 'no.blank.params', meaning: 'the device rejected the request as having blank parameters' },
  '40003': { key: 'gnss.no.device', meaning: 'no GNSS receiver, or no permission to see it' },
  '40004': { key: 'ptp.not.found', meaning: 'no PTP slave port with that id' },
  '40007': { key: 'ntp.input.sources.unavailable', meaning: 'the NTP input sources are unavailable on the device' },
};

export function deviceError(fields: {
  errorCode?: string | number | null;
  errorMessage?: string | null;
  showType?: number | null;
}): ApiError {
  const code = fields.errorCode == null ? '' : String(fields.errorCode);
  // Own keys only: a device sending errorCode "toString" or "__proto__" must not find Object's.
  const known = Object.hasOwn(deviceErrorCodes, code) ? deviceErrorCodes[code] : undefined;
  if (known) return { kind: 'device', code, message: known.meaning };
  const raw = [
    `errorCode=${code || '(none)'}`,
    `errorMessage=${fields.errorMessage ?? '(none)'}`,
    `showType=${fields.showType ?? '(none)'}`,
  ].join(' ');
  return { kind: 'device', code: code || undefined, message: `the device reported an error it does not document (${raw})` };
}

/** System error codes of Node sockets and undici, in words. */
const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address and port',
  ENOTFOUND: 'the host name does not resolve (DNS)',
  EAI_AGAIN: 'the host name could not be resolved right now (DNS)',
  ECONNRESET: 'the device reset the connection',
  EPIPE: 'the device closed the connection while the request was sent',
  EHOSTUNREACH: 'no route to the device (host unreachable)',
  ENETUNREACH: 'no route to the device (network unreachable)',
  ETIMEDOUT: 'the connection attempt timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection attempt timed out',
  UND_ERR_SOCKET: 'the device closed the connection before answering',
  UND_ERR_CLOSED: 'the connection was closed',
};

/** TLS verification codes of OpenSSL/Node, in words. */
const tlsReasons: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the device presents a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in a self-signed CA that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an unknown CA',
  CERT_HAS_EXPIRED: 'the device certificate has expired',
  CERT_NOT_YET_VALID: 'the device certificate is not valid yet (check the clocks)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate was issued for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the device does not speak TLS on that port',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the device does not speak TLS on that port',
};

/** TLS failures meaning "no TLS at all on this port": no certificate option can help. */
export const notTlsCodes: ReadonlySet<string> = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

/** https:// to a port without TLS; `plainHttp` when the port was seen answering plain HTTP. */
export function notTlsMessage(origin: string, plainHttp: boolean): string {
  const http = origin.replace(/^https:/, 'http:');
  return plainHttp
    ? `the port speaks plain HTTP, not TLS: use ${http}`
    : `the device does not speak TLS on that port (is it the right port? plain HTTP would be ${http})`;
}

export function tlsMessage(code: string, fingerprint?: string): string {
  const reason = tlsReasons[code] ?? `TLS verification failed (${code})`;
  const pin = fingerprint ? `; its SHA-256 fingerprint is ${fingerprint} (pin it with --pin-sha256)` : '';
  return `${reason}${pin}; pass --ca FILE with the device's CA, or --insecure to skip verification`;
}

export function isTlsCode(code: string | undefined): boolean {
  return code !== undefined && (code in tlsReasons || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.includes('CERT'));
}

/**
 * Failures where the device did answer but the answer is unusable: a protocol error (the device
 * is there; its web server misbehaves), not a network one.
 */
const protocolReasons: Record<string, string> = {
  SIZE: 'the answer was larger than the response size cap and was cut off',
  UND_ERR_HEADERS_OVERFLOW: 'the device sent oversized HTTP response headers (over 16 KiB) and the answer was refused',
};

export function networkError(code: string | undefined, timeoutMs: number): ApiError {
  if (code === 'TIMEOUT') return { kind: 'network', code, message: `no complete answer within ${formatMs(timeoutMs)} (timeout)` };
  if (code && Object.hasOwn(protocolReasons, code)) return { kind: 'protocol', code, message: protocolReasons[code]! };
  if (code?.startsWith('HPE_')) return { kind: 'protocol', code, message: `the device's answer is not valid HTTP (${code})` };
  if (code && isTlsCode(code)) return { kind: 'network', code, message: tlsMessage(code) };
  const reason = code ? networkReasons[code] : undefined;
  return { kind: 'network', code, message: reason ?? `the device could not be reached (${code ?? 'unknown error'})` };
}

export function httpError(status: number, contentType: string | undefined, bodyStart: string, location?: string): ApiError {
  if (status >= 300 && status <= 399) {
    // A login page or a moved API: say where, since synctop does not follow (a redirect could
    // carry the credentials to another host).
    const target = location ? `to ${redactUserinfo(location.trim()).slice(0, 200)}` : 'without saying where (no Location header)';
    return { kind: 'http', code: String(status), message: `the device redirected (HTTP ${status}) ${target}; synctop does not follow redirects: give the device URL it should use` };
  }
  const looks = describeBody(contentType, bodyStart);
  return { kind: 'http', code: String(status), message: `the device answered HTTP ${status} with ${looks}` };
}

/**
 * The credential a request carried, named as the user gave it ("token from SYNCTOP_TOKEN",
 * "session cookie from --cookie-file a.jar"); null when none was sent.
 */
export type CredentialSent = string | null;

const loginFix = 'set SYNCTOP_TOKEN, or --token-file / --cookie-file';
const refusedMark = ' refused (HTTP ';

/**
 * 401/403: what was refused, what the operation needs, and the fix. Without credentials the fix
 * is to give some; with them, the one sent (named by where it came from) is wrong, expired, or
 * lacks the permission.
 */
export function authError(status: number, operation: OperationName, sent: CredentialSent = null): ApiError {
  const op = operations[operation];
  const http = `HTTP ${status}`;
  if (sent === null) {
    const what = status === 401 ? `not logged in (${http})` : `permission refused (${http})`;
    return { kind: 'auth', code: String(status), message: `${what}: ${op.refused}; ${loginFix}` };
  }
  const why = status === 401 ? 'it is wrong or has expired' : `its user lacks permission ${op.permission}`;
  return { kind: 'auth', code: String(status), message: `${sent}${refusedMark}${status}): ${why}; ${op.refused}` };
}

/** The credential an auth error's message names as refused, or undefined when none was sent. */
function refusedCredentialIn(message: string): string | undefined {
  if (message.startsWith('not logged in (') || message.startsWith('permission refused (')) return undefined;
  const at = message.indexOf(refusedMark);
  return at > 0 ? message.slice(0, at) : undefined;
}

/**
 * The one line for a device that refused every operation: "not logged in" and the fix, or which
 * credential it refused, first (a narrow header cuts the end). `statuses` are the HTTP codes
 * seen; `first` is one operation's message.
 */
export function refusedEverywhere(statuses: readonly string[], first: string): string {
  const http = `HTTP ${[...new Set(statuses)].join('/')} from every operation`;
  const sent = refusedCredentialIn(first);
  if (!sent) return `not logged in (${http}): ${loginFix}`;
  const why = statuses.every((c) => c === '401') ? 'wrong or expired' : 'wrong, expired, or its user lacks the permissions';
  return `not logged in: ${sent} refused, ${why} (${http})`;
}

export function protocolError(detail: string): ApiError {
  return { kind: 'protocol', message: detail };
}

function describeBody(contentType: string | undefined, bodyStart: string): string {
  const text = bodyStart.trim();
  if (text === '') return 'an empty body';
  if (/^<(!doctype|html)/i.test(text) || contentType?.includes('html')) {
    const title = /<title>([^<]{1,80})<\/title>/i.exec(text)?.[1]?.trim();
    return title ? `an HTML page titled "${title}"` : 'an HTML page';
  }
  if (text.startsWith('{') || text.startsWith('[')) return 'a JSON body';
  return `a ${contentType ?? 'text'} body`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
