/**
 * Entry: flags -> Config -> one mode. Thin on purpose: each mode's code is imported only when
 * that mode runs, so start-up does not pay for the simulator, the exporter or the UI it does
 * not use.
 */
import meow from 'meow';
import pkg from '../package.json' with { type: 'json' };
import { quoteArgument, UsageError, type CommonFlags, type Config } from './config.js';
import { loadConfigFile, resolveProfile, resolveTarget } from './config-file.js';

const help = `
  Usage
    synctop URL [options]               live monitor of the device at base URL
    synctop @NAME [options]             the device named NAME in the config file
    synctop --demo[=SCENARIO]           live monitor of the built-in simulated device
    synctop URL --once                  one plain-text report, then exit
    synctop URL --json                  one JSON snapshot, then exit
    synctop simulate [--port N] [--scenario S] [--faults F]
                                        run the simulated device; prints its URL first
    synctop replay FILE [--speed N] [--device URL]
                                        play a recording back in the live monitor ([ and ] step);
                                        --device picks one device of an exporter's recording
    synctop replay FILE --once [--device URL]
                                        the text report at the recording's end, with offset charts
    synctop --json-schema               print the JSON Schema of the --json snapshot
    synctop URL1 URL2 ... | @a @b ... | --all
                                        the fleet view: one row per device; with --once/--json
                                        each device (JSON: an array), with check the worst state
    synctop check URL [--timeout MS] [-w RANGE] [-c RANGE] [thresholds]
                                        monitoring-plugin check (Nagios/Icinga/Zabbix): one line
                                        "SYNCTOP <STATUS> - reasons | perfdata", exit 0 OK,
                                        1 WARNING, 2 CRITICAL, 3 UNKNOWN (bad usage included)
    synctop export --listen HOST:PORT [URL...] [--config F] [--allow-target PATTERN]
                                        Prometheus exporter: /probe?target=URL asks one device
                                        at scrape time; /metrics polls the URLs given

  Options
    --interval SEC       poll interval, default 2, at least 0.5
    --timeout MS         whole-request deadline (default 90% of the interval, at most 5000;
                         5000 for --once/--json)
    --ptp-ports LIST     "auto" (ask ids 0..7, keep those that answer) or ids such as 0,2
    --header "K: V"      extra request header (repeatable)
    --token-file FILE    bearer token (or the SYNCTOP_TOKEN environment variable)
    --cookie-file FILE   session cookie: "name=value" or a curl cookie jar
    --insecure           accept any TLS certificate (a man in the middle too)
    --ca FILE            trust this CA (PEM) for the device's certificate
    --pin-sha256 FP      accept exactly the certificate with this SHA-256 fingerprint
    --no-color           no colors (also when NO_COLOR is set)
    --ascii              ASCII only (default when the locale is not UTF-8)
    --show-secrets       show the SMTP password instead of ***
    --ptp-warn T, --ptp-crit T   |PTP offset from master| thresholds (default 100ns, 1us)
    --ntp-warn T, --ntp-crit T   |NTP offset of the sync source| thresholds (default 10ms, 100ms)
    --min-sats N         fewer satellites on a working receiver is a warning (default 4)
    --ptp-max-age T      PTP lastUpdate this far from this computer's clock warns (60s)
    --utc-max-diff T     GNSS UTC this far from this computer's clock warns (default 5s)
    --frozen-after T     data unchanged this long, over several polls, is frozen (10s)
    --bell               ring the terminal bell when the health verdict worsens
    --config FILE        device profiles (default $XDG_CONFIG_HOME/synctop/config.json)
    --record FILE        append every poll result to FILE (JSON Lines; secrets masked)
    --all                every device profile of the config file (the fleet view)
    --version, --help

  check
    -w, --warning RANGE  |PTP offset from master| of any port, in seconds, as a plugin range
    -c, --critical RANGE [@][start:][end]: 0.000001 = above 1 us alerts, @0.01:1 = inside alerts;
                         they replace --ptp-warn/--ptp-crit; write --warning=-1:1 for a leading -
    perfdata             ntp_offset (s), ptp_portN_offset (s), gnss_rxN_satellites,
                         ntp_sources_reachable; thresholds refer to the absolute offset
    --state-file FILE    keep the last known data between runs: a section that cannot be
                         read keeps its findings, marked "(stale 5m)" (FILE: 0600, atomic)
    --state-max-age T    last known data older than this is dropped (3600, 30m, 2h; 1h)

  export
    --listen HOST:PORT   where it is served, e.g. 127.0.0.1:9469 or [::1]:9469 (required)
    --allow-target PAT   also probe targets matching PAT: a URL, an IP or CIDR block
                         (10.0.0.0/8) or a host glob (*.site7.example); repeatable. By
                         default only URLs given here or in the config file are probed
    --max-probes N       device polls in flight for /probe, default 128 (then 503)
    --max-targets N      targets held with their connections, default 2000 (LRU)
    --interval SEC       poll interval of each URL given (/metrics), default 10
    --concurrency N      requests in flight across those URLs, default 32

  Exit codes (--once, --json)
    0 every operation answered (device-side errors such as 40003 count as answers)
    1 some operation could not be read (network, HTTP, malformed answer, refused login)
    2 bad usage
`;

