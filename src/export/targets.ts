/**
 * Which devices `/probe` may ask, and with which settings. The exporter must not be an open
 * proxy that makes requests anywhere on the network for whoever can reach its port, so a target
 * is probed only when it is
 *
 * - a device URL given on the command line, or matched by an `--allow-target` pattern: probed
 *   with the command line's connection settings (token, cookie, headers, TLS, --ptp-ports,
 *   thresholds), since the command line named it;
 * - the URL of a device profile of the config file, or `profile=NAME`: probed with that
 *   profile's settings, so its token goes to its own device and never travels in a scrape URL.
 *
 * Patterns: an exact URL (`https://gm1.example`), an IP address or CIDR block (`10.0.0.0/8`,
 * `fd00::/8`; matches targets written as IP addresses, names are not resolved), or a host name
 * glob (`*.site7.example`, `gm-??.example`; `*` is any run of characters, `?` one; no case).
 * Everything here is pure apart from the profile resolution, which reads the files the profiles
 * name.
 */
import { BlockList, isIP } from 'node:net';
import { checkUrl, quoteArgument, UsageError, type CommonFlags, type Config } from '../config.js';
import { resolveProfile, type LoadedConfigFile } from '../config-file.js';

/** A target longer than this is refused before it is parsed: no device URL is this long. */
export const MAX_TARGET_LENGTH = 1024;
const PROFILE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

export type AllowPattern = { kind: 'url'; url: string } | { kind: 'cidr'; text: string; list: BlockList } | { kind: 'glob'; glob: string };

