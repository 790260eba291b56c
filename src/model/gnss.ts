/**
 * GNSS receivers: raw device data -> GnssData. A standby receiver omits most fields: what is
 * missing stays null, never 0.
 */
import type { RawGnssList, RawGnssReceiver } from '../api/schemas.js';
import { sanitizeLabel } from './sanitize.js';
import type { GnssData, GnssReceiver } from './snapshot.js';
import { finiteOrNull, parseCoordinate, parseUtc } from './units.js';
import { lookupTable } from './lookup.js';

type Constellation = keyof GnssReceiver['satellites'];

/** Signal type names as sent (lower-cased) -> constellation; aliases seen in receiver firmwares. */
const constellationOf = lookupTable<Constellation>({
  gps: 'gps',
  glonass: 'glonass',
  glo: 'glonass',
  bds: 'bds',
  beidou: 'bds',
  bd: 'bds',
  galileo: 'galileo',
  gal: 'galileo',
});

const constellations: readonly Constellation[] = ['gps', 'glonass', 'bds', 'galileo'];

/** Values of ppsValid / indicatorValid. */
const validity = lookupTable<boolean>({ valid: true, invalid: false });

export function normalizeGnss(raw: RawGnssList): GnssData {
  return { receivers: raw.map(normalizeGnssReceiver) };
}

export function normalizeGnssReceiver(raw: RawGnssReceiver): GnssReceiver {
  const position = raw.position ?? {};
  const satellites = countSatellites(raw.signal ?? []);
  return {
    id: finiteOrNull(raw.id),
    status: sanitizeLabel(raw.status),
    antenna: sanitizeLabel(raw.antStatus),
    // Which of the two flags a receiver sends is not documented: take whichever decodes.
    ppsValid: decodeValidity(raw.ppsValid) ?? decodeValidity(raw.indicatorValid),
    latitudeDeg: parseCoordinate(position.latitude, 'lat'),
    longitudeDeg: parseCoordinate(position.longitude, 'lon'),
    altitudeM: finiteOrNull(position.altitude),
    hdop: finiteOrNull(position.hdop),
    vdop: finiteOrNull(position.vdop),
    pdop: finiteOrNull(position.pdop),
    utc: parseUtc(raw.utcDate, raw.utcTime),
    gpsLeapSeconds: finiteOrNull(raw.gpsLeapSecond),
    bdsLeapSeconds: finiteOrNull(raw.bdsLeapSecond),
    satellites,
    satellitesTotal: sumPresent(constellations.map((c) => satellites[c])),
  };
}

function decodeValidity(flag: string | null | undefined): boolean | null {
  if (typeof flag !== 'string') return null;
  return validity[flag.trim().toLowerCase()] ?? null;
}

/**
 * Satellites per constellation. When a constellation appears twice (per-band entries), the first
 * readable count is taken: adding them would count the same satellites twice.
 */
function countSatellites(signals: NonNullable<RawGnssReceiver['signal']>): GnssReceiver['satellites'] {
  const counts: GnssReceiver['satellites'] = { gps: null, glonass: null, bds: null, galileo: null };
  for (const signal of signals) {
    const constellation = constellationOf[(signal.type ?? '').trim().toLowerCase()];
    const count = finiteOrNull(signal.count);
    if (constellation === undefined || count === null || count < 0 || counts[constellation] !== null) continue;
    counts[constellation] = count;
  }
  return counts;
}

function sumPresent(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}
