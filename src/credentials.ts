/**
 * A device's credentials and extra headers, from wherever they were given (SYNCTOP_TOKEN,
 * --token-file, --cookie-file, --header, a device profile), as the request headers its client
 * sends. Everything is checked here, before a request is made: a value the HTTP client would
 * refuse (a line break in a token file, a control character) or a header synctop must set
 * itself (Content-Length, Host, ...) is a usage error naming its source, never a request that
 * fails later as "device unreachable". No message repeats a secret.
 */
import { statSync } from 'node:fs';
import { operationNames, operations } from './api/endpoints.js';
import { readBoundedFile, readFailure } from './bounded-read.js';
import { isCookieJar, parseCookieJar, selectCookies } from './cookie-jar.js';
import { lookupTable } from './model/lookup.js';

export class CredentialError extends Error {}

export interface CredentialSources {
  /** --header values as typed: argv is visible to every user in `ps`. */
  argvHeaders?: readonly string[];
  /** Headers of a device profile (the config file, not argv). */
  profileHeaders?: Readonly<Record<string, string>>;
  /** SYNCTOP_TOKEN. */
  envToken?: string;
  tokenFile?: string;
  /** A profile's token (its tokenEnv variable or inline value). */
  profileToken?: string;
  cookieFile?: string;
}

export interface Credentials {
  headers: Record<string, string>;
  /** Things that work but should not be done this way. */
  warnings: string[];
  /** What was chosen, for stderr (which cookies of a jar are sent). */
  notices: string[];
  /**
   * The credential a request carries, named by where it came from ("token from SYNCTOP_TOKEN"):
   * a device that refuses it is told which one to fix. Absent when none is sent.
   */
  credentialSource?: string;
}

export interface CredentialIo {
  read?: (path: string) => string;
  nowMs?: number;
}

/** Header names that carry credentials, in the order a device would look at them. */
const secretHeaders = new Set(['authorization', 'cookie', 'x-auth-token', 'x-api-key', 'proxy-authorization']);

/** Headers the client sets itself, or that undici refuses or would send twice: why each one cannot be given. */
const reservedHeaders = lookupTable<string>({
  host: 'it comes from the device URL',
  'content-length': 'synctop sets it from the request body',
  'content-type': 'synctop sends application/json',
  accept: 'synctop asks for application/json',
  'transfer-encoding': 'synctop sends a plain body of known length',
  connection: 'synctop keeps one connection alive itself',
  'keep-alive': 'synctop keeps one connection alive itself',
  'proxy-connection': 'synctop keeps one connection alive itself',
  upgrade: 'the device API is plain HTTP requests',
  expect: 'synctop sends its small body at once',
  te: 'synctop sets transfer codings itself',
  trailer: 'synctop sends no trailers',
});

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const SECRET_FILE_MAX_BYTES = 64 * 1024;
const CA_FILE_MAX_BYTES = 1024 * 1024;

/** A header value is tab, printable ASCII and printable Latin-1 (undici refuses the rest; control characters have no business there). */
export function headerValueProblem(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) continue;
    const hex = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const what = c === 0x0a || c === 0x0d || c === 0x85 ? `a line break (${hex})` : c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f) ? `a control character (${hex})` : `the character ${hex}`;
    return `${what} at character ${i + 1}, which an HTTP header cannot carry`;
  }
  return null;
}

