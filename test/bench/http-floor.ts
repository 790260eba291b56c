/**
 * The HTTP floor beside the fleet view (test/bench/fleet.ts): what polling the fleet costs at the
 * least, with no synctop code in the process. Built by the benchmark with esbuild without bundling
 * its packages (undici resolves from node_modules), run with plain node, told its plan over IPC:
 *
 * - one undici Pool per device, one keep-alive connection each (as the device client has);
 * - every request of the plan once per interval to every device, all of them spread evenly over
 *   the interval (each device's requests an interval/requests apart, the devices interleaved);
 * - the same POSTs with the same headers and bodies; each answer's body read and JSON.parse'd,
 *   and nothing else done with it.
 *
 * Asked "count", it answers how many requests it made and how many failed.
 */
import { Pool } from 'undici';

export interface FloorPlan {
  urls: string[];
  /** One cycle of one device: path and JSON body of each request. */
  requests: { path: string; body: string }[];
  intervalMs: number;
}

export interface FloorCount {
  requests: number;
  failed: number;
}

const headers = { 'content-type': 'application/json', accept: 'application/json' };

function run(plan: FloorPlan): void {
  const pools = plan.urls.map((url) => new Pool(url, { connections: 1, pipelining: 1 }));
  const count: FloorCount = { requests: 0, failed: 0 };
  const perCycle = pools.length * plan.requests.length;
  const started = performance.now();
  let slot = 0;

  const ask = async (pool: Pool, request: FloorPlan['requests'][number]) => {
    count.requests++;
    try {
      const res = await pool.request({ path: request.path, method: 'POST', headers, body: request.body });
      JSON.parse(await res.body.text());
    } catch {
      count.failed++;
    }
  };

  // Slot k of a cycle: request k / devices of device k % devices, at k / perCycle of the interval.
  const next = () => {
    const k = slot % perCycle;
    void ask(pools[k % pools.length]!, plan.requests[Math.floor(k / pools.length)]!);
    slot++;
    setTimeout(next, Math.max(0, started + (slot * plan.intervalMs) / perCycle - performance.now()));
  };
  next();

  process.on('message', (m: unknown) => {
    if (m === 'count') process.send?.({ count: { ...count } });
  });
}

process.once('message', (plan: unknown) => run(plan as FloorPlan));
// Its benchmark gone, it goes too.
process.once('disconnect', () => process.exit(0));