/** One --allow-target pattern; a malformed one is a usage error naming it. */
export function parseAllowPattern(text: string): AllowPattern {
  const t = text.trim();
  if (t.includes('://')) return { kind: 'url', url: checkUrl(t) };
  const cidr = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/.exec(t);
  const family = cidr ? isIP(cidr[1]!) : 0;
  if (cidr && family !== 0) {
    const bits = family === 4 ? 32 : 128;
    const prefix = cidr[2] === undefined ? bits : Number(cidr[2]);
    if (prefix > bits) throw new UsageError(`--allow-target ${t}: a /${prefix} block does not exist for IPv${family}`);
    const list = new BlockList();
    list.addSubnet(cidr[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return { kind: 'cidr', text: t, list };
  }
  if (/^[A-Za-z0-9*?.-]{1,253}$/.test(t) && /[A-Za-z0-9*?]/.test(t)) return { kind: 'glob', glob: t.toLowerCase() };
  throw new UsageError(`--allow-target takes a device URL, an IP address or CIDR block (10.0.0.0/8) or a host name glob (*.site7.example) (got ${quoteArgument(text)})`);
}

/**
 * Wildcard match of a host name (`*` any run, `?` one character) without regular expressions:
 * the classic greedy scan that remembers the last `*`, at most pattern x text steps, whatever
 * the pattern (a regex built from a glob can backtrack without bound).
 */
export function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && (glob[g] === '?' || glob[g] === text[t])) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

function patternMatches(p: AllowPattern, url: URL, normalized: string): boolean {
  if (p.kind === 'url') return p.url === normalized;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (p.kind === 'glob') return globMatches(p.glob, host);
  const family = isIP(host);
  return family !== 0 && p.list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** The target text as a device base URL (normalized as the command line normalizes URLs), or why not. */
export function parseTarget(text: string): { ok: true; url: URL; normalized: string } | { ok: false; message: string } {
  if (text.length > MAX_TARGET_LENGTH) return { ok: false, message: `the target is longer than ${MAX_TARGET_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'the target must be the device\'s base URL with its scheme, such as https://10.0.0.5.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'the target must be an http:// or https:// URL.' };
  if (url.username || url.password) return { ok: false, message: 'the target must not carry credentials; give them to a device profile and probe it with profile=NAME.' };
  if (url.search || url.hash) return { ok: false, message: 'the target must be a base URL without a query or fragment.' };
  return { ok: true, url, normalized: url.href.replace(/\/+$/, '') };
}

/** A device to probe: what it is called, how it is reached. */
export interface ProbeTarget {
  /** Entries (clients) are kept per key: the same URL under another profile is another entry. */
  key: string;
  /** The device's base URL: the `device` label and the single-flight key. */
  url: string;
  config: Config;
}

export type TargetLookup = { ok: true; target: ProbeTarget } | { ok: false; status: 400 | 403; message: string };

export interface TargetBookInput {
  /** The command line's settings (its URL is replaced by each target's). */
  commandLine: Config;
  /** Device URLs given on the command line (already normalized). */
  urls: readonly string[];
  patterns: readonly AllowPattern[];
  /** Every usable profile of the config file, in the file's order. */
  profiles: ReadonlyMap<string, Config>;
}

export class TargetBook {
  private readonly urls: ReadonlySet<string>;
  private readonly profileByUrl = new Map<string, string>();

  constructor(private readonly input: TargetBookInput) {
    this.urls = new Set(input.urls);
    for (const [name, config] of input.profiles) if (!this.profileByUrl.has(config.connection.url)) this.profileByUrl.set(config.connection.url, name);
  }

  /** Whether any target at all can be probed (otherwise the exporter is misconfigured). */
  get empty(): boolean {
    return this.urls.size === 0 && this.input.patterns.length === 0 && this.input.profiles.size === 0;
  }

  /** `target` / `profile` from the scrape URL -> a target, or a status and one sentence. */
  lookup(query: { target?: string; profile?: string }): TargetLookup {
    if (query.profile !== undefined) {
      const found = this.byProfile(query.profile);
      // target=URL&profile=NAME is fine when URL is that profile's own: its credentials go nowhere else.
      if (query.target === undefined || !found.ok) return found;
      const parsed = parseTarget(query.target);
      if (parsed.ok && parsed.normalized === found.target.url) return found;
      return { ok: false, status: 400, message: "the target is not that profile's device; a profile's credentials go only to its own URL." };
    }
    if (query.target === undefined) return { ok: false, status: 400, message: 'give the device to probe: /probe?target=URL or /probe?profile=NAME.' };
    const parsed = parseTarget(query.target);
    if (!parsed.ok) return { ok: false, status: 400, message: parsed.message };
    const url = parsed.normalized;
    if (this.urls.has(url) || this.input.patterns.some((p) => patternMatches(p, parsed.url, url))) {
      const c = this.input.commandLine;
      return { ok: true, target: { key: url, url, config: { ...c, connection: { ...c.connection, url } } } };
    }
    const profile = this.profileByUrl.get(url);
    if (profile !== undefined) return this.byProfile(profile);
    return {
      ok: false,
      status: 403,
      message: 'this target is not allowed: name it on the command line or in the config file, or allow it with --allow-target.',
    };
  }

  private byProfile(name: string): TargetLookup {
    const config = PROFILE_NAME.test(name) ? this.input.profiles.get(name) : undefined;
    if (!config) return { ok: false, status: 403, message: 'no usable device profile of that name in the config file.' };
    return { ok: true, target: { key: `@${name}`, url: config.connection.url, config } };
  }
}

/**
 * Every profile of the config file as a Config under the command line's flags; a profile that
 * cannot be resolved (its token variable unset, its token file missing) is left out with a
 * warning, so one broken profile does not stop the exporter. The one place profiles become
 * settings for /probe.
 */
export function profileConfigs(loaded: LoadedConfigFile | null, flags: CommonFlags, env: NodeJS.ProcessEnv, warn: (message: string) => void): Map<string, Config> {
  // The command line's credentials and TLS settings belong to the devices it names: profiles keep
  // their own (SYNCTOP_TOKEN only for a profile that names it as its tokenEnv). A recording is of
  // the static fleet.
  const { record: _r, ...shared } = flags;
  const out = new Map<string, Config>();
  for (const name of Object.keys(loaded?.file.devices ?? {})) {
    try {
      // A probe is one poll: the one-shot modes' default timeout, not the live monitor's.
      out.set(name, resolveProfile(loaded, name, shared, env, { oneShot: true, credentials: 'own' }));
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      warn(`profile ${name} cannot be probed: ${err.message}`);
    }
  }
  return out;
}