/** Host names whose traffic never leaves the machine (an SSH tunnel, the simulator). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function resolveCredentials(url: URL, src: CredentialSources, io: CredentialIo = {}): Credentials {
  const read = io.read ?? ((p: string) => readBoundedFile(p, SECRET_FILE_MAX_BYTES));
  const warnings: string[] = [];
  const notices: string[] = [];
  // Lower-case name -> [name as given, value]: "authorization" and "Authorization" are one header.
  const headers = new Map<string, [string, string]>();
  // Lower-case name -> what the credential in it is called when the device refuses it.
  const labels = new Map<string, string>();
  const set = (name: string, value: string, source: string, label = `${name} header from ${source}`) => {
    labels.set(name.toLowerCase(), label);
    const reserved = reservedHeaders[name.toLowerCase()];
    if (reserved) throw new CredentialError(`${source}: the ${name} header cannot be set (${reserved})`);
    const problem = headerValueProblem(value);
    if (problem) throw new CredentialError(`${source}: the ${name} value has ${problem}`);
    headers.set(name.toLowerCase(), [name, value]);
  };

  for (const [name, value] of Object.entries(src.profileHeaders ?? {})) {
    if (!headerName.test(name)) throw new CredentialError(`the profile's header name ${JSON.stringify(name)} is not a valid HTTP header name`);
    set(name, value.trim(), `the profile's header ${name}`, `${name} header from the profile`);
  }
  for (const h of src.argvHeaders ?? []) {
    const colon = h.indexOf(':');
    const name = colon < 0 ? '' : h.slice(0, colon).trim();
    if (!headerName.test(name)) throw new CredentialError(`--header must look like "Name: value" (got ${JSON.stringify(colon < 0 ? h.slice(0, 40) : `${h.slice(0, colon)}: …`)})`);
    set(name, h.slice(colon + 1).trim(), '--header');
    if (secretHeaders.has(name.toLowerCase())) {
      warnings.push(`the ${name} header on the command line is visible to every user in ps; use SYNCTOP_TOKEN, --token-file or --cookie-file`);
    }
  }

  // SYNCTOP_TOKEN, then --token-file, then the profile's token (its variable or inline value).
  const token = tokenFrom(src, read, warnings);
  if (token) {
    const problem = headerValueProblem(token.value);
    if (problem) throw new CredentialError(`${token.source}: the token has ${problem}`);
    if (headers.has('authorization')) warnings.push(`the token replaces the Authorization header given with --header or in the profile`);
    set('Authorization', /^(bearer|basic)\s/i.test(token.value) ? token.value : `Bearer ${token.value}`, token.source, token.label);
  }
  if (src.cookieFile) {
    const text = readSecretFile(read, src.cookieFile, '--cookie-file', warnings);
    const cookie = cookieHeader(text, src.cookieFile, url, io.nowMs ?? Date.now(), notices);
    if (headers.has('cookie')) warnings.push(`--cookie-file replaces the Cookie header given with --header or in the profile`);
    set('Cookie', cookie, `--cookie-file ${src.cookieFile}`, `session cookie from --cookie-file ${src.cookieFile}`);
  }

  const credentialSent = [...headers.keys()].some((n) => secretHeaders.has(n));
  if (url.protocol === 'http:' && credentialSent && !isLoopbackHost(url.hostname)) {
    warnings.push(`credentials go to ${url.host} over plain http:// where anyone on the network path can read them; use https:// if the device offers it`);
  }
  // The one a device checks first: a bearer token, then a session cookie, then other headers.
  const carrier = [...secretHeaders].find((n) => headers.has(n));
  const credentialSource = carrier ? labels.get(carrier) : undefined;
  return { headers: Object.fromEntries(headers.values()), warnings, notices, ...(credentialSource ? { credentialSource } : {}) };
}

function tokenFrom(src: CredentialSources, read: (p: string) => string, warnings: string[]): { value: string; source: string; label: string } | undefined {
  const env = src.envToken?.trim();
  if (env) return { value: env, source: 'SYNCTOP_TOKEN', label: 'token from SYNCTOP_TOKEN' };
  if (src.tokenFile) {
    const source = `--token-file ${src.tokenFile}`;
    return { value: readSecretFile(read, src.tokenFile, '--token-file', warnings), source, label: `token from ${source}` };
  }
  const profile = src.profileToken?.trim();
  return profile ? { value: profile, source: "the profile's token", label: "the profile's token" } : undefined;
}

function readSecretFile(read: (p: string) => string, path: string, flag: string, warnings: string[]): string {
  const value = readUserFile(read, path, flag).trim();
  if (!value) throw new CredentialError(`${flag} ${path}: the file is empty`);
  if (isReadableByOthers(path)) warnings.push(`${flag} ${path} can be read by other users: chmod 600 it`);
  return value;
}

/** A CA certificate file (PEM). */
export function readCaFile(path: string, read?: (p: string) => string): string {
  const text = readUserFile(read ?? ((p) => readBoundedFile(p, CA_FILE_MAX_BYTES)), path, '--ca');
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new CredentialError(`--ca ${path}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

function readUserFile(read: (p: string) => string, path: string, flag: string): string {
  try {
    return read(path);
  } catch (err) {
    throw new CredentialError(`${flag} ${path}: ${readFailure(err)}`);
  }
}

export function isReadableByOthers(path: string): boolean {
  try {
    return (statSync(path).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}

/** Every path the client posts to under this base URL: a jar cookie must cover them all. */
function requestPaths(url: URL): string[] {
  const base = url.pathname.replace(/\/+$/, '');
  return operationNames.map((op) => base + operations[op].path);
}

/**
 * A cookie file as the Cookie header for this device: a `name=value; ...` line as is, or the
 * cookies of a curl jar that are for this device (see cookie-jar.ts). Says which were used.
 */
export function cookieHeader(text: string, path: string, url: URL, nowMs: number, notices: string[]): string {
  if (!isCookieJar(text)) {
    const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l && !l.startsWith('#')) ?? '';
    if (!/^[^=;\s]+=[^;]*(;\s*[^=;\s]+=[^;]*)*;?$/.test(line)) {
      throw new CredentialError(`--cookie-file ${path}: expected "name=value" pairs or a curl cookie jar`);
    }
    return line;
  }
  const { cookies, malformed } = parseCookieJar(text);
  const chosen = selectCookies(cookies, url, requestPaths(url), nowMs);
  const bad = malformed.length > 0 ? `; unreadable line${malformed.length > 1 ? 's' : ''} ${malformed.slice(0, 5).join(', ')}${malformed.length > 5 ? ', …' : ''}` : '';
  const skipped = chosen.skipped.length > 0 ? `; not sent: ${listed(chosen.skipped)}` : '';
  if (chosen.used.length === 0) {
    throw new CredentialError(`--cookie-file ${path}: no cookie in the jar is for ${url.host}${skipped}${bad}`);
  }
  notices.push(`--cookie-file ${path}: sending ${listed(chosen.used)} to ${url.host}${skipped}${bad}`);
  return chosen.header;
}

/** At most 8 names, then how many more: a jar can hold thousands. */
function listed(items: string[]): string {
  return items.length > 8 ? `${items.slice(0, 8).join(', ')} and ${items.length - 8} more` : items.join(', ');
}
