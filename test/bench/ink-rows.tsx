/**
 * The floor for synctop's idle cost: a bare Ink 6 app that re-renders 28 coloured rows once a
 * second (what a live monitor's per-second age tick costs Ink itself, with nothing of synctop's).
 * Built by the benchmark like hello.tsx (Ink and React unbundled, from node_modules), run with
 * plain node in a 100x30 pseudo-terminal beside synctop.
 *
 * Given a polling plan in INK_ROWS_POLL (JSON: base URL, the requests of one cycle, interval), the
 * same app also makes synctop's requests to a device: one undici Pool with one keep-alive
 * connection (as the device client has), one loop per request, each asking again an interval
 * after its answer, the answer's body JSON.parse'd and nothing else done with it. That is the
 * floor of the idle scenario itself (a monitor at `--interval 1` must at least render and ask),
 * with no synctop code in it.
 */
import { Box, Text, render } from 'ink';
import { useEffect, useState } from 'react';
import { Pool } from 'undici';

const COLORS = ['green', 'yellow', 'cyan', 'red', 'magenta', 'blue', 'white'] as const;
const ROWS = 28;

export interface PollPlan {
  url: string;
  requests: { path: string; body: string }[];
  intervalMs: number;
}

function Rows() {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Box flexDirection="column">
      {Array.from({ length: ROWS }, (_, i) => (
        <Box key={i}>
          <Text color={COLORS[i % COLORS.length]}>{`row ${String(i + 1).padStart(2)}`}</Text>
          <Text>{`  source 10.20.0.${i + 1}  offset ${((i * 37 + tick) % 997) - 498} us  `}</Text>
          <Text dimColor>{`${tick + i}s ago`}</Text>
        </Box>
      ))}
    </Box>
  );
}

function poll(plan: PollPlan): void {
  const pool = new Pool(plan.url, { connections: 1, pipelining: 1 });
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  plan.requests.forEach((request, i) => {
    const ask = async () => {
      try {
        const res = await pool.request({ path: request.path, method: 'POST', headers, body: request.body });
        JSON.parse(await res.body.text());
      } catch {
        // A floor has nothing to say about a failed request; the next one is asked all the same.
      }
      setTimeout(ask, plan.intervalMs);
    };
    // Spread over the interval, as the monitor's loops are.
    setTimeout(ask, (i * plan.intervalMs) / plan.requests.length);
  });
}

render(<Rows />, { patchConsole: false });
if (process.env.INK_ROWS_POLL) poll(JSON.parse(process.env.INK_ROWS_POLL) as PollPlan);
