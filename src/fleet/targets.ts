/**
 * Several devices on one command line (`synctop URL1 URL2`, `synctop @a @b`, `synctop --all`)
 * -> one Config per device and the name its row shows: the profile name, else the URL's host
 * (with port); repeats get "#2" (model/keys.ts), so every row and label is one device.
 */
import { UsageError, type CommonFlags, type Config } from '../config.js';
import { loadConfigFile, resolveTarget } from '../config-file.js';
import { uniqueKeys } from '../model/keys.js';
import { sanitizeText } from '../model/sanitize.js';

export interface FleetTarget {
  name: string;
  /** The config file profile, when the device was given as @name or by --all. */
  profile?: string;
  config: Config;
}

/** More devices than this on one screen is a mistake (a glob gone wrong), not a site. */
export const MAX_FLEET_DEVICES = 500;

export interface FleetTargetOptions {
  oneShot: boolean;
  warn: (message: string) => void;
}

export function resolveFleetTargets(
  args: readonly string[],
  all: boolean,
  flags: CommonFlags & { config?: string },
  env: NodeJS.ProcessEnv,
  opts: FleetTargetOptions,
): FleetTarget[] {
  const given = [...args];
  if (all) {
    const loaded = loadConfigFile(flags.config, env);
    for (const w of loaded?.warnings ?? []) opts.warn(w);
    const names = Object.keys(loaded?.file.devices ?? {});
    if (names.length === 0) throw new UsageError('--all monitors every device profile of the config file, and it has none; see --config');
    for (const name of names) if (!given.includes(`@${name}`)) given.push(`@${name}`);
  }
  if (given.length > MAX_FLEET_DEVICES) throw new UsageError(`at most ${MAX_FLEET_DEVICES} devices at once (got ${given.length})`);
  // A --record file is one for the whole fleet, written by the fleet, not by each device.
  const perDevice: CommonFlags & { config?: string } = { ...flags, record: undefined };
  let warned = false;
  const resolved = given.map((target) => {
    const config = resolveTarget(target, perDevice, env, {
      oneShot: opts.oneShot,
      // The config file's warnings are the same for every profile: say them once.
      warn: (w) => {
        if (!warned || !target.startsWith('@')) opts.warn(w);
      },
    });
    if (target.startsWith('@')) warned = true;
    const profile = target.startsWith('@') ? target.slice(1) : undefined;
    return { profile, config, label: profile ?? hostOf(config.connection.url) };
  });
  const names = uniqueKeys(resolved.map((r) => sanitizeText(r.label)));
  return resolved.map((r, i) => ({ name: names[i]!, ...(r.profile ? { profile: r.profile } : {}), config: r.config }));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A --all with no other argument, or two or more devices: the fleet view. */
export function isFleet(args: readonly string[], all: boolean): boolean {
  return all || args.length > 1;
}