const flagSpec = {
  once: { type: 'boolean' },
  json: { type: 'boolean' },
  jsonSchema: { type: 'boolean' },
  demo: { type: 'string' },
  interval: { type: 'number' },
  timeout: { type: 'number' },
  ptpPorts: { type: 'string' },
  header: { type: 'string', isMultiple: true },
  tokenFile: { type: 'string' },
  cookieFile: { type: 'string' },
  insecure: { type: 'boolean' },
  ca: { type: 'string' },
  pinSha256: { type: 'string' },
  color: { type: 'boolean', default: true },
  ascii: { type: 'boolean' },
  showSecrets: { type: 'boolean' },
  record: { type: 'string' },
  ptpWarn: { type: 'string' },
  ptpCrit: { type: 'string' },
  ntpWarn: { type: 'string' },
  ntpCrit: { type: 'string' },
  minSats: { type: 'number' },
  ptpMaxAge: { type: 'string' },
  utcMaxDiff: { type: 'string' },
  frozenAfter: { type: 'string' },
  bell: { type: 'boolean' },
  port: { type: 'number' },
  scenario: { type: 'string' },
  faults: { type: 'string' },
  warning: { type: 'string', shortFlag: 'w' },
  critical: { type: 'string', shortFlag: 'c' },
  stateFile: { type: 'string' },
  stateMaxAge: { type: 'string' },
  listen: { type: 'string' },
  concurrency: { type: 'number' },
  allowTarget: { type: 'string', isMultiple: true },
  maxTargets: { type: 'number' },
  maxProbes: { type: 'number' },
  speed: { type: 'number' },
  config: { type: 'string' },
  device: { type: 'string' },
  all: { type: 'boolean' },
} as const;

// Unknown flags are let through meow and answered here: with a sentence (exit 2), or by check
// with UNKNOWN (exit 3), as the monitoring-plugin convention wants.
const cli = meow(help, {
  importMeta: import.meta,
  version: pkg.version,
  allowUnknownFlags: true,
  flags: flagSpec,
});

const flags = cli.flags;
const [first, ...rest] = cli.input;

function fail(message: string, code = 2): never {
  process.stderr.write(`synctop: ${message}\n`);
  process.exit(code);
}

/** A flag meow did not know, as the user typed it (`--bogus-flag`). */
const unknownFlag = Object.keys(flags)
  .filter((k) => !Object.hasOwn(flagSpec, k))
  .map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)[0];

