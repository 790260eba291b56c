/**
 * One cycle of a monitor's requests to one simulated device: each operation once, PTP once per
 * slave port of the scenario. What the HTTP floors (http-floor.ts, and ink-rows.tsx when it polls)
 * are told to ask, so they ask what synctop asks, no more and no less.
 */
import { operations, type OperationName } from '../../src/api/endpoints.js';
import { slavePortIds, type ScenarioName } from '../../src/sim/scenarios.js';

export function requestCycle(scenario: ScenarioName): { path: string; body: string }[] {
  const request = (name: OperationName, params: { id?: number } = {}) => ({ path: operations[name].path, body: JSON.stringify(operations[name].body(params)) });
  return [request('ntp'), request('gnss'), request('alarm'), ...slavePortIds(scenario).map((id) => request('ptp', { id }))];
}
