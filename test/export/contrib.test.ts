/**
 * The shipped Prometheus files (contrib/prometheus/): promtool accepts the scrape config and the
 * alert rules and runs the rules' unit tests, the Grafana dashboard is well-formed, and every metric the rules and the
 * dashboard name is one the exporter really emits (read from a running exporter's /metrics and
 * /probe, static fleet included). No skip: without promtool this fails (CI installs Prometheus).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { startExporter } from '../../src/export/exporter.js';
import { TargetBook } from '../../src/export/targets.js';
import { startSimulator } from '../../src/sim/server.js';
import { root } from '../e2e/tmux.js';

const dir = join(root, 'contrib/prometheus');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

function promtool(args: string[]): string {
  try {
    return execFileSync('promtool', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') throw new Error("promtool was not found: install Debian's prometheus package (.ci/run does)");
    throw new Error(`promtool ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

interface Dashboard {
  panels: { title: string; type: string; gridPos: object; targets: { expr: string }[] }[];
  templating: { list: { name: string; query?: unknown }[] };
}

/** Metric names a PromQL text refers to (the exporter's families, process and Node.js ones). */
const metricNames = (promql: string) => promql.match(/\b(?:synctop|process|nodejs)_[a-z0-9_]+\b/g) ?? [];

async function emittedNames(): Promise<Set<string>> {
  const sim = await startSimulator({ scenario: 'healthy' });
  const commandLine = resolveConfig(sim.url, { timeout: 2000 }, {}, { oneShot: true });
  const e = await startExporter({
    host: '127.0.0.1',
    port: 0,
    devices: [{ baseUrl: sim.url, timeoutMs: 2000 }],
    intervalMs: 500,
    ptpPorts: 'auto',
    spreadMs: 0,
    targets: new TargetBook({ commandLine, urls: [sim.url], patterns: [], profiles: new Map() }),
  });
  try {
    const probe = await (await fetch(`${e.url}/probe?target=${encodeURIComponent(sim.url)}`)).text();
    const self = await (await fetch(`${e.url}/metrics`)).text();
    // prom-client writes HELP/TYPE for every family, with or without samples.
    return new Set([...parsePrometheusTextFormat(probe), ...parsePrometheusTextFormat(self)].map((f) => f.name));
  } finally {
    await e.close();
    await sim.close();
  }
}

describe('contrib/prometheus', () => {
  it('promtool accepts the scrape config and the alert rules', () => {
    expect(promtool(['check', 'config', join(dir, 'prometheus.yml')])).toMatch(/SUCCESS/);
    expect(promtool(['check', 'rules', join(dir, 'synctop-rules.yml')])).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('the alert rules fire on the series they are meant for (promtool test rules)', () => {
    expect(promtool(['test', 'rules', join(dir, 'synctop-rules.test.yml')])).toMatch(/SUCCESS/);
  });

  it('the scrape config turns the target into the probe parameter and the instance label', () => {
    const config = read('prometheus.yml');
    expect(config).toContain('metrics_path: /probe');
    expect(config).toMatch(/source_labels: \[__address__\]\s+target_label: __param_target/);
    expect(config).toMatch(/source_labels: \[__param_target\]\s+target_label: instance/);
    expect(config).toMatch(/source_labels: \[__address__\]\s+target_label: __param_profile/);
  });

  it('the dashboard is well-formed and every metric in it and in the rules is one the exporter emits', async () => {
    const dashboard = JSON.parse(read('grafana/synctop-fleet.json')) as Dashboard;
    expect(dashboard.panels.length).toBeGreaterThan(5);
    const queries: string[] = [];
    for (const p of dashboard.panels) {
      expect(p.title, 'a panel has a title').toBeTruthy();
      expect(p.gridPos).toBeDefined();
      expect(p.targets.length, `${p.title} has a query`).toBeGreaterThan(0);
      for (const t of p.targets) queries.push(t.expr);
    }
    queries.push(JSON.stringify(dashboard.templating));
    const rules = read('synctop-rules.yml');
    const exprs = [...rules.matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1]!);
    expect(exprs.length).toBeGreaterThanOrEqual(7);

    const emitted = await emittedNames();
    const used = new Set([...queries, ...exprs].flatMap(metricNames));
    expect(used.size).toBeGreaterThan(10);
    for (const name of used) expect(emitted.has(name), `${name} is emitted by the exporter`).toBe(true);
  });
});
