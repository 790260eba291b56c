/** Simulated devices for the exporter tests, each closed after its test (with anything else registered). */
import { afterEach } from 'vitest';
import { startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';

export const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export async function sims(...opts: SimOptions[]): Promise<Simulator[]> {
  const started = await Promise.all(opts.map((o) => startSimulator({ scenario: 'healthy', ...o })));
  for (const s of started) cleanups.push(() => s.close());
  return started;
}
