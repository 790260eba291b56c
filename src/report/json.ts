/** --json: the snapshot contract, one document; and the published JSON Schema of it. */
import { snapshotJsonSchema, type Snapshot } from '../model/snapshot.js';
import { evaluateHealth, type Thresholds } from '../monitor/health.js';
import { healthJson } from '../monitor/verdict-memory.js';

/** The snapshot with its health verdict (`health`: the rule table's, as `check` reads it). */
export function snapshotJson(snapshot: Snapshot, thresholds?: Thresholds): string {
  const withHealth: Snapshot = { ...snapshot, health: snapshot.health ?? healthJson(evaluateHealth(snapshot, thresholds)) };
  return `${JSON.stringify(withHealth, null, 2)}\n`;
}

export function schemaJson(): string {
  return `${JSON.stringify(snapshotJsonSchema(), null, 2)}\n`;
}
