/**
 * `synctop check URL`: the monitoring-plugin convention (Nagios, Icinga, Zabbix, Sensu). One poll,
 * the verdict of the shared rule table (evaluateHealth), ONE line on stdout
 *
 *   SYNCTOP <OK|WARNING|CRITICAL|UNKNOWN> - <reasons> | <perfdata>
 *
 * and exit 0/1/2/3. Bad usage is UNKNOWN (3), never meow's 2: a plugin's exit code is its status.
 *
 * -w/-c take plugin ranges and apply to |PTP offset from master| of every port, in seconds (as
 * check_ntp_time applies its ranges to |offset|). Perfdata thresholds also relate to the absolute
 * value, while the value itself keeps its sign.
 */
import { DeviceClient } from '../api/client.js';
import { quoteArgument, UsageError, type CommonFlags, type Config } from '../config.js';
import { resolveTarget } from '../config-file.js';
import { idKey, uniqueKeys } from '../model/keys.js';
import type { Snapshot } from '../model/snapshot.js';
import { formatOffset } from '../model/units.js';
import { pollOnce } from '../monitor/once.js';
import { evaluateHealth, severityRank, subjects, type Finding, type Severity, type Thresholds, type Verdict } from '../monitor/health.js';
import { VerdictMemory, type LiveVerdict, type TrackedFinding } from '../monitor/verdict-memory.js';
import { ageText } from '../view/time.js';
import { checkStateText, loadCheckState, parseStateMaxAge, saveCheckState } from './check-state.js';
import { formatRange, parsePluginRange, perfNumber, rangeAlerts, upperLimit, type PluginRange } from './plugin-range.js';

export type CheckStatus = 'OK' | 'WARNING' | 'CRITICAL' | 'UNKNOWN';

export const checkExitCodes: Record<CheckStatus, 0 | 1 | 2 | 3> = { OK: 0, WARNING: 1, CRITICAL: 2, UNKNOWN: 3 };
const statusOf: Record<Severity, CheckStatus> = { ok: 'OK', warning: 'WARNING', critical: 'CRITICAL' };

export interface CheckLimits {
  thresholds: Thresholds;
  /** -w / -c: ranges on |PTP offset from master| in seconds; they replace --ptp-warn / --ptp-crit. */
  ptpWarn?: PluginRange;
  ptpCrit?: PluginRange;
}

export interface CheckOutcome {
  line: string;
  code: 0 | 1 | 2 | 3;
  /** Sentences for stderr (the state file's problems); the line and code stand alone. */
  warnings?: string[];
}

const NS_PER_S = 1e9;

/** The PTP offset ranges in force: -w/-c when given, else the ones --ptp-warn/--ptp-crit mean. */
function ptpRanges(limits: CheckLimits): { warn: PluginRange; crit: PluginRange } {
  return {
    warn: limits.ptpWarn ?? upperLimit(limits.thresholds.ptpWarnNs / NS_PER_S),
    crit: limits.ptpCrit ?? upperLimit(limits.thresholds.ptpCritNs / NS_PER_S),
  };
}

/**
 * The verdict of the shared rule table. With -w/-c, the rule table runs with its PTP offset rule
 * switched off (infinite limits) and the PTP offset findings come from the ranges instead: the
 * other rules, their messages and the cause merging stay those of evaluateHealth.
 */
export function checkVerdict(snapshot: Snapshot, limits: CheckLimits): Verdict {
  if (!limits.ptpWarn && !limits.ptpCrit) return evaluateHealth(snapshot, limits.thresholds);
  const base = evaluateHealth(snapshot, { ...limits.thresholds, ptpWarnNs: Infinity, ptpCritNs: Infinity });
  const { warn, crit } = ptpRanges(limits);
  const extra: Finding[] = [];
  if (snapshot.ptp.ok) {
    for (const p of snapshot.ptp.data.ports) {
      if (!p.ok || p.offsetFromMasterNs === null) continue;
      const value = Math.abs(p.offsetFromMasterNs) / NS_PER_S;
      const hit = rangeAlerts(crit, value) ? { severity: 'critical' as const, range: crit } : rangeAlerts(warn, value) ? { severity: 'warning' as const, range: warn } : null;
      if (!hit) continue;
      extra.push({
        rule: 'ptp-offset',
        section: 'ptp',
        subject: subjects.ptpPort(p.id),
        topic: 'ptp-offset',
        severity: hit.severity,
        message: `PTP port ${p.id} offset ${formatOffset(p.offsetFromMasterNs, { ascii: true })} from master (range ${formatRange(hit.range)} s)`,
      });
    }
  }
  const findings = [...base.findings, ...extra].sort((a, b) => severityRank[b.severity] - severityRank[a.severity]);
  return { severity: findings[0]?.severity ?? 'ok', findings };
}

