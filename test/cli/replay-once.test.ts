/**
 * The offset chart of a text report: `--once` takes one poll, so it draws no chart and says
 * where the chart is; `replay FILE --once` plays a recording (made here over real HTTP against
 * the simulator) through at once and draws each PTP port's offset from master and the NTP sync
 * source's offset with the chart renderer of the zoomed panes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { Poller } from '../../src/monitor/poller.js';
import { seriesKey } from '../../src/monitor/history.js';
import { startRecording } from '../../src/record/recorder.js';
import { loadRecording, playToEnd } from '../../src/record/replay.js';
import { NO_HISTORY_NOTE } from '../../src/report/history-charts.js';
import { sim, synctop, useBinary } from './binary.js';

useBinary();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'synctop-replay-once-'));

async function record(file: string): Promise<number> {
  const device = await sim({ scenario: 'healthy', timeScale: 20 });
  const client = new DeviceClient({ baseUrl: device.url, timeoutMs: 500 });
  const poller = new Poller(client, { intervalMs: 50, ptpPorts: 'auto', showSecrets: false });
  const recorder = startRecording(poller.store, file, { intervalMs: 50, version: 'test' });
  poller.start();
  // Until every port has a few samples (a busy machine answers slower), at most 15 s.
  const deadline = Date.now() + 15_000;
  const enough = () => {
    const s = poller.getState();
    const ports = s.ptp.data?.ports ?? [];
    return ports.length > 0 && ports.every((p) => (s.history.get(`ptp:${p.id}:offset`)?.samples().values.length ?? 0) >= 5);
  };
  while (!enough() && Date.now() < deadline) await sleep(50);
  poller.stop();
  await sleep(100);
  await recorder.close();
  await client.destroy();
  return poller.getState().ptp.data?.ports.length ?? 0;
}

/** The lines of the report's History section. */
const historyOf = (report: string) => report.slice(report.indexOf('\nHistory\n') + 1).split('\n');

describe('the offset chart of a text report', () => {
  it('--once (one poll) draws no chart and says where the history is', async () => {
    const device = await sim({ scenario: 'healthy' });
    const r = await synctop([device.url, '--once'], { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    const history = historyOf(r.stdout);
    expect(history[0]).toBe('History');
    expect(history.slice(1).join(' ').replace(/\s+/g, ' ')).toContain(NO_HISTORY_NOTE);
    expect(r.stdout).not.toMatch(/[┤│]/);
  });

  it('replay FILE --once charts every PTP port and the NTP sync source, with unit labels, in Unicode and ASCII', async () => {
    const file = join(dir, 'session.jsonl');
    const ports = await record(file);
    expect(ports).toBeGreaterThan(0);
    const rec = await loadRecording(file);
    const { state } = playToEnd(rec);
    rec.close();
    const samples = state.history.get(seriesKey.ptpOffset(0))!.samples().values.length;
    expect(samples).toBeGreaterThanOrEqual(5);

    for (const [ascii, tick] of [[false, '┤'], [true, '+']] as const) {
      const r = await synctop(['replay', file, '--once', ...(ascii ? ['--ascii'] : [])], { NO_COLOR: '1', LANG: 'C.UTF-8' });
      expect(r.code, r.stderr).toBe(0);
      const history = historyOf(r.stdout);
      for (let id = 0; id < ports; id++) {
        const n = state.history.get(seriesKey.ptpOffset(id))!.samples().values.length;
        expect(history.some((l) => l.startsWith(`PTP port ${id} offset from master (${n} samples`)), `port ${id}`).toBe(true);
      }
      // NTP samples are the source's new measurements (a reference clock polled every 16 s may
      // have given one in a short recording): the title counts them as the history holds them.
      const ntpSamples = state.history.get(seriesKey.ntpOffset('GPS'))?.samples().values.length ?? 0;
      expect(ntpSamples).toBeGreaterThanOrEqual(1);
      expect(history.some((l) => l.startsWith(`NTP sync source GPS offset (${ntpSamples} sample${ntpSamples === 1 ? '' : 's'}`))).toBe(true);
      const axis = new RegExp(`^ *[+-]?\\d+(\\.\\d+)?(ns|µs|us|ms)\\${tick}`);
      expect(history.filter((l) => axis.test(l)).length).toBeGreaterThanOrEqual(2 * ports + (ntpSamples > 1 ? 2 : 1));
      // Clock-time ticks: HH:MM:SS, or HH:MM when the recording spans enough for minute steps.
      expect(history.some((l) => /\d\d:\d\d/.test(l) && !/offset/.test(l))).toBe(true);
      for (const l of r.stdout.split('\n')) expect(stringWidth(l)).toBeLessThanOrEqual(120);
      if (ascii) expect(r.stdout).toMatch(/^[\x00-\x7f]*$/);
    }
  }, 40_000);

  it('replay --once of a file that is not there: a usage error naming it, no report', async () => {
    const r = await synctop(['replay', join(dir, 'missing.jsonl'), '--once']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.jsonl');
    expect(r.stdout).toBe('');
  });
});
