/**
 * `synctop export --listen HOST:PORT [URL...] [--config F] [--allow-target PATTERN]`: flags -> a
 * running exporter. The first stdout line is the exporter's URL (scripts read it with
 * `head -1`); SIGINT and SIGTERM stop polling, close the listener and its kept-alive
 * connections, and let the process end.
 */
import { checkUrl, quoteArgument, resolveConfig, UsageError, type CommonFlags } from '../config.js';
import { loadConfigFile } from '../config-file.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../monitor/fleet.js';
import { openRecording, openRecordingFile } from '../record/recorder.js';
import { startExporter, type Exporter } from './exporter.js';
import { DEFAULT_MAX_PROBES, DEFAULT_MAX_TARGETS } from './probe.js';
import { parseAllowPattern, profileConfigs, TargetBook } from './targets.js';

export const EXPORT_DEFAULT_INTERVAL_S = 10;

export interface ExportFlags extends CommonFlags {
  listen?: string;
  concurrency?: number;
  allowTarget?: string[];
  maxTargets?: number;
  maxProbes?: number;
  config?: string;
}

/** Stands in for the device URL while resolving the settings shared by every target. */
const ANY_TARGET = 'http://target.invalid';
const MAX_CAP = 1_000_000;

function wholeNumber(value: number | undefined, fallback: number, flag: string): number {
  const n = value ?? fallback;
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_CAP)) throw new UsageError(`${flag} takes a whole number from 1 to ${MAX_CAP.toLocaleString('en-US')} (got ${value})`);
  return n;
}

/** "127.0.0.1:9469", "[::1]:9469", ":9469" (every interface). */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65_535) throw new UsageError(`--listen takes HOST:PORT, e.g. 127.0.0.1:9469 or [::1]:9469 (got ${quoteArgument(text)})`);
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
  const concurrency = wholeNumber(flags.concurrency, DEFAULT_MAX_IN_FLIGHT, '--concurrency');
  const maxTargets = wholeNumber(flags.maxTargets, DEFAULT_MAX_TARGETS, '--max-targets');
  const maxProbes = wholeNumber(flags.maxProbes, DEFAULT_MAX_PROBES, '--max-probes');
  const warn = (w: string) => input.stderr.write(`synctop: warning: ${w}\n`);
  if (listen.host === '0.0.0.0' || listen.host === '::') {
    warn(`listening on every interface: whoever reaches port ${listen.port} can read the metrics and ask for probes; give the address Prometheus connects to, e.g. --listen 192.0.2.10:${listen.port}`);
  }
  // One set of connection options for the command line's devices: the same credentials and TLS.
  const config = resolveConfig(input.urls[0] ?? ANY_TARGET, { ...flags, interval: flags.interval ?? EXPORT_DEFAULT_INTERVAL_S }, input.env, { oneShot: false });
  config.warnings.forEach(warn);
  // The URL is the device label: a device listed twice would be polled twice into one series.
  const urls = [...new Set(input.urls.map(checkUrl))];
  const patterns = (flags.allowTarget ?? []).map(parseAllowPattern);
  const loaded = loadConfigFile(flags.config, input.env);
  loaded?.warnings.forEach(warn);
  const targets = new TargetBook({ commandLine: config, urls, patterns, profiles: profileConfigs(loaded, flags, input.env, warn) });
  if (config.record && urls.length === 0) {
    throw new UsageError('--record records the devices polled for /metrics: give their URLs (probes are not recorded)');
  }
  if (targets.empty) {
    throw new UsageError('nothing to export: give device URLs, a config file with device profiles (--config FILE), or --allow-target PATTERN');
  }
  // Opened before listening: a recording that cannot be written is a usage error at start.
  const recordFile = config.record ? openRecordingFile(config.record) : undefined;
  recordFile?.warnings.forEach(warn);

  let exporter: Exporter;
  try {
    exporter = await startExporter({
      ...listen,
      devices: urls.map((baseUrl) => ({ ...config.connection, baseUrl })),
      intervalMs: config.intervalMs,
      ptpPorts: config.ptpPorts,
      thresholds: config.thresholds,
      maxInFlight: concurrency,
      targets,
      maxTargets,
      maxProbes,
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
  if (urls.length > 0) {
    input.stdout.write(`exporting ${urls.length} device${urls.length === 1 ? '' : 's'} at /metrics, polled every ${config.intervalMs / 1000} s, at most ${concurrency} requests in flight\n`);
  }
  input.stdout.write(`probing at ${exporter.url}/probe?target=URL: ${describeAllowed(urls.length, patterns.length, loaded ? Object.keys(loaded.file.devices).length : 0)}\n`);
  const stop = () => {
    void exporter.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return exporter;
}

function describeAllowed(urls: number, patterns: number, profiles: number): string {
  const parts = [
    urls > 0 ? `${urls} device${urls === 1 ? '' : 's'} of the command line` : '',
    patterns > 0 ? `${patterns} --allow-target pattern${patterns === 1 ? '' : 's'}` : '',
    profiles > 0 ? `${profiles} profile${profiles === 1 ? '' : 's'} of the config file (also as profile=NAME)` : '',
  ].filter(Boolean);
  return `targets allowed: ${parts.join(', ')}`;
}