async function main(): Promise<void> {
  if (flags.jsonSchema) {
    const { schemaJson } = await import('./report/json.js');
    process.stdout.write(schemaJson());
    return;
  }
  // check answers bad usage itself, with UNKNOWN (exit 3).
  if (first === 'check') return rest.length > 1 || flags.all ? fleetCommand('check') : check();
  if (unknownFlag) fail(`unknown option ${unknownFlag}; see --help`);
  if (first === 'simulate') return simulate();
  if (first === 'export') return exporter();
  if (first === 'replay') return replay();
  // Several devices, or every profile: the fleet view (fleet/).
  if (flags.all || rest.length > 0) return fleetCommand(flags.once || flags.json ? 'once' : 'live');

  const demo = flags.demo;
  if (demo === undefined && first === undefined) fail('give the device URL (e.g. synctop https://10.0.0.5), or --demo; see --help');
  if (rest.length > 0) fail(`unexpected argument ${quoteArgument(rest[0]!)}; see --help`);
  const oneShot = Boolean(flags.once || flags.json);

  let sim: { url: string; close(): Promise<void> } | undefined;
  if (demo !== undefined) {
    if (first !== undefined) fail('give either a URL or --demo, not both');
    const { startDemo } = await import('./sim/command.js');
    try {
      sim = await startDemo(demo || 'healthy');
    } catch (err) {
      fail((err as Error).message);
    }
  }
  const config = configOrExit(sim?.url ?? first!, oneShot);
  for (const w of config.warnings) process.stderr.write(`synctop: warning: ${w}\n`);
  for (const n of config.notices) process.stderr.write(`synctop: ${n}\n`);

  if (oneShot) {
    const { DeviceClient } = await import('./api/client.js');
    const client = new DeviceClient({ baseUrl: config.connection.url, ...config.connection });
    const { pollOnce, snapshotExitCode } = await import('./monitor/once.js');
    const snapshot = await pollOnce(client, config);
    if (flags.json) {
      const { snapshotJson } = await import('./report/json.js');
      process.stdout.write(snapshotJson(snapshot, config.thresholds));
    } else {
      const { textReport } = await import('./report/text.js');
      const color = config.color && process.stdout.isTTY === true;
      process.stdout.write(textReport(snapshot, { color, ascii: config.ascii, thresholds: config.thresholds }));
    }
    await client.close();
    await sim?.close();
    process.exitCode = snapshotExitCode(snapshot);
    return;
  }

  await live(config, first?.startsWith('@') ? first.slice(1) : undefined, sim);
}

/** A device to monitor live: its client and poller, and (for the first one) the recorder. */
async function openDevice(config: Config, record: boolean, profile?: string) {
  const { DeviceClient } = await import('./api/client.js');
  const { Poller } = await import('./monitor/poller.js');
  const { openRecordingFile, startRecording } = await import('./record/recorder.js');
  // The recording is opened now, before the screen: a path that cannot be written is a usage
  // error here, not news after quitting. Switching back to this device opens it again.
  let opened: ReturnType<typeof openRecordingFile> | undefined;
  if (record && config.record) {
    try {
      opened = openRecordingFile(config.record);
    } catch (err) {
      if (err instanceof UsageError) fail(err.message);
      throw err;
    }
    for (const w of opened.warnings) process.stderr.write(`synctop: warning: ${w}\n`);
  }
  return () => {
    const client = new DeviceClient({ baseUrl: config.connection.url, ...config.connection });
    const poller = new Poller(client, {
      intervalMs: config.intervalMs,
      ptpPorts: config.ptpPorts,
      showSecrets: config.showSecrets,
      thresholds: config.thresholds,
      ...(profile ? { profile } : {}),
    });
    // What stderr said before the screen took over is hidden behind it: the events pane keeps it
    // (the warnings last, so the newest event, the one a folded pane shows, is a warning).
    const at = Date.now();
    poller.store.getState().events.add([
      ...config.notices.map((message) => ({ at, severity: 'info' as const, section: 'device' as const, message })),
      ...config.warnings.map((message) => ({ at, severity: 'warning' as const, section: 'device' as const, message })),
    ]);
    // A recording is of one device: switching away ends it.
    let recorder: ReturnType<typeof startRecording> | undefined;
    if (record && config.record) {
      try {
        recorder = startRecording(poller.store, config.record, { intervalMs: config.intervalMs, version: pkg.version }, opened);
      } catch (err) {
        // Opened again after a switch back, the file may have gone meanwhile: monitoring goes on.
        if (!(err instanceof UsageError)) throw err;
        process.stderr.write(`synctop: ${err.message}\n`);
      }
      opened = undefined;
    }
    if (recorder) {
      recorders.add(recorder);
      poller.store.update({ recording: true });
    }
    return {
      poller,
      close: () => {
        void recorder?.close().then(() => {
          recorders.delete(recorder);
          if (recorder.error) process.stderr.write(`synctop: ${recorder.error}\n`);
        });
        client.destroy();
      },
    };
  };
}

/** Recordings still open: flushed and closed before the process ends, however it ends. */
const recorders = new Set<{ close(): Promise<void> }>();

