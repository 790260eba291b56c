/**
 * The Prometheus exporter's HTTP server.
 *
 * - `/probe?target=URL` or `/probe?profile=NAME`: one device, asked now within the scrape's
 *   budget (the multi-target pattern; see probe.ts and targets.ts).
 * - `/metrics`: the exporter's own metrics, and, when device URLs were given, the static fleet:
 *   a Fleet polling those devices on its own schedule, answered from the latest results without
 *   waiting on any device.
 * - `/` a small page with links; every other path is 404.
 *
 * The server itself is bounded against slow or greedy clients: header and request deadlines, a
 * cap on connections in total and per client address, a cap on header size and count.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ClientOptions } from '../api/client.js';
import { Fleet } from '../monitor/fleet.js';
import type { Thresholds } from '../monitor/health.js';
import type { PtpPortSelection } from '../monitor/ptp-discovery.js';
import { deviceSamples, metricDefs, type MetricName, type Sample } from './metrics.js';
import { ProbeService } from './probe.js';
import { MetricsRegistry } from './registry.js';
import { ExporterMetrics } from './self-metrics.js';
import { TargetBook } from './targets.js';

/** Limits of the HTTP server (every one of them a defence against a client, not a tuning knob). */
export interface HttpLimits {
  /** A client must send its request headers within this. */
  headersTimeoutMs: number;
  /** ... and its whole request within this. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
  maxConnections: number;
  /** One client address may hold at most this many connections, so one host cannot starve the others. */
  maxConnectionsPerAddress: number;
  maxHeaderBytes: number;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveMs: 5_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 256,
  maxHeaderBytes: 8 * 1024,
};

/** Subtracted from Prometheus' scrape timeout, so the answer is on its way before Prometheus gives up. */
export const SCRAPE_MARGIN_MS = 500;
/** The longest probe budget a scrape header can ask for: the bound of --timeout. */
export const MAX_PROBE_BUDGET_MS = 10 * 60_000;

export interface ExporterOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The static fleet, one per device (baseUrl is the device label); empty for /probe only. */
  devices: readonly ClientOptions[];
  intervalMs: number;
  ptpPorts: PtpPortSelection;
  thresholds?: Thresholds;
  maxInFlight?: number;
  /** Starts spread over this long (default one interval). */
  spreadMs?: number;
  /** Who may be probed at /probe; without it every probe is refused. */
  targets?: TargetBook;
  maxTargets?: number;
  maxProbes?: number;
  http?: Partial<HttpLimits>;
}

export interface Exporter {
  /** http://host:port, without a path. */
  url: string;
  fleet: Fleet;
  probes: ProbeService;
  /** What /metrics answers now. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

const PAGE = (devices: number) =>
  `<!DOCTYPE html>\n<html><head><title>synctop exporter</title></head><body><h1>synctop exporter</h1>` +
  `<p><a href="/metrics">Metrics</a>: the exporter's own${devices > 0 ? ` and ${devices} polled device${devices === 1 ? '' : 's'}` : ''}. ` +
  `Probe one device with <code>/probe?target=URL</code> or <code>/probe?profile=NAME</code>.</p></body></html>\n`;

export function fleetSamples(fleet: Fleet): () => Iterable<Sample> {
  return function* () {
    for (const d of fleet.devices) {
      yield* deviceSamples({ device: d.url, snapshot: d.snapshot, polled: d.polled, durationMs: d.durationMs, lastPollAt: d.lastPollAt, verdict: Fleet.verdict(d) });
    }
  };
}

/**
 * The probe's budget from Prometheus' X-Prometheus-Scrape-Timeout-Seconds header, less a margin
 * (at most a quarter of it), bounded; undefined without the header; an error sentence for a
 * header that is not a plain positive number of seconds.
 */
export function scrapeBudgetMs(header: string | string[] | undefined): { ok: true; ms: number | undefined } | { ok: false; message: string } {
  if (header === undefined) return { ok: true, ms: undefined };
  const text = Array.isArray(header) ? header[0]! : header;
  const seconds = /^\s*\d{1,7}(\.\d{1,9})?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds > 0)) return { ok: false, message: 'X-Prometheus-Scrape-Timeout-Seconds must be a positive number of seconds.' };
  const ms = Math.min(seconds * 1000, MAX_PROBE_BUDGET_MS);
  return { ok: true, ms: Math.round(ms - Math.min(SCRAPE_MARGIN_MS, ms / 4)) };
}

