/**
 * A `--cookie-file` as the Cookie header for one device. The file is either the header's value
 * (`name=value; other=value`, sent as is: the user chose it for this device) or a Netscape cookie
 * jar as `curl -c` writes it, which may hold cookies of many sites. From a jar only the cookies
 * curl itself would send to the device are used: the domain matches the device's host (exactly,
 * or as a parent domain when the include-subdomains column is TRUE), the path covers the API's
 * paths, a secure cookie only over https://, and not expired.
 *
 * Why not tough-cookie: it has no reader for the Netscape jar format (the part that needs
 * writing anyway), and its domain matching brings the public suffix list (tldts, 146 KB
 * minified) into the start-up path of every mode. The two matching rules it would provide are
 * RFC 6265 §5.1.3 and §5.1.4, a few lines each, below.
 */
import { isIP } from 'node:net';

export interface JarCookie {
  /** 1-based line of the jar. */
  line: number;
  domain: string;
  includeSubdomains: boolean;
  path: string;
  secure: boolean;
  /** Seconds since the epoch; 0 is a session cookie (no expiry). */
  expires: number;
  name: string;
  value: string;
}

export interface CookieSelection {
  /** The Cookie header value; '' when nothing is for this device. */
  header: string;
  used: string[];
  /** "tracking (for example.org)": the name and why it is not sent. */
  skipped: string[];
}

/** RFC 6265 cookie names are HTTP tokens. */
const cookieName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value can carry (undici refuses the rest); ';' would split the cookie. */
const cookieValue = /^[\t\x20-\x3a\x3c-\x7e\x80-\xff]*$/;

/** A curl jar has tab-separated lines of seven fields; `#HttpOnly_` prefixes the domain of HttpOnly cookies. */
export function isCookieJar(text: string): boolean {
  return text.split(/\r?\n/).some((l) => l.split('\t').length === 7);
}

export function parseCookieJar(text: string): { cookies: JarCookie[]; malformed: number[] } {
  const cookies: JarCookie[] = [];
  const malformed: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const httpOnly = raw.startsWith('#HttpOnly_');
    if (!httpOnly && (raw.trim() === '' || raw.trimStart().startsWith('#'))) return;
    const f = (httpOnly ? raw.slice('#HttpOnly_'.length) : raw).split('\t');
    const [domain, sub, path, secure, expires, name, value] = f;
    const flag = (s: string | undefined) => (s === 'TRUE' ? true : s === 'FALSE' ? false : undefined);
    const exp = /^\d{1,15}$/.test(expires ?? '') ? Number(expires) : Number.NaN;
    const ok =
      f.length === 7 &&
      domain !== undefined && domain !== '' &&
      flag(sub) !== undefined && flag(secure) !== undefined &&
      path !== undefined && path.startsWith('/') &&
      !Number.isNaN(exp) &&
      name !== undefined && cookieName.test(name) &&
      value !== undefined && cookieValue.test(value);
    if (!ok) {
      malformed.push(i + 1);
      return;
    }
    cookies.push({ line: i + 1, domain, includeSubdomains: flag(sub)!, path: path!, secure: flag(secure)!, expires: exp, name: name!, value: value! });
  });
  return { cookies, malformed };
}

/** The URL's host as cookies name it: lower case, no brackets around IPv6, no trailing dot. */
function canonicalHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/**
 * RFC 6265 §5.1.3 with curl's include-subdomains column: FALSE is a host-only cookie (the host
 * must be the domain), TRUE also matches hosts below the domain (never for an IP address).
 */
export function domainMatches(host: string, cookie: Pick<JarCookie, 'domain' | 'includeSubdomains'>): boolean {
  const h = canonicalHost(host);
  const d = canonicalHost(cookie.domain.replace(/^\./, ''));
  if (h === d) return true;
  return cookie.includeSubdomains && isIP(h) === 0 && h.endsWith(`.${d}`);
}

/** RFC 6265 §5.1.4: the cookie's path is the request path or a directory above it. */
export function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** Why a jar cookie is not for this device, or null when it is. */
export function whyNotSent(cookie: JarCookie, url: URL, requestPaths: readonly string[], nowMs: number): string | null {
  if (!domainMatches(url.hostname, cookie)) return `for ${cookie.domain.replace(/^\./, '')}${cookie.includeSubdomains ? ' and its subdomains' : ''}`;
  if (cookie.secure && url.protocol !== 'https:') return 'secure: sent over https:// only';
  if (cookie.expires !== 0 && cookie.expires * 1000 <= nowMs) return `expired ${new Date(cookie.expires * 1000).toISOString().slice(0, 10)}`;
  if (!requestPaths.every((p) => pathMatches(p, cookie.path))) return `for path ${cookie.path}`;
  return null;
}

/** The jar's cookies for requests to `url` at `requestPaths`; a later line wins over an earlier one of the same name. */
export function selectCookies(cookies: readonly JarCookie[], url: URL, requestPaths: readonly string[], nowMs: number): CookieSelection {
  const chosen = new Map<string, JarCookie>();
  const skipped: string[] = [];
  for (const c of cookies) {
    const why = whyNotSent(c, url, requestPaths, nowMs);
    if (why) skipped.push(`${c.name} (${why})`);
    else chosen.set(c.name, c);
  }
  const used = [...chosen.values()];
  return { header: used.map((c) => `${c.name}=${c.value}`).join('; '), used: used.map((c) => c.name), skipped };
}
