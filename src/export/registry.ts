/**
 * The prom-client side of the exporter: a Registry of its own (never the global one, so nothing
 * else in the process leaks into /metrics) with one Gauge per row of the metric table. Each
 * render replaces every series by the samples given: a source or port that disappeared from the
 * device disappears from /metrics at the next scrape, and nothing grows without bound.
 */
import { Gauge, Registry } from 'prom-client';
import { fleetMetrics, metricDefs, type MetricName, type Sample } from './metrics.js';

export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly gauges: Partial<Record<MetricName, Gauge>>;
  /** Renders run one at a time: a render resets every gauge before it fills them. */
  private last: Promise<unknown> = Promise.resolve();

  /** `names`: the families this registry serves (the static fleet's by default). */
  constructor(names: readonly MetricName[] = fleetMetrics) {
    const entries = names.map((name) => {
      const def = metricDefs[name];
      return [name, new Gauge({ name, help: def.help, labelNames: [...def.labels], registers: [this.registry] })] as const;
    });
    this.gauges = Object.fromEntries(entries);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text for exactly these samples. */
  render(samples: () => Iterable<Sample>): Promise<string> {
    const run = this.last.then(() => {
      for (const gauge of Object.values(this.gauges)) gauge.reset();
      for (const s of samples()) {
        const gauge = this.gauges[s.name];
        if (!gauge) throw new Error(`${s.name} is not served by this registry`);
        gauge.set(s.labels, s.value);
      }
      return this.registry.metrics();
    });
    this.last = run.catch(() => undefined);
    return run;
  }
}
