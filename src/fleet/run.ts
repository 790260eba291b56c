/**
 * `synctop URL1 URL2 ...`, `synctop @a @b`, `synctop --all`, with --once/--json or under
 * `check`: the targets resolved once, then the mode. Bad usage: a sentence and exit 2, or for
 * check an UNKNOWN line and exit 3.
 */
import { UsageError, type CommonFlags } from '../config.js';
import { resolveFleetTargets, type FleetTarget } from './targets.js';

export interface FleetIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  version: string;
  fail: (message: string, code?: number) => never;
}

type FleetFlags = CommonFlags & { config?: string; all?: boolean; once?: boolean; json?: boolean; warning?: string; critical?: string } & Record<string, unknown>;

export async function runFleetCommand(mode: 'live' | 'once' | 'check', args: string[], flags: FleetFlags, io: FleetIo): Promise<number> {
  if (mode === 'check') {
    const { runFleetCheck } = await import('./check.js');
    const outcome = await runFleetCheck(args, flags, io.env);
    io.stdout.write(`${outcome.line}\n`);
    return outcome.code;
  }
  const warn = (w: string) => io.stderr.write(`synctop: warning: ${w}\n`);
  let targets: FleetTarget[];
  try {
    targets = resolveFleetTargets(args, flags.all ?? false, flags, io.env, { oneShot: mode === 'once', warn });
  } catch (err) {
    if (err instanceof UsageError) io.fail(err.message);
    throw err;
  }
  for (const w of new Set(targets.flatMap((t) => t.config.warnings))) warn(w);
  const command = await import('./command.js');
  if (mode === 'once') {
    const color = targets[0]!.config.color && io.stdout.isTTY === true;
    return command.runFleetOnce(targets, { json: flags.json ?? false, color, stdout: io.stdout });
  }
  if (!io.stdout.isTTY) io.fail('the fleet view needs a terminal; use --once or --json for scripts');
  // A live view on a terminal is live even when CI is set in the environment (see cli.tsx).
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const first = targets[0]!.config;
  await command.runFleetLive(targets, { record: flags.record, version: io.version, bell: first.bell, showSecrets: first.showSecrets, stderr: io.stderr });
  return Number(process.exitCode ?? 0);
}
