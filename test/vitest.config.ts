import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Fails the run on any unhandled rejection or error, wherever it comes from.
    dangerouslyIgnoreUnhandledErrors: false,
    // The binary keeps its live view live whatever CI says (cli.tsx clears CI before Ink loads);
    // tests load Ink directly, and under CI=true Ink holds every frame back until exit.
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
    pool: 'forks',
    // Most tests wait on timers, sockets and tmux rather than compute: more workers than cores
    // keeps the suite short on a 2-core machine.
    maxWorkers: 3,
  },
});