/**
 * The last steps of a live view: every recording closed (its lines on disk); after the terminal
 * went away, an exit without touching it (see ui/terminal/hangup.ts).
 */
async function endLiveView(outcome: { terminalLost: boolean } | undefined): Promise<void> {
  if (!outcome?.terminalLost) {
    await Promise.all([...recorders].map((r) => r.close()));
    return;
  }
  const { HANGUP_EXIT_CODE, releaseTerminal } = await import('./ui/terminal/hangup.js');
  const leave = () => {
    releaseTerminal();
    process.exit(HANGUP_EXIT_CODE);
  };
  // A recording on a stalled disk must not keep a process without a terminal alive.
  setTimeout(leave, 3000).unref();
  await Promise.all([...recorders].map((r) => r.close()));
  leave();
}

async function live(config: Config, profile: string | undefined, sim?: { close(): Promise<void> }) {
  if (!process.stdout.isTTY) fail('the live monitor needs a terminal; use --once or --json for scripts');
  (await import('./ui/v8-flags.js')).tuneV8ForLiveView();
  // A live view on a terminal is live even when CI is set in the environment: Ink would
  // otherwise hold every frame back until exit.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const { DeviceSwitcher } = await import('./monitor/switcher.js');
  // With a profile, every profile of the config file is one `d` away.
  const choices = profile === undefined ? [{ name: config.connection.url, config }] : profileConfigs(profile, config);
  const entries = await Promise.all(
    choices.map(async (c) => ({
      name: c.name,
      url: c.config.connection.url,
      open: await openDevice(c.config, c.config === config, profile === undefined ? undefined : c.name),
    })),
  );
  // One device: its poller is the controller (no `d` switcher to offer).
  const single = entries.length === 1 ? entries[0]!.open() : null;
  const controller = single ? single.poller : new DeviceSwitcher(entries, entries[0]!.name);
  // Polling starts first, so the device's first answers are on their way while Ink loads.
  controller.start();
  const { runLiveMonitor } = await import('./ui/run.js');
  (await import('./ui/terminal/hangup.js')).holdHangups();
  let outcome: Awaited<ReturnType<typeof runLiveMonitor>> | undefined;
  try {
    outcome = await runLiveMonitor(controller, { color: config.color, ascii: config.ascii, bell: config.bell });
  } finally {
    controller.stop();
    single?.close();
    await sim?.close();
  }
  await endLiveView(outcome);
}

/** Every profile of the config file as a Config, the chosen one first; broken ones are skipped with a warning. */
function profileConfigs(chosen: string, chosenConfig: Config): { name: string; config: Config }[] {
  const loaded = loadConfigFile(flags.config, process.env);
  const out = [{ name: chosen, config: chosenConfig }];
  for (const name of Object.keys(loaded?.file.devices ?? {})) {
    if (name === chosen) continue;
    try {
      // The recording is of the first device only.
      // Credentials from the command line and environment belong to the device named there.
      const config = resolveProfile(loaded, name, { ...(flags as CommonFlags), record: undefined }, process.env, { oneShot: false, credentials: 'own' });
      for (const w of config.warnings) process.stderr.write(`synctop: warning: profile ${name}: ${w}\n`);
      out.push({ name, config });
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      process.stderr.write(`synctop: warning: profile ${name} left out of the switcher: ${err.message}\n`);
    }
  }
  return out;
}

