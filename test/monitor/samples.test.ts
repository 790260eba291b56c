/**
 * Statistics over the device's measurements, not over synctop's polls (issue 17 item 12).
 * ptp4l computes its summary (rms, max, freq, delay) over servo samples: linuxptp clock.c calls
 * stats_add_value() once per clock_synchronize(), i.e. once per Sync processed, however often
 * someone reads the port. chronyd takes one sample per answered poll of a source, and lastRx is
 * the age of the newest (chronyc manual, `sources`: "LastRx ... how long ago the last good sample
 * was received"; the adjusted offset moves with later slews, the measured one does not).
 */
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/snapshot.js';
import { seriesKey } from '../../src/monitor/history.js';
import { DeviceSamples, isNewNtpSample, lastRxResolutionSeconds, ptpSampleId, type NtpSighting } from '../../src/monitor/samples.js';
import { MonitorStore } from '../../src/monitor/store.js';
import { delayStatsText, offsetStatsText } from '../../src/view/ptp-port.js';
import { SIM_WALL, simSnapshot } from './sim-snapshots.js';
import { port, source } from './snapshots.js';

describe('PTP: a sample per servo update, as ptp4l counts them', () => {
  it.each<[string, Parameters<typeof port>[0], Parameters<typeof port>[0], boolean]>([
    // lastUpdate is the device's time of the data: it advancing is a new servo sample.
    ['lastUpdate advanced', { lastUpdate: 1000 }, { lastUpdate: 1001, offsetFromMasterNs: 13 }, true],
    ['lastUpdate advanced, values repeated (a quiet servo can repeat one)', { lastUpdate: 1000 }, { lastUpdate: 1001 }, true],
    // A frozen port: the daemon hangs, the API serves its last answer. Not a sample: it must not read "sd 0ns".
    ['lastUpdate and values unchanged (frozen)', { lastUpdate: 1000 }, { lastUpdate: 1000 }, false],
    ['lastUpdate unchanged, values changed', { lastUpdate: 1000 }, { lastUpdate: 1000, offsetFromMasterNs: 13 }, false],
    ['lastUpdate in milliseconds, advanced', { lastUpdate: 1_764_000_000_000 }, { lastUpdate: 1_764_000_000_500 }, true],
    // Without lastUpdate only the servo's values tell (offset, path delay, rate offset together).
    ['no lastUpdate, offset changed', { lastUpdate: null }, { lastUpdate: null, offsetFromMasterNs: 13 }, true],
    ['no lastUpdate, rate offset changed', { lastUpdate: null }, { lastUpdate: null, cumulativeRateOffsetPpm: 0.011 }, true],
    ['no lastUpdate, all identical', { lastUpdate: null }, { lastUpdate: null }, false],
  ])('%s -> new sample: %s', (_, before, after, expected) => {
    const samples = new DeviceSamples();
    expect(samples.newPtpSamples([port(before)])).toHaveLength(1);
    expect(samples.newPtpSamples([port(after)]).length === 1).toBe(expected);
    expect(ptpSampleId(port(before)) !== ptpSampleId(port(after))).toBe(expected);
  });

  it('a port that fails in between keeps its last sample: the same data after the error is not new', () => {
    const samples = new DeviceSamples();
    samples.newPtpSamples([port({ lastUpdate: 5 })]);
    expect(samples.newPtpSamples([{ ...port(), ok: false, error: { kind: 'network', message: 'timeout' } }])).toEqual([]);
    expect(samples.newPtpSamples([port({ lastUpdate: 5 })])).toEqual([]);
    expect(samples.newPtpSamples([port({ lastUpdate: 6 })])).toHaveLength(1);
  });
});

