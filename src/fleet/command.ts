/**
 * The fleet's modes: the live fleet view (with --record: every device in one file, the
 * exporter's multi-device format), and --once / --json / check over several devices.
 */
import type { Config } from '../config.js';
import { DeviceClient } from '../api/client.js';
import { Fleet, Limiter } from '../monitor/fleet.js';
import { pollOnce, snapshotExitCode } from '../monitor/once.js';
import type { MonitorController } from '../monitor/state.js';
import type { Snapshot } from '../model/snapshot.js';
import type { FleetTarget } from './targets.js';

export interface FleetLiveOptions {
  record?: string | undefined;
  version: string;
  bell: boolean;
  showSecrets: boolean;
  stderr: NodeJS.WritableStream;
}

/** Requests in flight at once for the one-shot modes (each device still gets one at a time). */
const ONE_SHOT_CONCURRENCY = 16;

/** The fleet of live pollers, one per target, polls spread over the interval. */
export function openFleet(targets: readonly FleetTarget[], showSecrets: boolean): Fleet {
  const first = targets[0]!.config;
  return new Fleet(
    targets.map((t) => ({ baseUrl: t.config.connection.url, ...t.config.connection, ...(t.profile ? { profile: t.profile } : {}) })),
    { intervalMs: first.intervalMs, ptpPorts: first.ptpPorts, thresholds: first.thresholds, showSecrets },
  );
}

export async function runFleetLive(targets: readonly FleetTarget[], opts: FleetLiveOptions): Promise<void> {
  const first: Config = targets[0]!.config;
  const fleet = openFleet(targets, opts.showSecrets);
  const names = targets.map((t) => t.name);
  let recording: import('../record/recorder.js').RecordingFile | undefined;
  if (opts.record) {
    const { openRecording } = await import('../record/recorder.js');
    recording = openRecording(opts.record, 'fleet', { intervalMs: first.intervalMs, version: opts.version }, names);
    fleet.devices.forEach((d, i) => recording!.attach(d.poller.store, names[i]));
  }
  fleet.start();
  const { runLiveMonitor } = await import('../ui/run.js');
  const { fleetElement } = await import('../ui/fleet/FleetApp.js');
  const devices = fleet.devices.map((d, i) => ({ name: names[i]!, controller: d.poller as MonitorController }));
  const p = fleet.devices[0]!.poller;
  // Screendumps save the screen; no one device's snapshot stands for the fleet.
  const screenOnly: MonitorController = { getState: p.getState, subscribe: p.subscribe, pollNow: p.pollNow, setPaused: p.setPaused };
  try {
    await runLiveMonitor(screenOnly, {
      color: first.color,
      ascii: first.ascii,
      view: ({ quit, onScreendump }) =>
        fleetElement({ devices, color: first.color, ascii: first.ascii, onQuit: quit, onScreendump, bell: opts.bell }),
    });
  } finally {
    fleet.stop();
    if (recording) {
      await recording.close();
      if (recording.error) opts.stderr.write(`synctop: ${recording.error}\n`);
    }
  }
}

/** One poll of every device, at most ONE_SHOT_CONCURRENCY at a time, in the targets' order. */
export async function pollFleetOnce(targets: readonly FleetTarget[], opts: { budget: boolean; showSecrets: boolean }): Promise<Snapshot[]> {
  const limiter = new Limiter(ONE_SHOT_CONCURRENCY);
  return Promise.all(
    targets.map((t) =>
      limiter.run(async () => {
        const client = new DeviceClient({ baseUrl: t.config.connection.url, ...t.config.connection });
        try {
          return await pollOnce(client, {
            ptpPorts: t.config.ptpPorts,
            showSecrets: opts.showSecrets,
            ...(opts.budget ? { budgetMs: t.config.connection.timeoutMs } : {}),
          });
        } finally {
          client.destroy();
        }
      }),
    ),
  );
}

/** --once / --json over several devices: the text report of each, or one JSON array. */
export async function runFleetOnce(targets: readonly FleetTarget[], opts: { json: boolean; color: boolean; stdout: NodeJS.WritableStream }): Promise<number> {
  const first = targets[0]!.config;
  const snapshots = await pollFleetOnce(targets, { budget: false, showSecrets: first.showSecrets });
  if (opts.json) {
    opts.stdout.write(`${JSON.stringify(snapshots, null, 2)}\n`);
  } else {
    const { textReport } = await import('../report/text.js');
    const reports = snapshots.map((s, i) => {
      const t = targets[i]!;
      return `== ${t.name} ==\n${textReport(s, { color: opts.color, ascii: t.config.ascii, thresholds: t.config.thresholds })}`;
    });
    opts.stdout.write(reports.join('\n'));
  }
  return Math.max(...snapshots.map(snapshotExitCode));
}
