import { describe, expect, it } from 'vitest';
import { normalizeGnss } from '../../src/model/gnss.js';
import { lookupTable } from '../../src/model/lookup.js';
import { parseLastRxSeconds, parseQuantityNs } from '../../src/model/units.js';
import { evaluateHealth } from '../../src/monitor/health.js';
import { ptpSyncStates, styleOf } from '../../src/view/theme.js';
import { edited, healthy } from '../monitor/snapshots.js';

describe('tables looked up by device strings', () => {
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])('"%s" is not a key', (key) => {
    expect(lookupTable({ a: 1 })[key]).toBeUndefined();
    expect(styleOf(ptpSyncStates, key)).toEqual({ token: 'muted', symbol: '?', word: key });
    expect(parseQuantityNs(`5${key}`)).toBeNull();
    expect(parseLastRxSeconds(`5${key}`)).toBeNull();
    const gnss = normalizeGnss([{ id: 0, ppsValid: key, signal: [{ type: key, count: 3 }] }]);
    expect(gnss.receivers[0]!.ppsValid).toBeNull();
    expect(gnss.receivers[0]!.satellitesTotal).toBeNull();
    const v = evaluateHealth(edited((s) => void (s.ptp.ok && (s.ptp.data.ports[0]!.syncState = key)), healthy()));
    expect(v.severity).toBe('warning');
  });
});