async function replay(): Promise<void> {
  const file = rest[0];
  if (!file) fail('give the recording to play: synctop replay FILE [--speed N]');
  if (rest.length > 1) fail(`unexpected argument ${quoteArgument(rest[1]!)}; see --help`);
  (await import('./ui/v8-flags.js')).tuneV8ForLiveView();
  const speed = flags.speed ?? 1;
  const { loadRecording, ReplayController, RecordingError, MIN_SPEED, MAX_SPEED } = await import('./record/replay.js');
  if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) fail(`--speed must be a number from ${MIN_SPEED} to ${MAX_SPEED} (got ${flags.speed})`);
  let controller: InstanceType<typeof ReplayController>;
  let fleet: Awaited<ReturnType<typeof import('./fleet/replay.js').loadFleetRecording>> = null;
  try {
    const recording = await loadRecording(file, flags.device ? { device: flags.device } : {});
    // Said before the screen opens, so it is still there after quitting; the header says it too.
    for (const w of recording.warnings()) process.stderr.write(`synctop: warning: ${w}\n`);
    // A multi-device recording without --device opens the fleet view.
    if (!flags.device) fleet = await (await import('./fleet/replay.js')).loadFleetRecording(file, recording);
    if (flags.once) return await replayReport(recording, fleet !== null);
    controller = new ReplayController(recording, speed);
  } catch (err) {
    if (err instanceof RecordingError) fail(err.message);
    throw err;
  }
  if (!process.stdout.isTTY) fail('replay needs a terminal (or --once for a text report)');
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const { colorEnabled, isUtf8Locale } = await import('./config.js');
  const color = colorEnabled(flags.color, process.env);
  const ascii = flags.ascii === true || !isUtf8Locale(process.env);
  if (fleet) return (await import('./fleet/replay.js')).runFleetReplay(fleet, { speed, color, ascii });
  const { runLiveMonitor } = await import('./ui/run.js');
  (await import('./ui/terminal/hangup.js')).holdHangups();
  controller.start();
  let outcome: Awaited<ReturnType<typeof runLiveMonitor>> | undefined;
  try {
    outcome = await runLiveMonitor(controller, { color, ascii });
  } finally {
    controller.stop();
  }
  await endLiveView(outcome);
}

/** `replay FILE --once`: the recording played through at once, as a text report with its offset charts. */
async function replayReport(recording: import('./record/replay.js').Recording, severalDevices: boolean): Promise<void> {
  if (severalDevices) {
    recording.close();
    fail('this recording holds several devices: name one with --device URL for --once');
  }
  const { playToEnd } = await import('./record/replay.js');
  const { state, snapshot } = playToEnd(recording);
  recording.close();
  const { colorEnabled, isUtf8Locale } = await import('./config.js');
  const ascii = flags.ascii === true || !isUtf8Locale(process.env);
  const color = colorEnabled(flags.color, process.env) && process.stdout.isTTY === true;
  const width = process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 120;
  const { textReport } = await import('./report/text.js');
  const { historyCharts } = await import('./report/history-charts.js');
  process.stdout.write(textReport(snapshot, { color, ascii, width, thresholds: state.thresholds, history: historyCharts(state, { width, ascii }) }));
}

async function fleetCommand(mode: 'live' | 'once' | 'check'): Promise<void> {
  const { runFleetCommand } = await import('./fleet/run.js');
  const args = mode === 'check' ? rest : cli.input;
  process.exitCode = await runFleetCommand(mode, args, flags, { env: process.env, stdout: process.stdout, stderr: process.stderr, version: pkg.version, fail });
}

async function check(): Promise<void> {
  const { runCheck } = await import('./report/check.js');
  const outcome = await runCheck({ args: rest, flags: flags as Parameters<typeof runCheck>[0]['flags'], env: process.env });
  for (const warning of outcome.warnings ?? []) process.stderr.write(`${warning}\n`);
  process.stdout.write(`${outcome.line}\n`);
  process.exitCode = outcome.code;
}

async function exporter(): Promise<void> {
  const { runExportCommand } = await import('./export/command.js');
  try {
    await runExportCommand({ urls: rest, flags, env: process.env, stdout: process.stdout, stderr: process.stderr, version: pkg.version });
  } catch (err) {
    if (err instanceof UsageError) fail(err.message);
    throw err;
  }
}

async function simulate(): Promise<void> {
  const { runSimulateCommand } = await import('./sim/command.js');
  let sim: { close(): Promise<void> };
  try {
    sim = await runSimulateCommand({
      ...(flags.port !== undefined ? { port: flags.port } : {}),
      ...(flags.scenario !== undefined ? { scenario: flags.scenario } : {}),
      ...(flags.faults !== undefined ? { faults: flags.faults } : {}),
      stdout: process.stdout,
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** URL or @profile (from the config file) + flags -> Config; a mistake exits with usage code 2. */
function configOrExit(target: string, oneShot: boolean): Config {
  try {
    return resolveTarget(target, flags as CommonFlags, process.env, { oneShot, warn: (w) => process.stderr.write(`synctop: warning: ${w}\n`) });
  } catch (err) {
    if (err instanceof UsageError) fail(err.message);
    throw err;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`synctop: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(70);
});
