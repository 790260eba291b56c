/**
 * A simulated site for the fleet tests: five devices over real HTTP, each a profile of a config
 * file (alpha healthy, bravo PTP acquiring, charlie GNSS antenna open, delta stalled, echo on
 * another grandmaster).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimOptions, type Simulator } from '../../src/sim/server.js';

export const siteDevices: Record<string, SimOptions> = {
  alpha: { scenario: 'healthy' },
  bravo: { scenario: 'ptp-acquiring' },
  charlie: { scenario: 'gnss-antenna-open' },
  delta: { scenario: 'healthy', faults: 'all=stall-headers' },
  echo: { scenario: 'other-gm' },
};

export interface Site {
  sims: Simulator[];
  /** A config file naming every device as a profile. */
  configPath: string;
  urls: Record<string, string>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const names = Object.keys(siteDevices);
  const sims = await Promise.all(names.map((n) => startSimulator(siteDevices[n]!)));
  const urls = Object.fromEntries(names.map((n, i) => [n, sims[i]!.url]));
  const dir = mkdtempSync(join(tmpdir(), 'synctop-fleet-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ devices: Object.fromEntries(names.map((n) => [n, { url: urls[n] }])) }), { mode: 0o600 });
  return { sims, configPath, urls, close: async () => void (await Promise.all(sims.map((s) => s.close()))) };
}
