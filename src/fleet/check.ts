/**
 * `synctop check URL1 URL2 ...` / `synctop check --all`: one plugin line for the fleet. The
 * status is the worst device's; the reasons name their device; each device's perfdata carries
 * its name as a prefix (made unique and bounded by model/keys.ts), so one check graphs them all.
 */
import { UsageError, type CommonFlags } from '../config.js';
import { boundedText } from '../model/keys.js';
import { severityRank, type Severity } from '../monitor/health.js';
import {
  checkExitCodes,
  checkFlagNames,
  checkVerdict,
  formatPerf,
  parseRangeFlag,
  perfdata,
  RangeFlagError,
  unknownOutcome,
  type CheckLimits,
  type CheckOutcome,
} from '../report/check.js';
import { pollFleetOnce } from './command.js';
import { resolveFleetTargets } from './targets.js';

const statusOf: Record<Severity, 'OK' | 'WARNING' | 'CRITICAL'> = { ok: 'OK', warning: 'WARNING', critical: 'CRITICAL' };

/** A device name as a perfdata prefix: no quote, space, '=' or '|' (perfLabel would quote them), bounded. */
export function perfPrefix(name: string): string {
  return boundedText(name.replace(/[\s='|]+/g, '_'), 64);
}

export async function runFleetCheck(args: string[], flags: CommonFlags & { config?: string; all?: boolean; warning?: string; critical?: string } & Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<CheckOutcome> {
  const unknown = Object.keys(flags).filter((k) => k !== 'all' && !checkFlagNames.has(k) && given(flags[k]));
  if (unknown.length > 0) return unknownOutcome(`check does not take --${unknown[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}; see synctop --help`);
  // A state file holds one device's last known data: one check per device keeps its own.
  if (given(flags.stateFile) || given(flags.stateMaxAge)) return unknownOutcome('--state-file keeps the memory of one device: give each device its own check and state file');
  let limits: CheckLimits[];
  let targets;
  try {
    targets = resolveFleetTargets(args, flags.all ?? false, flags, env, { oneShot: true, warn: () => undefined });
    const ptpWarn = parseRangeFlag(flags.warning, '-w');
    const ptpCrit = parseRangeFlag(flags.critical, '-c');
    limits = targets.map((t) => ({ thresholds: t.config.thresholds, ...(ptpWarn ? { ptpWarn } : {}), ...(ptpCrit ? { ptpCrit } : {}) }));
  } catch (err) {
    if (err instanceof UsageError || err instanceof RangeFlagError) return unknownOutcome(err.message);
    return unknownOutcome(`internal error: ${(err as Error)?.message ?? String(err)}`);
  }
  try {
    const snapshots = await pollFleetOnce(targets, { budget: true, showSecrets: false });
    return fleetCheckOutcome(
      snapshots.map((snapshot, i) => ({ name: targets[i]!.name, snapshot, limits: limits[i]! })),
    );
  } catch (err) {
    return unknownOutcome(`internal error: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** The worst state, the count per state, each unhealthy device's reasons, every device's perfdata. */
export function fleetCheckOutcome(devices: { name: string; snapshot: import('../model/snapshot.js').Snapshot; limits: CheckLimits }[]): CheckOutcome {
  const verdicts = devices.map((d) => checkVerdict(d.snapshot, d.limits));
  const worst = verdicts.reduce<Severity>((w, v) => (severityRank[v.severity] > severityRank[w] ? v.severity : w), 'ok');
  const counts = (['critical', 'warning', 'ok'] as const)
    .map((s) => [s, verdicts.filter((v) => v.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${statusOf[s]}`);
  const reasons = devices
    .map((d, i) => (verdicts[i]!.findings.length > 0 ? `${d.name}: ${verdicts[i]!.findings.map((f) => f.message).join(', ')}` : ''))
    .filter(Boolean);
  const perf = devices.flatMap((d) => perfdata(d.snapshot, d.limits).map((p) => formatPerf({ ...p, label: `${perfPrefix(d.name)}_${p.label}` })));
  const text = `${devices.length} device${devices.length === 1 ? "" : "s"}: ${counts.join(', ')}${reasons.length > 0 ? `; ${reasons.join('; ')}` : ''}`.replace(/[\r\n]+/g, ' ').replace(/\|/g, '/');
  const status = statusOf[worst];
  return { line: `SYNCTOP ${status} - ${text}${perf.length > 0 ? ` | ${perf.join(' ')}` : ''}`, code: checkExitCodes[status] };
}

const given = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);
