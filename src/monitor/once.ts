/**
 * One poll of every operation, for --once, --json and check. Requests go one after another (the
 * device is small); when the device does not answer at all, the remaining operations are not
 * asked, so an unreachable device fails within one timeout, not four.
 */
import type { DeviceClient } from '../api/client.js';
import type { Result } from '../api/errors.js';
import { buildSnapshot } from '../model/build.js';
import type { Snapshot } from '../model/snapshot.js';
import { AUTO_PORT_IDS, pollPorts, ptpSectionResult, type PortResult, type PtpPortSelection } from './ptp-discovery.js';

export async function pollOnce(
  client: DeviceClient,
  opts: { ptpPorts: PtpPortSelection; showSecrets: boolean; now?: () => Date },
): Promise<Snapshot> {
  const ntp = await client.call('ntp');
  const down = !ntp.ok && ntp.error.kind === 'network' ? ntp : null;
  const gnss = down ?? (await client.call('gnss'));
  const alarm = down ?? (await client.call('alarm'));
  let ptp: Result<PortResult[]>;
  if (down) {
    ptp = down;
  } else {
    const discovering = opts.ptpPorts === 'auto';
    ptp = ptpSectionResult(await pollPorts(client, discovering ? AUTO_PORT_IDS : (opts.ptpPorts as number[])), discovering);
  }
  return buildSnapshot(
    { device: client.baseUrl, takenAt: opts.now?.() ?? new Date(), ntp, gnss, alarm, ptp },
    { showSecrets: opts.showSecrets },
  );
}

/** --once/--json exit code: 1 when some operation could not be read; device-side errors count as answers. */
export function snapshotExitCode(snapshot: Snapshot): 0 | 1 {
  const sections = [snapshot.ntp, snapshot.gnss, snapshot.ptp, snapshot.alarm];
  return sections.some((s) => !s.ok && s.error.kind !== 'device') ? 1 : 0;
}
