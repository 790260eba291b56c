/**
 * The API does not list PTP ports: ask ids and keep those that answer. 40004 `ptp.not.found`
 * means "no slave port with that id". Requests go one at a time: the device is a small box.
 */
import type { ApiError, Result } from '../api/errors.js';
import type { RawPtpSlave } from '../api/schemas.js';

export type PtpPortSelection = 'auto' | number[];
export const AUTO_PORT_IDS = [0, 1, 2, 3, 4, 5, 6, 7];

export interface PortResult {
  id: number;
  result: Result<RawPtpSlave>;
}

export const isNotFound = (r: Result<unknown>) => !r.ok && r.error.kind === 'device' && r.error.code === '40004';

/**
 * Polls the given port ids in turn. When the device stops answering, the remaining ids are not
 * asked (they share the failure), so an outage costs one timeout, not one per port.
 */
export async function pollPorts(ask: (id: number) => Promise<Result<RawPtpSlave>>, ids: number[]): Promise<PortResult[]> {
  const out: PortResult[] = [];
  for (const id of ids) {
    const last = out[out.length - 1];
    const result = last && !last.result.ok && last.result.error.kind === 'network' ? last.result : await ask(id);
    out.push({ id, result });
  }
  return out;
}

/**
 * Turns per-port answers into the section's result. When every port failed the same way for a
 * reason that is not the port's own (network, auth, protocol), the section as a whole failed;
 * otherwise it is a list in which each port carries its own result. With auto discovery the
 * ports that are not slave ports (40004) are left out.
 */
export function ptpSectionResult(results: PortResult[], discovering: boolean): Result<PortResult[]> {
  const kept = discovering ? results.filter((p) => !isNotFound(p.result)) : results;
  const errors = kept.map((p) => (p.result.ok ? null : p.result.error));
  const first = errors[0];
  if (first && first.kind !== 'device' && errors.every((e): e is ApiError => e !== null && e.kind === first.kind)) {
    return { ok: false, error: first };
  }
  return { ok: true, data: kept };
}

/** Ids worth polling from now on: those that answered anything but 40004 (and did answer). */
export function discoveredIds(results: PortResult[]): number[] {
  return results.filter((p) => !isNotFound(p.result)).map((p) => p.id);
}

/** Discovery is conclusive only when no answer was lost to the network. */
export function discoveryComplete(results: PortResult[]): boolean {
  return results.every((p) => p.result.ok || p.result.error.kind !== 'network');
}
