/**
 * Device profiles: $XDG_CONFIG_HOME/synctop/config.json (or --config FILE) names devices with
 * their URL, credentials, TLS and thresholds, so `synctop @lab-gm` needs nothing secret on the
 * command line (argv is visible to every user in `ps`). Validated by zod; a mistake is one
 * sentence naming the file and the key.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { MAX_INTERVAL_S, MAX_TIMEOUT_MS, MIN_INTERVAL_S, MIN_TIMEOUT_MS, resolveConfig, UsageError, type CommonFlags, type Config } from './config.js';

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

/** Reads and validates the config file; a missing default file is simply no profiles. */
export function loadConfigFile(explicitPath: string | undefined, env: NodeJS.ProcessEnv): LoadedConfigFile | null {
  const path = explicitPath ?? defaultConfigPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && explicitPath === undefined) return null;
    throw new UsageError(`config file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')}`);
  }
  const loaded = parseConfigFile(text, path);
  if (Object.values(loaded.file.devices).some((p) => p.token) && isReadableByOthers(path)) {
    loaded.warnings.push(`config file ${path} holds a token and can be read by other users: chmod 600 it`);
  }
  return loaded;
}

export function parseConfigFile(text: string, path: string): LoadedConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    // A misspelt key explains a "missing" one: name it first.
    const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.');
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : issue.code === 'invalid_type' && issue.input === undefined
          ? 'is missing'
          : issue.message;
    throw new UsageError(`config file ${path}: ${key ? `"${key}" ` : ''}${what}`);
  }
  return { path, file: parsed.data, warnings: [] };
}

export function findProfile(loaded: LoadedConfigFile | null, name: string, env: NodeJS.ProcessEnv): Profile {
  if (!loaded) throw new UsageError(`no config file at ${defaultConfigPath(env)} to find @${name} in (or give --config FILE)`);
  const profile = loaded.file.devices[name];
  if (!profile) {
    const known = Object.keys(loaded.file.devices);
    throw new UsageError(`no device "${name}" in ${loaded.path}${known.length ? `; known: ${known.join(', ')}` : ''}`);
  }
  return profile;
}

/**
 * A profile as command-line flags, under the ones actually given (flags win). The token comes
 * back separately: it must never travel through argv-shaped data.
 */
export function profileFlags(profile: Profile, given: CommonFlags, env: NodeJS.ProcessEnv): { url: string; flags: CommonFlags; token?: string } {
  let token: string | undefined;
  if (profile.tokenEnv) {
    token = env[profile.tokenEnv]?.trim();
    if (!token && !given.tokenFile && !env.SYNCTOP_TOKEN) {
      throw new UsageError(`the profile takes its token from $${profile.tokenEnv}, which is not set`);
    }
  }
  token ||= profile.token;
  const t = profile.thresholds ?? {};
  const headers = Object.entries(profile.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
  const flags: CommonFlags = {
    ...(profile.interval !== undefined ? { interval: profile.interval } : {}),
    ...(profile.timeout !== undefined ? { timeout: profile.timeout } : {}),
    ...(profile.ptpPorts !== undefined ? { ptpPorts: profile.ptpPorts === 'auto' ? 'auto' : profile.ptpPorts.join(',') } : {}),
    ...(profile.tokenFile && !token ? { tokenFile: profile.tokenFile } : {}),
    ...(profile.cookieFile ? { cookieFile: profile.cookieFile } : {}),
    ...(profile.insecure !== undefined ? { insecure: profile.insecure } : {}),
    ...(profile.ca ? { ca: profile.ca } : {}),
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
    header: [...headers, ...(given.header ?? [])],
  };
  return { url: profile.url, flags, ...(token ? { token } : {}) };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isReadableByOthers(path: string): boolean {
  try {
    return (statSync(path).mode & 0o044) !== 0;
  } catch {
    return false;
  }
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
  return resolveProfile(loaded, target.slice(1), flags, env, opts.oneShot);
}

/** One profile of a loaded config file, under the flags given, as a Config. */
export function resolveProfile(loaded: LoadedConfigFile | null, name: string, flags: CommonFlags, env: NodeJS.ProcessEnv, oneShot: boolean): Config {
  const merged = profileFlags(findProfile(loaded, name, env), flags, env);
  return resolveConfig(merged.url, merged.flags, env, { oneShot, ...(merged.token ? { profileToken: merged.token } : {}) });
}
