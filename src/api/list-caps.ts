/**
 * How many items of each list a device sends are kept. The API document shows at most 10 NTP
 * sources and a few receivers, but 100,000 sources fit in a 1 MiB answer, and kept whole they
 * took the live monitor to 1.4 GB and the exporter to 50,000 series for one device.
 *
 * Lists are cut before the schema check, so the rest of a flooded answer is never even looked
 * at; what was cut is kept beside the data (the snapshot's optional `capped`) and said by every
 * output: "device sent 100,000 NTP sources; showing the first 256".
 */
import type { CappedList } from '../model/snapshot.js';
import type { OperationName } from './endpoints.js';

/** The most items kept per list. Generous for any real device; one table, read by every cut. */
export const LIST_CAPS = {
  ntpSources: 256,
  gnssReceivers: 64,
  /** Per receiver: entries of its `signal` list (one per constellation and band). */
  gnssSignals: 64,
  alarmRecipients: 64,
  /** PTP ports are asked for one by one, so only a recording can hold more. */
  ptpPorts: 256,
  /** The cut lists themselves, as read back from a recording. */
  cappedLists: 16,
} as const;

/** The first `max` items of `list`, noting in `capped` when there were more. */
export function capList<T>(list: readonly T[], max: number, what: string, capped: CappedList[]): T[] {
  if (list.length <= max) return list as T[];
  capped.push({ list: what, sent: list.length, kept: max });
  return list.slice(0, max);
}

/** `value[key]` cut to `max` items when it is an array longer than that; other values pass as they are. */
function capField(value: unknown, key: string, max: number, what: string, capped: CappedList[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const list = (value as Record<string, unknown>)[key];
  if (!Array.isArray(list) || list.length <= max) return value;
  return { ...value, [key]: capList(list, max, what, capped) };
}

/** Per operation: the device's `data` with its lists cut, before the schema sees it. */
const cutters: Record<OperationName, (data: unknown, capped: CappedList[]) => unknown> = {
  ntp: (data, capped) => capField(data, 'sources', LIST_CAPS.ntpSources, 'NTP sources', capped),
  gnss: (data, capped) => {
    // An array of receivers, or one bare receiver object (both shapes are accepted).
    const receivers = Array.isArray(data) ? capList(data, LIST_CAPS.gnssReceivers, 'GNSS receivers', capped) : [data];
    const cut = receivers.map((r, i) => capField(r, 'signal', LIST_CAPS.gnssSignals, `signal entries of GNSS receiver ${i}`, capped));
    return Array.isArray(data) ? cut : cut[0];
  },
  alarm: (data, capped) => capField(data, 'recipientEmails', LIST_CAPS.alarmRecipients, 'alarm mail recipients', capped),
  ptp: (data) => data,
};

/** The answer's data with every list cut to its cap, and what was cut. */
export function capDeviceLists(op: OperationName, data: unknown): { data: unknown; capped: CappedList[] } {
  const capped: CappedList[] = [];
  return { data: cutters[op](data, capped), capped };
}
