/**
 * One poll of every operation, for --once, --json and check. Requests go one after another (the
 * device is small); when the device does not answer at all, the remaining operations are not
 * asked, so an unreachable device fails within one timeout, not four.
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
     * Each request gets what is left of it; what no time is left for is not asked.
     */
    budgetMs?: number;
  },
): Promise<Snapshot> {
  const started = performance.now();
  const ask = <K extends OperationName>(name: K, params: { id?: number } = {}): Promise<Result<RawData<K>>> => {
    if (opts.budgetMs === undefined) return client.call(name, params);
    const left = Math.ceil(opts.budgetMs - (performance.now() - started));
    if (left < MIN_REQUEST_MS) return Promise.resolve({ ok: false, error: budgetSpent(opts.budgetMs) });
    return client.call(name, params, { timeoutMs: left });
  };
  const ntp = await ask('ntp');
  const down = !ntp.ok && ntp.error.kind === 'network' ? ntp : null;
  const gnss = down ?? (await ask('gnss'));
  const alarm = down ?? (await ask('alarm'));
  let ptp: Result<PortResult[]>;
  if (down) {
    ptp = down;
  } else {
    const discovering = opts.ptpPorts === 'auto';
    ptp = ptpSectionResult(await pollPorts((id) => ask('ptp', { id }), discovering ? AUTO_PORT_IDS : (opts.ptpPorts as number[])), discovering);
  }
  return buildSnapshot(
    { device: client.baseUrl, takenAt: opts.now?.() ?? new Date(), ntp, gnss, alarm, ptp },
    { showSecrets: opts.showSecrets },
  );
}

/** Below this, a request could not even connect: it is not sent. */
const MIN_REQUEST_MS = 50;

function budgetSpent(budgetMs: number): ApiError {
  return { kind: 'network', code: 'TIMEOUT', message: `not asked: slower answers used up the ${budgetMs} ms --timeout` };
}

/** --once/--json exit code: 1 when some operation could not be read; device-side errors count as answers. */
export function snapshotExitCode(snapshot: Snapshot): 0 | 1 {
  const sections = [snapshot.ntp, snapshot.gnss, snapshot.ptp, snapshot.alarm];
  return sections.some((s) => !s.ok && s.error.kind !== 'device') ? 1 : 0;
}
