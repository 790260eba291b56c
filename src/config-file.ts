/**
 * Device profiles: $XDG_CONFIG_HOME/synctop/config.json (or --config FILE) names devices with
 * their URL, credentials, TLS and thresholds, so `synctop @lab-gm` needs nothing secret on the
 * command line (argv is visible to every user in `ps`). Validated by zod; a mistake is one
 * sentence naming the file and the key.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { readBoundedFile, readFailure } from './bounded-read.js';
import { MAX_INTERVAL_S, MAX_TIMEOUT_MS, MIN_INTERVAL_S, MIN_TIMEOUT_MS, quoteArgument, resolveConfig, UsageError, type CommonFlags, type Config } from './config.js';
import { isReadableByOthers } from './credentials.js';

const durationText = z.string().regex(/^\d+(\.\d+)?\s*(ns|us|µs|ms|s)$/, 'a time with a unit, such as 1us or 10ms');

const thresholdsSchema = z
  .object({
    ptpWarn: durationText,
    ptpCrit: durationText,
    ntpWarn: durationText,
    ntpCrit: durationText,
    minSats: z.number().int().min(0),
    ptpMaxAge: durationText,
    utcMaxDiff: durationText,
    frozenAfter: durationText,
  })
  .partial()
  .strict();

export const profileSchema = z
  .object({
    url: z.string().regex(/^https?:\/\//, 'an http:// or https:// URL'),
    /** The bearer token itself (keep the file private), the variable holding it, or a file. */
    token: z.string().min(1).optional(),
    tokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name').optional(),
    tokenFile: z.string().min(1).optional(),
    cookieFile: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    insecure: z.boolean().optional(),
    ca: z.string().min(1).optional(),
    pinSha256: z.string().optional(),
    ptpPorts: z.union([z.literal('auto'), z.array(z.number().int().min(0).max(255)).min(1)]).optional(),
    interval: z.number().min(MIN_INTERVAL_S).max(MAX_INTERVAL_S, `at most ${MAX_INTERVAL_S} seconds (a day)`).optional(),
    timeout: z.number().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS, `at most ${MAX_TIMEOUT_MS} milliseconds (ten minutes)`).optional(),
    thresholds: thresholdsSchema.optional(),
  })
  .strict();

export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    devices: z.record(z.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" or "-"'), profileSchema),
  })
  .strict();

export type Profile = z.infer<typeof profileSchema>;
export type ConfigFile = z.infer<typeof configFileSchema>;

export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'synctop', 'config.json');
}

export interface LoadedConfigFile {
  path: string;
  file: ConfigFile;
  warnings: string[];
}

/** A config file names a few devices: anything near this size is not one. */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Reads and validates the config file; a missing default file is simply no profiles. A FIFO or
 * device given as --config is refused at once instead of blocking, and the size is bounded.
 */
