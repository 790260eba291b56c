/**
 * `synctop export --listen HOST:PORT URL...`: flags -> a running exporter. The first stdout line
 * is the exporter's URL (scripts read it with `head -1`); SIGINT and SIGTERM stop polling, close
 * the listener and its kept-alive connections, and let the process end.
 */
import { checkUrl, resolveConfig, UsageError, type CommonFlags } from '../config.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../monitor/fleet.js';
import { openRecording, openRecordingFile } from '../record/recorder.js';
import { startExporter, type Exporter } from './exporter.js';

export const EXPORT_DEFAULT_INTERVAL_S = 10;

export interface ExportFlags extends CommonFlags {
  listen?: string;
  concurrency?: number;
}

/** "127.0.0.1:9469", "[::1]:9469", ":9469" (every interface). */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65_535) throw new UsageError(`--listen takes HOST:PORT, e.g. 127.0.0.1:9469 or [::1]:9469 (got "${text}")`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

export interface ExportCommandInput {
  urls: string[];
  flags: ExportFlags;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** synctop's version, for a recording's header. */
  version: string;
}

export async function runExportCommand(input: ExportCommandInput): Promise<Exporter> {
  const { flags } = input;
  if (flags.listen === undefined) throw new UsageError('export needs --listen HOST:PORT, e.g. synctop export --listen 127.0.0.1:9469 URL...');
  const listen = parseListen(flags.listen);
  if (input.urls.length === 0) throw new UsageError('give the base URL of at least one device: synctop export --listen HOST:PORT URL...');
  const concurrency = flags.concurrency ?? DEFAULT_MAX_IN_FLIGHT;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new UsageError(`--concurrency takes a whole number of at least 1 (got ${flags.concurrency})`);
  // One set of connection options for every device: the same credentials and TLS settings.
  const config = resolveConfig(input.urls[0]!, { ...flags, interval: flags.interval ?? EXPORT_DEFAULT_INTERVAL_S }, input.env, { oneShot: false });
  for (const w of config.warnings) input.stderr.write(`synctop: warning: ${w}\n`);
  // The URL is the device label: a device listed twice would be polled twice into one series.
  const urls = [...new Set(input.urls.map(checkUrl))];
  // Opened before listening: a recording that cannot be written is a usage error at start.
  const recordFile = config.record ? openRecordingFile(config.record) : undefined;
  for (const w of recordFile?.warnings ?? []) input.stderr.write(`synctop: warning: ${w}\n`);

  let exporter: Exporter;
  try {
    exporter = await startExporter({
      ...listen,
      devices: urls.map((baseUrl) => ({ ...config.connection, baseUrl })),
      intervalMs: config.intervalMs,
      ptpPorts: config.ptpPorts,
      thresholds: config.thresholds,
      maxInFlight: concurrency,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such local address' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`cannot listen on ${flags.listen}: ${why}`);
  }
  if (config.record) {
    // One file for the fleet: every line names its device (replay picks one with --device).
    const file = openRecording(config.record, `fleet of ${urls.length}`, { intervalMs: config.intervalMs, version: input.version }, urls, recordFile);
    for (const d of exporter.fleet.devices) file.attach(d.poller.store, d.url);
    const close = exporter.close.bind(exporter);
    exporter.close = async () => {
      await close();
      await file.close();
      if (file.error) input.stderr.write(`synctop: ${file.error}\n`);
    };
  }
  input.stdout.write(`${exporter.url}/metrics\n`);
  input.stdout.write(`exporting ${urls.length} device${urls.length === 1 ? '' : 's'}, polled every ${config.intervalMs / 1000} s, at most ${concurrency} requests in flight\n`);
  const stop = () => {
    void exporter.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return exporter;
}
