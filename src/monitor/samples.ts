/**
 * Which answers carry a new measurement. synctop polls the device at its own rate; the device
 * measures at its own: a PTP servo takes a sample per Sync it processes (ptp4l's summary line is
 * computed over these servo samples), chronyd one per answered poll of a source. A history that
 * took every answer as a sample would repeat the device's last value: a frozen port would show
 * "sd 0ns" as perfect lock, and an NTP spread "over 30 polls" would be 4 of chrony's samples
 * counted many times over. So the offset and path delay series take a value only when the
 * device's data for it changed. Pure decisions, and a small memory of the last answer per item.
 */
import type { NtpSource, PtpPort } from '../model/snapshot.js';

/**
 * What identifies a port's sample: its `lastUpdate` (the device's time of the data); without
 * one, the servo's values themselves (offset, path delay, rate offset), which a live servo
 * never repeats all at once (README, "Frozen data").
 */
export function ptpSampleId(port: PtpPort): string {
  if (port.lastUpdate !== null) return `lastUpdate ${port.lastUpdate}`;
  return `servo ${JSON.stringify([port.offsetFromMasterNs, port.meanPathDelayNs, port.cumulativeRateOffsetPpm])}`;
}

/** An NTP source as one answer showed it: enough to tell whether chronyd received since. */
export interface NtpSighting {
  /** Epoch ms of the answer. */
  at: number;
  lastRxSeconds: number | null;
  /** The measurement, for sources without a readable lastRx. */
  sample: string;
}

export function ntpSighting(src: NtpSource, at: number): NtpSighting {
  // chrony's adjusted offset moves with every slew of the local clock after the measurement
  // (chronyc manual, `sources`): only the measured offset and the error are the sample itself.
  const offset = src.measuredOffsetNs ?? src.offsetNs;
  return { at, lastRxSeconds: src.lastRxSeconds, sample: JSON.stringify([offset, src.errorNs]) };
}

/** Slack for the time an answer takes to reach synctop, besides lastRx's own resolution. */
const TRANSIT_SLACK_MS = 1_000;

/**
 * The resolution of a lastRx, in seconds: chronyc prints whole seconds up to 1024, then whole
 * minutes, hours, days and years (the same steps as the simulator's formatLastRx).
 */
const lastRxSteps: readonly (readonly [upTo: number, resolution: number])[] = [
  [1_024, 1],
  [36_000, 60],
  [345_600, 3_600],
  [44_236_800, 86_400],
  [Number.POSITIVE_INFINITY, 31_536_000],
];

export function lastRxResolutionSeconds(lastRxSeconds: number): number {
  return (lastRxSteps.find(([upTo]) => lastRxSeconds <= upTo) ?? lastRxSteps[lastRxSteps.length - 1]!)[1];
}

/**
 * Whether chronyd received from the source between two answers: its lastRx fell (only a new
 * reception resets the age), or the time of reception it implies (answer time - lastRx) moved
 * later by more than lastRx's resolution (several receptions between two answers, when synctop
 * polls slower than chronyd). Without a readable lastRx: the measurement changed.
 */
export function isNewNtpSample(prev: NtpSighting | undefined, next: NtpSighting): boolean {
  if (!prev) return true;
  if (prev.lastRxSeconds === null || next.lastRxSeconds === null) return prev.sample !== next.sample;
  if (next.lastRxSeconds < prev.lastRxSeconds) return true;
  const receivedBefore = prev.at - prev.lastRxSeconds * 1000;
  const receivedNow = next.at - next.lastRxSeconds * 1000;
  return receivedNow - receivedBefore > lastRxResolutionSeconds(next.lastRxSeconds) * 1000 + TRANSIT_SLACK_MS;
}

/**
 * The last answer seen per PTP port and NTP source. Each section's answer replaces that
 * section's memory whole, so it holds no more items than the latest answer (device data is
 * bounded upstream: 256 sources, the ports asked).
 */
export class DeviceSamples {
  private ports = new Map<number, string>();
  private sources = new Map<string, NtpSighting>();

  /** The ports of one answer whose data is new since the previous answer. */
  newPtpSamples(ports: readonly PtpPort[]): PtpPort[] {
    const next = new Map<number, string>();
    const fresh = ports.filter((p) => {
      if (!p.ok) {
        // A port that failed this time keeps what its last good answer showed.
        const kept = this.ports.get(p.id);
        if (kept !== undefined) next.set(p.id, kept);
        return false;
      }
      const id = ptpSampleId(p);
      next.set(p.id, id);
      return this.ports.get(p.id) !== id;
    });
    this.ports = next;
    return fresh;
  }

  /** The sources of one answer that chronyd received from since the previous answer. */
  newNtpSamples(sources: readonly NtpSource[], at: number): NtpSource[] {
    const next = new Map<string, NtpSighting>();
    const fresh = sources.filter((src) => {
      const seen = ntpSighting(src, at);
      const isNew = isNewNtpSample(this.sources.get(src.name), seen);
      next.set(src.name, seen);
      return isNew;
    });
    this.sources = next;
    return fresh;
  }
}
