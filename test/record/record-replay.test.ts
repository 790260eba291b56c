/**
 * Record a live session against the simulator, play it back, and get the same state: panes'
 * data, events and verdict. And what a recording must never hold.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';
import { Poller } from '../../src/monitor/poller.js';
import { startRecording } from '../../src/record/recorder.js';
import { loadRecording, RecordingError, ReplayController } from '../../src/record/replay.js';
import { startSimulator } from '../../src/sim/server.js';

const dir = mkdtempSync(join(tmpdir(), 'synctop-rec-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function recordSession(file: string, opts: { showSecrets: boolean; token?: string }) {
  const sim = await startSimulator({ scenario: 'ptp-acquiring', timeScale: 40, ...(opts.token ? { token: opts.token } : {}) });
  cleanups.push(() => sim.close());
  const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 500, headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {} });
  cleanups.push(() => client.destroy());
  const poller = new Poller(client, { intervalMs: 50, ptpPorts: 'auto', showSecrets: opts.showSecrets });
  const recorder = startRecording(poller.store, file, { intervalMs: 50, version: 'test' });
  poller.start();
  await sleep(1500);
  poller.stop();
  await sleep(100);
  await recorder.close();
  return poller;
}

describe('record and replay', () => {
  it('replays to the same data, events and verdict', async () => {
    const file = join(dir, 'session.jsonl');
    const live = await recordSession(file, { showSecrets: false });
    const liveState = live.getState();
    expect(liveState.events.length).toBeGreaterThan(0);

    const rec = await loadRecording(file);
    expect(rec.header.device).toBe(liveState.device);
    const replay = new ReplayController(rec, 1000);
    replay.setPaused(true);
    replay.start();
    while (!replay.getState().replay!.finished) replay.step(1);
    const s = replay.getState();
    expect(s.ntp.data).toEqual(liveState.ntp.data);
    expect(s.ptp.data).toEqual(liveState.ptp.data);
    expect(s.gnss.data).toEqual(liveState.gnss.data);
    expect(s.alarm.data).toEqual(liveState.alarm.data);
    expect(s.verdict).toEqual(liveState.verdict);
    expect(s.events.newestFirst().map((e) => e.message)).toEqual(liveState.events.newestFirst().map((e) => e.message));
    // PTP port 0 went through its acquisition on the way: the events say so.
    expect(s.events.newestFirst().some((e) => /PTP port 0 .* -> /.test(e.message))).toBe(true);
    // Ages are measured against the recorded clock.
    expect(replay.now()).toBe(rec.atMs(rec.count - 1));
  });

  it('steps back to an earlier moment with that moment\'s events', async () => {
    const file = join(dir, 'steps.jsonl');
    await recordSession(file, { showSecrets: false });
    const replay = new ReplayController(await loadRecording(file), 1);
    replay.setPaused(true);
    replay.start();
    for (let i = 0; i < 10; i++) replay.step(1);
    const forward = replay.getState();
    const eventsThen = forward.events.length;
    for (let i = 0; i < 5; i++) replay.step(1);
    for (let i = 0; i < 5; i++) replay.step(-1);
    const back = replay.getState();
    expect(back.replay!.position).toBe(forward.replay!.position);
    expect(back.events.length).toBe(eventsThen);
    expect(back.paused).toBe(true);
  });

  it('plays by itself at the given speed', async () => {
    const file = join(dir, 'auto.jsonl');
    await recordSession(file, { showSecrets: false });
    const replay = new ReplayController(await loadRecording(file), 50);
    replay.start();
    const deadline = Date.now() + 5000;
    while (!replay.getState().replay!.finished && Date.now() < deadline) await sleep(20);
    replay.stop();
    expect(replay.getState().replay!.finished).toBe(true);
  });

  it('never writes the SMTP password or the credentials, even with --show-secrets', async () => {
    const file = join(dir, 'secrets.jsonl');
    const live = await recordSession(file, { showSecrets: true, token: 'tok-SECRET-123' });
    const password = live.getState().alarm.data?.smtpPassword;
    expect(password).toBeTruthy();
    expect(password).not.toBe('***');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(password!);
    expect(text).not.toContain('tok-SECRET-123');
    expect(text).toContain('"smtpPassword":"***"');
  });

  it.each([
    ['not a recording', 'hello\n', /is not a synctop recording \(its first line is not JSON\)/],
    ['another JSON file', '{"a":1}\n', /is not a synctop recording \(expected "synctop.recording\/1"/],
    ['no results', `${JSON.stringify({ schema: 'synctop.recording/1', device: 'x', intervalMs: 1000, startedAt: 'y', version: 'z' })}\n`, /holds no poll results$/],
    ['an empty file', '', /is empty: not a synctop recording/],
  ])('refuses %s with a sentence', async (name, text, message) => {
    const file = join(dir, `refused-${name.replace(/\W/g, '-')}.jsonl`);
    writeFileSync(file, text);
    await expect(loadRecording(file)).rejects.toThrow(RecordingError);
    await expect(loadRecording(file)).rejects.toThrow(message);
  });

  it('names a missing file', async () => {
    await expect(loadRecording(join(dir, 'nope.jsonl'))).rejects.toThrow(/no such file/);
  });
});

describe('an exporter recording', () => {
  it('holds every device; replay plays the one chosen with --device', async () => {
    const { runExportCommand } = await import('../../src/export/command.js');
    const a = await startSimulator({ scenario: 'healthy' });
    const b = await startSimulator({ scenario: 'ntp-unsynced' });
    cleanups.push(() => a.close(), () => b.close());
    const file = join(dir, 'fleet.jsonl');
    const sink = { write: () => true } as unknown as NodeJS.WritableStream;
    const exporter = await runExportCommand({
      urls: [a.url, b.url],
      flags: { listen: '127.0.0.1:0', interval: 0.5, record: file },
      env: {},
      stdout: sink,
      stderr: sink,
      version: 'test',
    });
    await sleep(1500);
    await exporter.close();

    const first = await loadRecording(file);
    expect(first.header.device).toBe(a.url);
    expect(Array.from({ length: first.count }, (_, i) => first.entry(i)!.device).every((d) => d === a.url)).toBe(true);
    const second = await loadRecording(file, { device: b.url });
    const replay = new ReplayController(second, 1000);
    replay.setPaused(true);
    replay.start();
    while (!replay.getState().replay!.finished) replay.step(1);
    expect(replay.getState().ntp.data?.overallStatus).toBe('Not synchronized');
    await expect(loadRecording(file, { device: 'http://elsewhere' })).rejects.toThrow(/holds no device http:\/\/elsewhere; it holds/);
    expect(readFileSync(file, 'utf8')).not.toContain('Demo-Smtp-Pa55');
  });
});