// ---------------------------------------------------------------------------------------------
// Perfdata: 'label'=value[UOM];warn;crit;min;max
// ---------------------------------------------------------------------------------------------

interface Perf {
  label: string;
  /** null: the value is undetermined ("U"). */
  value: number | null;
  uom?: 's' | '';
  warn?: string;
  crit?: string;
  min?: number;
  max?: number | null;
}

/** Labels with a space, '=' or a quote are quoted; a quote inside is doubled (the guidelines' rule). */
export function perfLabel(label: string): string {
  return /[\s='|]/.test(label) ? `'${label.replace(/'/g, "''")}'` : label;
}

export function formatPerf(p: Perf): string {
  const value = p.value === null ? 'U' : `${perfNumber(p.value)}${p.uom ?? ''}`;
  const fields = [value, p.warn ?? '', p.crit ?? '', p.min === undefined ? '' : perfNumber(p.min), p.max == null ? '' : perfNumber(p.max)];
  while (fields.length > 1 && fields[fields.length - 1] === '') fields.pop();
  return `${perfLabel(p.label)}=${fields.join(';')}`;
}

/** What is graphed: offsets in seconds, satellites and reachable sources as plain counts. */
export function perfdata(snapshot: Snapshot, limits: CheckLimits): Perf[] {
  const t = limits.thresholds;
  const out: Perf[] = [];
  if (snapshot.ntp.ok) {
    const ntp = snapshot.ntp.data;
    const sync = ntp.sources.find((s) => s.isSyncSource);
    out.push({
      label: 'ntp_offset',
      value: sync?.offsetNs == null ? null : sync.offsetNs / NS_PER_S,
      uom: 's',
      warn: formatRange(upperLimit(t.ntpWarnNs / NS_PER_S)),
      crit: formatRange(upperLimit(t.ntpCritNs / NS_PER_S)),
    });
    out.push({
      label: 'ntp_sources_reachable',
      value: ntp.sources.filter((s) => (s.reachCount ?? 0) > 0).length,
      min: 0,
      max: ntp.sourceCount ?? ntp.sources.length,
    });
  }
  if (snapshot.ptp.ok) {
    const { warn, crit } = ptpRanges(limits);
    const ports = snapshot.ptp.data.ports;
    const keys = uniqueKeys(ports.map((p, i) => idKey(p.id, i)));
    ports.forEach((p, i) => {
      out.push({
        label: `ptp_port${keys[i]}_offset`,
        value: p.ok && p.offsetFromMasterNs !== null ? p.offsetFromMasterNs / NS_PER_S : null,
        uom: 's',
        warn: formatRange(warn),
        crit: formatRange(crit),
      });
    });
  }
  if (snapshot.gnss.ok) {
    // Receiver ids come from the device: only small whole numbers become label parts.
    const receivers = snapshot.gnss.data.receivers;
    const keys = uniqueKeys(receivers.map((r, i) => idKey(r.id, i)));
    receivers.forEach((r, i) => {
      // --min-sats applies to working receivers only (a standby one tracks none), as in the rule.
      const warn = r.status === 'working' ? `${t.minSats}:` : '';
      out.push({ label: `gnss_rx${keys[i]}_satellites`, value: r.satellitesTotal, warn, min: 0 });
    });
  }
  return out;
}

/** One line, whatever the device sent: '|' would start perfdata early, a newline a long output. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/\|/g, '/');
}

/** A finding's words; one that rests on last known data says how old it is: "(stale 5m)". */
function reason(f: TrackedFinding, nowMs: number): string {
  return f.staleDataAt === undefined ? f.message : `${f.message} (stale ${ageText(f.staleDataAt, nowMs)})`;
}

export function formatCheckLine(snapshot: Snapshot, verdict: Verdict | LiveVerdict, limits: CheckLimits, nowMs = Date.now()): string {
  const reasons = verdict.findings.length > 0 ? verdict.findings.map((f) => reason(f, nowMs)).join('; ') : 'all checks passed';
  const perf = perfdata(snapshot, limits).map(formatPerf).join(' ');
  return `SYNCTOP ${statusOf[verdict.severity]} - ${oneLine(reasons)}${perf ? ` | ${perf}` : ''}`;
}

export function checkOutcome(snapshot: Snapshot, limits: CheckLimits, memory?: VerdictMemory): CheckOutcome {
  const at = Date.parse(snapshot.takenAt);
  // With a memory (--state-file), what cannot be read is judged on its last known data, stale.
  const verdict = memory ? memory.evaluateWith(snapshot, at, (s) => checkVerdict(s, limits)) : checkVerdict(snapshot, limits);
  const status = statusOf[verdict.severity];
  return { line: formatCheckLine(snapshot, verdict, limits, at), code: checkExitCodes[status] };
}

export function unknownOutcome(message: string): CheckOutcome {
  return { line: `SYNCTOP UNKNOWN - ${oneLine(message)}`, code: 3 };
}

/** -w / -c as ranges; a bad one names its flag. */
export function parseRangeFlag(text: string | undefined, flag: string): PluginRange | undefined {
  if (text === undefined) return undefined;
  const parsed = parsePluginRange(text);
  if (!parsed.ok) throw new RangeFlagError(`${flag}: ${parsed.message}`);
  return parsed.range;
}

export class RangeFlagError extends Error {}

// ---------------------------------------------------------------------------------------------
// The command: flags -> one poll -> one line. Never throws; every way out is a CheckOutcome.
// ---------------------------------------------------------------------------------------------

export interface CheckFlags extends CommonFlags {
  warning?: string;
  critical?: string;
  stateFile?: string;
  stateMaxAge?: string;
}

/**
 * The flags check reads. Any other flag is bad usage (UNKNOWN): the CLI lets unknown flags
 * through in check mode so that the answer is exit 3, not meow's exit 2. `color` is here because
 * meow fills its default; it changes nothing in a plugin's line.
 */
export const checkFlagNames: ReadonlySet<string> = new Set([
  'timeout', 'ptpPorts', 'header', 'tokenFile', 'cookieFile', 'insecure', 'ca', 'pinSha256', 'color',
  'ptpWarn', 'ptpCrit', 'ntpWarn', 'ntpCrit', 'minSats', 'ptpMaxAge', 'utcMaxDiff', 'frozenAfter', 'warning', 'critical', 'config',
  'stateFile', 'stateMaxAge',
]);

export interface CheckInput {
  /** Positional arguments after `check`. */
  args: string[];
  flags: CheckFlags & Record<string, unknown>;
  env: NodeJS.ProcessEnv;
}

export async function runCheck(input: CheckInput): Promise<CheckOutcome> {
  const [url, ...extra] = input.args;
  const unknown = Object.keys(input.flags).filter((k) => !checkFlagNames.has(k) && given(input.flags[k]));
  if (unknown.length > 0) return unknownOutcome(`check does not take --${kebab(unknown[0]!)}; see synctop --help`);
  if (url === undefined) return unknownOutcome('give the device URL: synctop check URL [--timeout MS] [-w RANGE] [-c RANGE]');
  if (extra.length > 0) return unknownOutcome(`unexpected argument ${quoteArgument(extra[0]!)}; see synctop --help`);
  let config: Config;
  let limits: CheckLimits;
  let stateMaxAgeMs: number;
  try {
    stateMaxAgeMs = parseStateMaxAge(input.flags.stateMaxAge);
    config = resolveTarget(url, input.flags, input.env, { oneShot: true });
    const ptpWarn = parseRangeFlag(input.flags.warning, '-w');
    const ptpCrit = parseRangeFlag(input.flags.critical, '-c');
    limits = { thresholds: config.thresholds, ...(ptpWarn ? { ptpWarn } : {}), ...(ptpCrit ? { ptpCrit } : {}) };
  } catch (err) {
    if (err instanceof UsageError || err instanceof RangeFlagError) return unknownOutcome(err.message);
    return unknownOutcome(`internal error: ${(err as Error)?.message ?? String(err)}`);
  }
  const client = new DeviceClient({ baseUrl: config.connection.url, ...config.connection });
  try {
    // --timeout bounds the whole check, as monitoring systems expect of a plugin.
    const statePath = input.flags.stateFile;
    if (statePath === undefined) {
      const snapshot = await pollOnce(client, { ptpPorts: config.ptpPorts, showSecrets: false, budgetMs: config.connection.timeoutMs });
      return checkOutcome(snapshot, limits);
    }
    const memory = new VerdictMemory();
    const loaded = loadCheckState(statePath, client.baseUrl, Date.now(), stateMaxAgeMs);
    memory.restore(loaded.data);
    const snapshot = await pollOnce(client, { ptpPorts: config.ptpPorts, showSecrets: false, budgetMs: config.connection.timeoutMs });
    const outcome = checkOutcome(snapshot, limits, memory);
    // The memory keeps what this run could not read (an unreachable device changes nothing in
    // it), so the state saved is the last known data, never an empty answer.
    const known = memory.lastKnown();
    const saveWarning = known.sections.length + known.ports.length > 0 ? saveCheckState(statePath, checkStateText(known, client.baseUrl, Date.parse(snapshot.takenAt))) : null;
    // One line about the file: a file ignored as a link or not a regular file is not written either.
    const warnings = loaded.warnings.length > 0 ? loaded.warnings : saveWarning ? [saveWarning] : [];
    return warnings.length > 0 ? { ...outcome, warnings } : outcome;
  } catch (err) {
    return unknownOutcome(`internal error: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    client.destroy();
  }
}

/** meow fills booleans with false and lists with []: those were not given. */
const given = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
