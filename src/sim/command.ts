/**
 * `synctop simulate` and `synctop --demo`: start the simulated device and say where it is.
 * The URL is the first line of stdout so scripts can read it (`head -1`); the caller keeps the
 * process alive and closes the simulator on SIGINT/SIGTERM.
 */
import { parseFaultSpec } from './faults.js';
import { isScenarioName, scenarioNames, scenarios, type ScenarioName } from './scenarios.js';
import { startSimulator, type Simulator } from './server.js';

export interface SimulateCommandOptions {
  port?: number;
  scenario?: string;
  faults?: string;
  stdout: NodeJS.WritableStream;
}

const DEFAULT_SCENARIO: ScenarioName = 'healthy';

function checkScenario(name: string | undefined): ScenarioName {
  const chosen = name ?? DEFAULT_SCENARIO;
  if (!isScenarioName(chosen)) {
    throw new Error(`Unknown scenario "${chosen}": choose one of ${scenarioNames.join(', ')}.`);
  }
  return chosen;
}

function checkFaults(spec: string | undefined): void {
  if (spec === undefined) return;
  const parsed = parseFaultSpec(spec);
  if (!parsed.ok) {
    throw new Error(
      `Cannot use --faults "${spec}": ${parsed.message}. Write op=fault items separated by commas, op one of ntp, gnss, alarm, ptp, all (for example ntp=stall-headers,ptp=device:40004 or reboot:10).`,
    );
  }
}

export async function runSimulateCommand(opts: SimulateCommandOptions): Promise<Simulator> {
  const scenario = checkScenario(opts.scenario);
  checkFaults(opts.faults);
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65_535)) {
    throw new Error(`Cannot listen on port ${opts.port}: give a whole number from 0 to 65535 (0 picks a free port).`);
  }
  const sim = await startSimulator({ port: opts.port ?? 0, scenario, faults: opts.faults });
  opts.stdout.write(`${sim.url}\n`);
  const faults = opts.faults ? `; faults: ${opts.faults}` : '';
  opts.stdout.write(`simulated device, scenario ${scenario}: ${scenarios[scenario].summary}${faults}\n`);
  return sim;
}

/** The in-process device behind `synctop --demo[=SCENARIO]`, on a free loopback port. */
export async function startDemo(scenario?: string): Promise<Simulator> {
  return startSimulator({ port: 0, scenario: checkScenario(scenario) });
}
