/**
 * The fleet's one event timeline: every device's derived events merged newest first, each
 * labelled with its device. Pure.
 */
import type { MonitorEvent } from '../monitor/events.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import { eventLine } from './events.js';
import type { Glyphs } from './theme.js';
import type { FleetMember } from './fleet-rows.js';

export interface FleetEvent extends MonitorEvent {
  device: string;
}

/** The newest `limit` events of the whole fleet, newest first; equal times keep fleet order. */
export function mergedEvents(members: readonly FleetMember[], limit: number): FleetEvent[] {
  const all: FleetEvent[] = [];
  for (const m of members) for (const e of m.state.events.newestFirst(limit)) all.push({ ...e, device: m.name });
  return all.sort((a, b) => b.at - a.at).slice(0, limit);
}

/** "  14:02:11 ! gm-a  PTP port 0 LOST -> ACQUIRING": the device name padded to `nameWidth`. */
export function fleetEventLine(event: FleetEvent, nameWidth: number, glyphs: Glyphs): Line {
  const [mark, time, symbol, message] = eventLine(event, false, glyphs);
  return [mark!, time!, symbol!, cell(`${event.device.padEnd(nameWidth)} `, 'accent', true), message!];
}
