/**
 * `synctop replay FILE` of a multi-device recording (the fleet view's --record, or the
 * exporter's): the fleet view, each device played back by its own ReplayController from the
 * same file, all started together, so the rows move as the site did. `--device NAME` still
 * plays one device in the single-device monitor.
 */
import { loadRecording, RecordingError, ReplayController, type Recording } from '../record/replay.js';

/** Every device of a multi-device recording with results, in the header's order; null for a single-device one. */
export async function loadFleetRecording(path: string, first: Recording): Promise<{ name: string; recording: Recording }[] | null> {
  const devices = first.header.devices;
  if (!devices || devices.length < 2) return null;
  const out: { name: string; recording: Recording }[] = [];
  for (const name of devices) {
    try {
      out.push({ name, recording: name === first.header.device ? first : await loadRecording(path, { device: name }) });
    } catch (err) {
      // A device of the header that never answered has no results to play: it has no row.
      if (!(err instanceof RecordingError)) throw err;
    }
  }
  return out.length > 1 ? out : null;
}

export async function runFleetReplay(devices: { name: string; recording: Recording }[], opts: { speed: number; color: boolean; ascii: boolean }): Promise<void> {
  const controllers = devices.map((d) => ({ name: d.name, controller: new ReplayController(d.recording, opts.speed) }));
  const { runLiveMonitor } = await import('../ui/run.js');
  const { fleetElement } = await import('../ui/fleet/FleetApp.js');
  for (const c of controllers) c.controller.start();
  const c0 = controllers[0]!.controller;
  try {
    await runLiveMonitor(
      { getState: c0.getState, subscribe: c0.subscribe, pollNow: c0.pollNow, setPaused: c0.setPaused },
      { color: opts.color, ascii: opts.ascii, view: ({ quit, onScreendump }) => fleetElement({ devices: controllers, color: opts.color, ascii: opts.ascii, onQuit: quit, onScreendump }) },
    );
  } finally {
    for (const c of controllers) c.controller.stop();
  }
}
