/**
 * The Prometheus exporter: a Fleet polling the devices on its own schedule and an HTTP server
 * that answers from the latest results. /metrics never waits on a device: it reads what the
 * fleet holds and renders it. `/` is a small page with a link; every other path is 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientOptions } from '../api/client.js';
import { Fleet } from '../monitor/fleet.js';
import type { Thresholds } from '../monitor/health.js';
import type { PtpPortSelection } from '../monitor/ptp-discovery.js';
import { deviceSamples, type Sample } from './metrics.js';
import { MetricsRegistry } from './registry.js';

export interface ExporterOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** One per device; baseUrl is the device label. */
  devices: readonly ClientOptions[];
  intervalMs: number;
  ptpPorts: PtpPortSelection;
  thresholds?: Thresholds;
  maxInFlight?: number;
  /** Starts spread over this long (default one interval). */
  spreadMs?: number;
}

export interface Exporter {
  /** http://host:port, without a path. */
  url: string;
  fleet: Fleet;
  /** What /metrics answers now. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (devices: number) =>
  `<!DOCTYPE html>\n<html><head><title>synctop exporter</title></head><body><h1>synctop exporter</h1>` +
  `<p>${devices} device${devices === 1 ? '' : 's'}. <a href="/metrics">Metrics</a></p></body></html>\n`;

export function fleetSamples(fleet: Fleet): () => Iterable<Sample> {
  return function* () {
    for (const d of fleet.devices) {
      yield* deviceSamples({ device: d.url, snapshot: d.snapshot, polled: d.polled, durationMs: d.durationMs, lastPollAt: d.lastPollAt, verdict: Fleet.verdict(d) });
    }
  };
}

export async function startExporter(opts: ExporterOptions): Promise<Exporter> {
  const fleet = new Fleet(opts.devices, {
    intervalMs: opts.intervalMs,
    ptpPorts: opts.ptpPorts,
    ...(opts.thresholds ? { thresholds: opts.thresholds } : {}),
    ...(opts.maxInFlight !== undefined ? { maxInFlight: opts.maxInFlight } : {}),
    ...(opts.spreadMs !== undefined ? { spreadMs: opts.spreadMs } : {}),
  });
  const metrics = new MetricsRegistry();
  const samples = fleetSamples(fleet);
  const scrape = () => metrics.render(samples);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://exporter').pathname;
    if (path !== '/' && path !== '/metrics') return reply(res, 404, 'text/plain; charset=utf-8', 'not found; metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'text/plain; charset=utf-8', 'use GET\n', { allow: 'GET, HEAD' });
    if (path === '/') return reply(res, 200, 'text/html; charset=utf-8', PAGE(fleet.devices.length), {}, req.method === 'HEAD');
    reply(res, 200, metrics.contentType, await scrape(), {}, req.method === 'HEAD');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, 'text/plain; charset=utf-8', `internal error: ${(err as Error)?.message ?? String(err)}\n`);
      else res.destroy();
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
    scrape,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        fleet.stop();
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