/** The query parameters /probe reads; any other, or one given twice, is a mistake worth a 400. */
function probeQuery(params: URLSearchParams): { ok: true; target?: string; profile?: string } | { ok: false; message: string } {
  const out: { target?: string; profile?: string } = {};
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (key !== 'target' && key !== 'profile') return { ok: false, message: `/probe takes target=URL or profile=NAME, not "${key.slice(0, 40)}".` };
    if (seen.has(key)) return { ok: false, message: `give ${key} once.` };
    seen.add(key);
    out[key] = value;
  }
  return { ok: true, ...out };
}

export async function startExporter(opts: ExporterOptions): Promise<Exporter> {
  const limits: HttpLimits = { ...defaultHttpLimits, ...opts.http };
  const fleet = new Fleet(opts.devices, {
    intervalMs: opts.intervalMs,
    ptpPorts: opts.ptpPorts,
    ...(opts.thresholds ? { thresholds: opts.thresholds } : {}),
    ...(opts.maxInFlight !== undefined ? { maxInFlight: opts.maxInFlight } : {}),
    ...(opts.spreadMs !== undefined ? { spreadMs: opts.spreadMs } : {}),
  });
  const probes = new ProbeService({
    ...(opts.maxTargets !== undefined ? { maxTargets: opts.maxTargets } : {}),
    ...(opts.maxProbes !== undefined ? { maxPolls: opts.maxProbes } : {}),
    exclusive: (url, task) => fleet.exclusive(url, task),
  });
  const self = new ExporterMetrics(probes);
  const fleetRegistry = new MetricsRegistry();
  const probeRegistry = new MetricsRegistry(Object.keys(metricDefs) as MetricName[]);
  const samples = fleetSamples(fleet);
  const scrape = async () => (await self.registry.metrics()) + (opts.devices.length > 0 ? await fleetRegistry.render(samples) : '');

  const probe = async (req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> => {
    const refuse = (status: 400 | 403 | 503, message: string) => {
      self.answered(status);
      reply(res, status, TEXT, `${message}\n`);
    };
    const query = probeQuery(params);
    if (!query.ok) return refuse(400, query.message);
    if (!opts.targets) return refuse(403, 'this exporter probes no targets.');
    const found = opts.targets.lookup(query);
    if (!found.ok) return refuse(found.status, found.message);
    const budget = scrapeBudgetMs(req.headers['x-prometheus-scrape-timeout-seconds']);
    if (!budget.ok) return refuse(400, budget.message);
    const target = found.target;
    const outcome = await probes.probe(target, budget.ms ?? target.config.connection.timeoutMs);
    if (!outcome.ok) return refuse(503, outcome.message);
    if (!outcome.shared) self.polled(outcome.result.snapshot);
    const body = await probeRegistry.render(() => outcome.result.samples);
    self.answered(200);
    reply(res, 200, probeRegistry.contentType, body, {}, req.method === 'HEAD');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://exporter');
    const path = url.pathname;
    if (path !== '/' && path !== '/metrics' && path !== '/probe') return reply(res, 404, TEXT, 'not found; metrics are at /metrics, probes at /probe?target=URL\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, TEXT, 'use GET\n', { allow: 'GET, HEAD' });
    if (path === '/') return reply(res, 200, 'text/html; charset=utf-8', PAGE(fleet.devices.length), {}, req.method === 'HEAD');
    if (path === '/probe') return probe(req, res, url.searchParams);
    reply(res, 200, fleetRegistry.contentType, await scrape(), {}, req.method === 'HEAD');
  };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveMs,
      // How often Node looks for connections past their header/request deadline (default 30 s).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) reply(res, 500, TEXT, `internal error: ${(err as Error)?.message ?? String(err)}\n`);
        else res.destroy();
      });
    },
  );
  server.maxConnections = limits.maxConnections;
  server.maxHeadersCount = 64;
  server.on('drop', () => self.connectionRefused());
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = (perAddress.get(address) ?? 0) + 1;
    if (held > limits.maxConnectionsPerAddress) {
      self.connectionRefused();
      socket.destroy();
      return;
    }
    perAddress.set(address, held);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fleet.start();
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    fleet,
    probes,
    scrape,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        fleet.stop();
        probes.close();
        server.close(() => resolve());
        // Scrapers keep their connections alive; an idle one must not hold the shutdown.
        server.closeAllConnections();
      })),
  };
}

function reply(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}, head = false): void {
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}
