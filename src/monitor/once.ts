/**
 * One poll of every operation, for --once, --json and check. Requests go one after another (the
 * device is small). Only when the device cannot be connected to at all (refused, unreachable,
 * DNS, connect timeout, TLS handshake) are the remaining operations not asked, so an unreachable
 * device fails within one timeout, not four; they then say "not asked" and why, never another
 * operation's error. One operation that stalls or fails on an open connection does not stop the
 * others: they are asked within what is left of the budget.
 */
import type { DeviceClient } from '../api/client.js';
import type { OperationName, RawData } from '../api/endpoints.js';
import type { ApiError, Result } from '../api/errors.js';
import { buildSnapshot } from '../model/build.js';
import type { Snapshot } from '../model/snapshot.js';
import { AUTO_PORT_IDS, pollPorts, ptpSectionResult, type PortResult, type PtpPortSelection } from './ptp-discovery.js';

export async function pollOnce(
  client: DeviceClient,
  opts: {
    ptpPorts: PtpPortSelection;
    showSecrets: boolean;
    now?: () => Date;
    /**
     * The whole poll's time budget (check: a monitoring system kills a plugin that overruns).
     * Each request gets at most half of what is left of it; what no time is left for is not asked.
     */
    budgetMs?: number;
  },
): Promise<Snapshot> {
  const started = performance.now();
  /** Set once the device refused a connection: nothing more is asked. */
  let unconnectable = false;
  const ask = async <K extends OperationName>(name: K, params: { id?: number } = {}): Promise<Result<RawData<K>>> => {
    if (unconnectable) return { ok: false, error: notAsked() };
    let result: Result<RawData<K>>;
    if (opts.budgetMs === undefined) {
      result = await client.call(name, params);
    } else {
      const left = Math.ceil(opts.budgetMs - (performance.now() - started));
      if (left < MIN_REQUEST_MS) return { ok: false, error: budgetSpent(opts.budgetMs) };
      // At most half of what is left: one stalled operation leaves time to ask the others.
      result = await client.call(name, params, { timeoutMs: Math.max(MIN_REQUEST_MS, Math.ceil(left / 2)) });
    }
    if (!result.ok && result.error.kind === 'network' && result.error.connected === false) unconnectable = true;
    return result;
  };
  const ntp = await ask('ntp');
  const gnss = await ask('gnss');
  const alarm = await ask('alarm');
  const discovering = opts.ptpPorts === 'auto';
  const ptp: Result<PortResult[]> = unconnectable
    ? { ok: false, error: notAsked() }
    : ptpSectionResult(await pollPorts((id) => ask('ptp', { id }), discovering ? AUTO_PORT_IDS : (opts.ptpPorts as number[])), discovering);
  return buildSnapshot(
    { device: client.baseUrl, takenAt: opts.now?.() ?? new Date(), ntp, gnss, alarm, ptp },
    { showSecrets: opts.showSecrets },
  );
}

/** Below this, a request could not even connect: it is not sent. */
const MIN_REQUEST_MS = 50;

function budgetSpent(budgetMs: number): ApiError {
  return { kind: 'network', code: 'NOT_ASKED', message: `not asked: slower answers used up the ${budgetMs} ms --timeout` };
}

function notAsked(): ApiError {
  return { kind: 'network', code: 'NOT_ASKED', message: 'not asked: the device did not accept a connection', connected: false };
}

/** --once/--json exit code: 1 when some operation could not be read; device-side errors count as answers. */
export function snapshotExitCode(snapshot: Snapshot): 0 | 1 {
  const sections = [snapshot.ntp, snapshot.gnss, snapshot.ptp, snapshot.alarm];
  return sections.some((s) => !s.ok && s.error.kind !== 'device') ? 1 : 0;
}
