/**
 * Lists the device sent longer than synctop keeps (api/list-caps.ts cuts them): how section
 * data carries them, and the one sentence every output says about them.
 */
import type { CappedList } from './snapshot.js';

const grouped = new Intl.NumberFormat('en-US');

/** A count with thousands separators: 100,000. */
export const formatCount = (n: number): string => grouped.format(n);

/** "device sent 100,000 NTP sources; showing the first 256" */
export function cappedNotice(c: CappedList): string {
  return `device sent ${formatCount(c.sent)} ${c.list}; showing the first ${formatCount(c.kept)}`;
}

/** Section data with what was cut, when something was; otherwise the data as it is. */
export function withCapped<T>(data: T, capped: readonly CappedList[] | undefined): T {
  return capped && capped.length > 0 ? ({ ...(data as object), capped: [...capped] } as T) : data;
}