export function loadConfigFile(explicitPath: string | undefined, env: NodeJS.ProcessEnv): LoadedConfigFile | null {
  const path = explicitPath ?? defaultConfigPath(env);
  let text: string;
  try {
    text = readBoundedFile(path, CONFIG_FILE_MAX_BYTES, { regularOnly: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && explicitPath === undefined) return null;
    throw new UsageError(`config file ${path}: ${readFailure(err)}`);
  }
  const loaded = parseConfigFile(text, path);
  if (Object.values(loaded.file.devices).some((p) => p.token) && isReadableByOthers(path)) {
    loaded.warnings.push(`config file ${path} holds a token and can be read by other users: chmod 600 it`);
  }
  return loaded;
}

/** What JSON syntax error each jsonc-parser code is, in words. */
const syntaxErrors: Record<string, string> = {
  InvalidSymbol: 'a value that is not JSON (strings need double quotes)',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected (a trailing comma?)',
  ValueExpected: 'a value was expected (a trailing comma?)',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'text after the end of the JSON',
  InvalidCommentToken: 'a comment (JSON has none)',
  UnexpectedEndOfComment: 'an unterminated comment',
  UnexpectedEndOfString: 'an unterminated string',
  UnexpectedEndOfNumber: 'an unterminated number',
  InvalidUnicode: 'a bad \\u escape',
  InvalidEscapeCharacter: 'a bad escape character',
  InvalidCharacter: 'a control character inside a string',
};

/**
 * Where the JSON is broken, as line and column and what is wrong, never the text there: the
 * text near the error can be a token or a password.
 */
export function jsonSyntaxError(text: string): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return 'it is not valid JSON';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  const code = printParseErrorCode(first.error);
  return `it is not valid JSON at line ${line}, column ${column}: ${syntaxErrors[code] ?? code}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function parseConfigFile(text: string, path: string): LoadedConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`config file ${path}: ${jsonSyntaxError(text)}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    // A misspelt key explains a "missing" one: name it first.
    const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.');
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => quoteArgument(k)).join(', ')}`
        : issue.code === 'invalid_type'
          ? wrongType(issue.expected, valueAt(json, issue.path))
          : issue.message;
    throw new UsageError(`config file ${path}: ${key ? `${quoteArgument(key)} ` : ''}${what}`);
  }
  return { path, file: parsed.data, warnings: [] };
}

/** "is missing", or "must be a number (got a string)". */
function wrongType(expected: string, got: unknown): string {
  if (got === undefined) return 'is missing';
  const want = expected === 'record' || expected === 'object' ? 'an object' : expected === 'array' ? 'a list' : `a ${expected}`;
  return `must be ${want} (got ${jsonType(got)})`;
}

export function findProfile(loaded: LoadedConfigFile | null, name: string, env: NodeJS.ProcessEnv): Profile {
  if (!loaded) throw new UsageError(`no config file at ${defaultConfigPath(env)} to find @${sanitizeName(name)} in (or give --config FILE)`);
  // Own keys only: @toString or @__proto__ must not find Object's.
  const profile = Object.hasOwn(loaded.file.devices, name) ? loaded.file.devices[name] : undefined;
  if (!profile) {
    const known = Object.keys(loaded.file.devices);
    throw new UsageError(`no profile named ${quoteArgument(name)} in ${loaded.path}${known.length ? `; known: ${known.join(', ')}` : ''}`);
  }
  return profile;
}

const sanitizeName = (name: string) => quoteArgument(name).slice(1, -1);

/**
 * A file path of the config file: `~/` is the home directory, and a relative path is relative to
 * the config file's own directory (as kubeconfig does), not to wherever synctop was started.
 */
export function expandConfigPath(path: string, configDir: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(configDir, path);
}

/**
 * A profile as command-line flags, under the ones actually given (flags win). The token and the
 * headers come back separately: they must never travel through argv-shaped data (and headers
 * from the file are no `ps` risk).
 */
export function profileFlags(
  profile: Profile,
  given: CommonFlags,
  env: NodeJS.ProcessEnv,
  configDir = '.',
): { url: string; flags: CommonFlags; token?: string; headers: Record<string, string> } {
  let token: string | undefined;
  if (profile.tokenEnv) {
    token = env[profile.tokenEnv]?.trim();
    if (!token && !given.tokenFile && !env.SYNCTOP_TOKEN) {
      throw new UsageError(`the profile takes its token from $${profile.tokenEnv}, which is not set`);
    }
  }
  token ||= profile.token;
  const t = profile.thresholds ?? {};
  const file = (p: string) => expandConfigPath(p, configDir, env);
  const flags: CommonFlags = {
    ...(profile.interval !== undefined ? { interval: profile.interval } : {}),
    ...(profile.timeout !== undefined ? { timeout: profile.timeout } : {}),
    ...(profile.ptpPorts !== undefined ? { ptpPorts: profile.ptpPorts === 'auto' ? 'auto' : profile.ptpPorts.join(',') } : {}),
    ...(profile.tokenFile && !token ? { tokenFile: file(profile.tokenFile) } : {}),
    ...(profile.cookieFile ? { cookieFile: file(profile.cookieFile) } : {}),
    ...(profile.insecure !== undefined ? { insecure: profile.insecure } : {}),
    ...(profile.ca ? { ca: file(profile.ca) } : {}),
    ...(profile.pinSha256 ? { pinSha256: profile.pinSha256 } : {}),
    ...(t.ptpWarn ? { ptpWarn: t.ptpWarn } : {}),
    ...(t.ptpCrit ? { ptpCrit: t.ptpCrit } : {}),
    ...(t.ntpWarn ? { ntpWarn: t.ntpWarn } : {}),
    ...(t.ntpCrit ? { ntpCrit: t.ntpCrit } : {}),
    ...(t.minSats !== undefined ? { minSats: t.minSats } : {}),
    ...(t.ptpMaxAge ? { ptpMaxAge: t.ptpMaxAge } : {}),
    ...(t.utcMaxDiff ? { utcMaxDiff: t.utcMaxDiff } : {}),
    ...(t.frozenAfter ? { frozenAfter: t.frozenAfter } : {}),
    ...definedOnly(given),
    // The command line's parser reports an absent --insecure as false: only a given one overrides.
    ...(given.insecure !== true && profile.insecure !== undefined ? { insecure: profile.insecure } : {}),
  };
  return { url: profile.url, flags, headers: { ...profile.headers }, ...(token ? { token } : {}) };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Whose credentials a profile gets. Credentials given on the command line or in the environment
 * (SYNCTOP_TOKEN, --token-file, --cookie-file, --header, --ca, --pin-sha256, --insecure) belong
 * to the device named on the command line: `command-line`. Any other profile — one the `d`
 * switcher opens, one an exporter probe names — uses only what its own profile says: `own`.
 */
export type CredentialScope = 'command-line' | 'own';

/** The flags that carry credentials or trust, and the environment variable that does. */
export const credentialFlagNames = ['tokenFile', 'cookieFile', 'header', 'ca', 'pinSha256', 'insecure'] as const satisfies readonly (keyof CommonFlags)[];
export const credentialEnvNames = ['SYNCTOP_TOKEN'] as const;

/** The flags and environment without any credential from the command line or environment. */
export function withoutCommandLineCredentials<F extends CommonFlags>(flags: F, env: NodeJS.ProcessEnv): { flags: F; env: NodeJS.ProcessEnv } {
  const ownFlags = { ...flags };
  for (const k of credentialFlagNames) delete ownFlags[k];
  const ownEnv = { ...env };
  for (const k of credentialEnvNames) delete ownEnv[k];
  return { flags: ownFlags, env: ownEnv };
}

/**
 * A URL or an @profile of the config file, with the flags given, as one Config. Everything that
 * takes a device (the live monitor, --once/--json, check) goes through here.
 */
export function resolveTarget(
  target: string,
  flags: CommonFlags & { config?: string },
  env: NodeJS.ProcessEnv,
  opts: { oneShot: boolean; warn?: (message: string) => void },
): Config {
  if (!target.startsWith('@')) return resolveConfig(target, flags, env, { oneShot: opts.oneShot });
  const loaded = loadConfigFile(flags.config, env);
  for (const w of loaded?.warnings ?? []) opts.warn?.(w);
  return resolveProfile(loaded, target.slice(1), flags, env, { oneShot: opts.oneShot, credentials: 'command-line' });
}

/**
 * One profile of a loaded config file, under the flags given, as a Config. `credentials` says
 * whether the command line's credentials apply (the profile named there) or only the profile's
 * own (every other profile: the `d` switcher, an exporter probe).
 */
export function resolveProfile(
  loaded: LoadedConfigFile | null,
  name: string,
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  opts: { oneShot: boolean; credentials: CredentialScope },
): Config {
  const profile = findProfile(loaded, name, env);
  const scoped = opts.credentials === 'own' ? withoutCommandLineCredentials(flags, env) : { flags, env };
  // A profile that names SYNCTOP_TOKEN as its own tokenEnv keeps it.
  if (profile.tokenEnv && env[profile.tokenEnv] !== undefined) scoped.env = { ...scoped.env, [profile.tokenEnv]: env[profile.tokenEnv] };
  const merged = profileFlags(profile, scoped.flags, scoped.env, loaded ? dirname(resolve(loaded.path)) : '.');
  return resolveConfig(merged.url, merged.flags, scoped.env, {
    oneShot: opts.oneShot,
    profileHeaders: merged.headers,
    ...(merged.token ? { profileToken: merged.token } : {}),
  });
}
