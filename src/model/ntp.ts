/**
 * NTP input sources: raw device data -> NtpData. Mirrors chrony's `chronyc sources`.
 */
import type { RawNtpSource, RawNtpStatus } from '../api/schemas.js';
import { sanitizeLabel, sanitizeOptional } from './sanitize.js';
import type { NtpData, NtpSource } from './snapshot.js';
import { finiteOrNull, looksLikeSample, parseLastRxSeconds, parseLastSample, pollSeconds, reachCount, reachText } from './units.js';

/** The state chrony marks with `*`; the spec says isSyncSource is true exactly then. */
const BEST_SOURCE = 'best source';

/** What the device writes in syncSourceName when it follows no source. */
const NO_SOURCE = 'none';

export function normalizeNtp(raw: RawNtpStatus): NtpData {
  return {
    overallStatus: sanitizeLabel(raw.overallStatus),
    syncSource: syncSourceName(raw.syncSourceName),
    sourceCount: finiteOrNull(raw.sourceCount),
    sources: (raw.sources ?? []).map(normalizeNtpSource),
  };
}

function syncSourceName(name: string | null | undefined): string | null {
  const label = sanitizeLabel(name);
  return label === null || label.toLowerCase() === NO_SOURCE ? null : label;
}

export function normalizeNtpSource(raw: RawNtpSource): NtpSource {
  const { sampleText, lastRxText } = splitSampleAndRx(raw);
  const sample = parseLastSample(sampleText);
  const state = sanitizeLabel(raw.state);
  return {
    // A bracketed IPv6-mapped address is kept as sent: it is how the device names the source.
    name: sanitizeOptional(raw.nameIp) ?? '',
    mode: sanitizeLabel(raw.mode),
    state,
    isSyncSource: raw.isSyncSource === true || state?.toLowerCase() === BEST_SOURCE,
    stratum: finiteOrNull(raw.stratum),
    pollSeconds: pollSeconds(raw.poll),
    // Text is kept as sent (the view shows what came); a number becomes the octal text.
    reach: typeof raw.reach === 'string' ? sanitizeLabel(raw.reach) : reachText(raw.reach),
    reachCount: reachCount(raw.reach),
    lastRxSeconds: parseLastRxSeconds(lastRxText),
    offsetNs: sample.offsetNs,
    measuredOffsetNs: sample.measuredOffsetNs,
    errorNs: sample.errorNs,
  };
}

/**
 * The spec's irregularity: one source of the device's own sample lacks lastSample and carries
 * that text in lastRx. Then lastRx holds no reception age at all, so its age is unknown.
 */
function splitSampleAndRx(raw: RawNtpSource): { sampleText: string | null; lastRxText: string | null } {
  const sample = raw.lastSample?.trim() ? raw.lastSample : null;
  const rx = raw.lastRx ?? null;
  if (sample === null && rx !== null && looksLikeSample(rx)) return { sampleText: rx, lastRxText: null };
  return { sampleText: sample, lastRxText: rx };
}