describe('NTP: a sample per answered poll of the source, as chronyd takes them', () => {
  const seen = (at: number, lastRxSeconds: number | null, sample = '[1,2]'): NtpSighting => ({ at: at * 1000, lastRxSeconds, sample });
  it.each<[string, NtpSighting, NtpSighting, boolean]>([
    ['lastRx grows by the time between answers (no reception)', seen(100, 9), seen(102, 11), false],
    ['lastRx the same one second later (whole seconds, truncated)', seen(100, 9), seen(101, 9), false],
    ['lastRx fell: chronyd received', seen(100, 15), seen(102, 1), true],
    ['lastRx fell by one only', seen(100, 15), seen(100.5, 14), true],
    // synctop slower than chronyd: lastRx is small each time, the reception it implies moved on.
    ['answers 60 s apart, lastRx 3 both times', seen(100, 3), seen(160, 3), true],
    ['answers 60 s apart, lastRx 50 then 54: received 56 s later', seen(100, 50), seen(160, 54), true],
    // chronyc prints minutes from 1024 s on: a reception time read from "20m" wanders by a minute.
    ['lastRx in minutes, 30 s later, same minute', seen(100, 1200), seen(130, 1200), false],
    ['lastRx in minutes, 59 s later, one minute more', seen(100, 1200), seen(159, 1260), false],
    // No readable lastRx ("-", the sample text in lastRx): the measurement itself.
    ['no lastRx, same measurement', seen(100, null), seen(102, null), false],
    ['no lastRx, new measurement', seen(100, null), seen(102, null, '[3,2]'), true],
  ])('%s -> new sample: %s', (_, before, after, expected) => {
    expect(isNewNtpSample(before, after)).toBe(expected);
  });

  it.each([
    [0, 1],
    [1024, 1],
    [1025, 60],
    [36_000, 60],
    [36_060, 3600],
    [400_000, 86_400],
    [50_000_000, 31_536_000],
  ])('lastRx %is is read to %is', (lastRx, resolution) => {
    expect(lastRxResolutionSeconds(lastRx)).toBe(resolution);
  });

  it('the adjusted offset moving with a slew is not a new sample; the measured one is', () => {
    const samples = new DeviceSamples();
    const src = (over: Parameters<typeof source>[0]) => source({ lastRxSeconds: null, ...over });
    expect(samples.newNtpSamples([src({ offsetNs: 12_000 })], 0)).toHaveLength(1);
    expect(samples.newNtpSamples([src({ offsetNs: 10_000 })], 2000)).toEqual([]);
    expect(samples.newNtpSamples([src({ measuredOffsetNs: 16_000 })], 4000)).toHaveLength(1);
  });
});

/** A store polled every `stepS` device seconds from 0 to `untilS`, and the snapshots it was shown. */
function poll(name: Parameters<typeof simSnapshot>[0], untilS: number, stepS: number) {
  const store = new MonitorStore('sim', stepS * 1000);
  const snaps: Snapshot[] = [];
  const times: number[] = [];
  for (let t = 0; t <= untilS; t += stepS) {
    const snap = simSnapshot(name, t);
    snaps.push(snap);
    times.push(t);
    store.applySnapshot(snap, SIM_WALL + t * 1000);
  }
  return { store, snaps, times, history: store.getState().history };
}

const ptpPort0 = (s: Snapshot) => (s.ptp.ok ? s.ptp.data.ports.find((p) => p.id === 0) : undefined)!;
const ntpSource = (s: Snapshot, name: string) => (s.ntp.ok ? s.ntp.data.sources.find((x) => x.name === name) : undefined)!;

describe('the store samples the simulated device as it measures', () => {
  it('PTP polled every 0.5 s: one sample per lastUpdate, none while the daemon hangs (frozen-ptp)', () => {
    // The simulator's servo takes a sample a second; its daemon hangs from 8 s to 24 s.
    const { snaps, history } = poll('frozen-ptp', 30, 0.5);
    const updates = new Set(snaps.map((s) => ptpPort0(s).lastUpdate));
    expect(history.get(seriesKey.ptpOffset(0))!.length).toBe(updates.size);
    expect(history.get(seriesKey.ptpDelay(0))!.length).toBe(updates.size);
    expect(updates.size).toBeLessThan(snaps.length / 2);
  });

  it('a frozen port keeps the statistics of its last real samples, never "sd 0ns"', () => {
    const before = poll('frozen-ptp', 9, 0.5).history;
    const during = poll('frozen-ptp', 23, 0.5).history;
    const stats = (h: typeof before) => offsetStatsText(h.get(seriesKey.ptpOffset(0))!.recent(60), false);
    const delays = (h: typeof before) => delayStatsText(h.get(seriesKey.ptpDelay(0))!.recent(60), false);
    // 14 s of the same answer add nothing: the summary is the one the last live samples gave.
    expect(stats(during)).toBe(stats(before));
    expect(delays(during)).toBe(delays(before));
    expect(stats(during)).not.toMatch(/sd 0ns/);
  });

  it('NTP polled every second: the offset series has one value per measurement chronyd made', () => {
    const { snaps, times, history } = poll('healthy', 120, 1);
    for (const name of ['GPS', '10.20.0.11']) {
      // Polled at whole seconds, answer time - lastRx (whole seconds, truncated) names each reception once.
      const measurements = new Set(snaps.map((s, i) => times[i]! - ntpSource(s, name).lastRxSeconds!));
      expect(history.get(seriesKey.ntpOffset(name))!.length).toBe(measurements.size);
      expect(measurements.size).toBeLessThan(snaps.length / 4);
    }
  });
});
