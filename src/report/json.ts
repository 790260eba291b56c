/** --json: the snapshot contract, one document; and the published JSON Schema of it. */
import { snapshotJsonSchema, type Snapshot } from '../model/snapshot.js';

export function snapshotJson(snapshot: Snapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

export function schemaJson(): string {
  return `${JSON.stringify(snapshotJsonSchema(), null, 2)}\n`;
}
