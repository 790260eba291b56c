import { describe, expect, it } from 'vitest';
import type { RawGnssReceiver } from '../../src/api/schemas.js';
import { gnssListSchema } from '../../src/api/schemas.js';
import { normalizeGnss, normalizeGnssReceiver } from '../../src/model/gnss.js';
import { gnssDataSchema } from '../../src/model/snapshot.js';

/** Shaped like the device's sample: a working receiver, then a standby one missing most fields. */
const sampleList = gnssListSchema.parse([
  {
    id: 0,
    status: 'working',
    position: { latitude: "22.543'N", longitude: '113.95"E', altitude: 35.2, hdop: 0.8, vdop: 1.1, pdop: 1.4 },
    utcDate: '2026-11-22 03:04:05',
    utcTime: '2026-11-22 03:04:05',
    gpsLeapSecond: 18,
    bdsLeapSecond: 4,
    antStatus: 'normal',
    indicatorValid: 'valid',
    signal: [
      { type: 'gps', active: 1, count: 9 },
      { type: 'glonass', active: 1, count: 6 },
      { type: 'bds', active: 1, count: 12 },
      { type: 'galileo', active: 1, count: 5 },
    ],
  },
  {
    id: 1,
    status: 'standby',
    position: { latitude: "22.543'N", longitude: '113.95"E', altitude: 35.2 },
    signal: [{ type: 'gps', active: 1, count: 0 }],
  },
]);

describe('normalizeGnss', () => {
  it('normalizes the sample-shaped list', () => {
    const data = normalizeGnss(sampleList);
    expect(gnssDataSchema.parse(data)).toEqual(data);
    expect(data.receivers).toEqual([
      {
        id: 0,
        status: 'working',
        antenna: 'normal',
        ppsValid: true,
        latitudeDeg: 22.543,
        longitudeDeg: 113.95,
        altitudeM: 35.2,
        hdop: 0.8,
        vdop: 1.1,
        pdop: 1.4,
        utc: '2026-11-22T03:04:05.000Z',
        gpsLeapSeconds: 18,
        bdsLeapSeconds: 4,
        satellites: { gps: 9, glonass: 6, bds: 12, galileo: 5 },
        satellitesTotal: 32,
      },
      {
        // Standby: what it omits is null, not zero; what it sends (a count of 0) stays 0.
        id: 1,
        status: 'standby',
        antenna: null,
        ppsValid: null,
        latitudeDeg: 22.543,
        longitudeDeg: 113.95,
        altitudeM: 35.2,
        hdop: null,
        vdop: null,
        pdop: null,
        utc: null,
        gpsLeapSeconds: null,
        bdsLeapSeconds: null,
        satellites: { gps: 0, glonass: null, bds: null, galileo: null },
        satellitesTotal: 0,
      },
    ]);
  });

  it('gives an empty receiver list for an empty array', () => {
    expect(normalizeGnss([])).toEqual({ receivers: [] });
  });
});

describe('normalizeGnssReceiver', () => {
  it.each<[string, RawGnssReceiver, Partial<ReturnType<typeof normalizeGnssReceiver>>]>([
    ['ppsValid valid', { ppsValid: 'valid' }, { ppsValid: true }],
    ['ppsValid invalid', { ppsValid: 'invalid' }, { ppsValid: false }],
    ['indicatorValid invalid', { indicatorValid: 'invalid' }, { ppsValid: false }],
    ['ppsValid unknown text, indicatorValid decides', { ppsValid: '?', indicatorValid: 'valid' }, { ppsValid: true }],
    ['ppsValid with case and spaces', { ppsValid: ' Valid ' }, { ppsValid: true }],
    ['neither flag', {}, { ppsValid: null }],
    ['unknown flag text', { ppsValid: 'yes' }, { ppsValid: null }],
    ['declared date and time', { utcDate: '2026-11-22', utcTime: '03:04:05.123' }, { utc: '2026-11-22T03:04:05.123Z' }],
    ['garbage date', { utcDate: 'x', utcTime: 'y' }, { utc: null }],
    ['southern and western', { position: { latitude: "33.9'S", longitude: "151.2'W" } }, { latitudeDeg: -33.9, longitudeDeg: -151.2 }],
    ['numeric coordinates', { position: { latitude: -33.9, longitude: 151.2 } }, { latitudeDeg: -33.9, longitudeDeg: 151.2 }],
    ['unreadable coordinates', { position: { latitude: 'NaN', longitude: '' } }, { latitudeDeg: null, longitudeDeg: null }],
    ['no signal list', {}, { satellites: { gps: null, glonass: null, bds: null, galileo: null }, satellitesTotal: null }],
    [
      'aliases, unknown types and bad counts',
      {
        signal: [
          { type: 'BeiDou', count: 7 },
          { type: 'GPS', count: -3 },
          { type: 'qzss', count: 2 },
          { type: 'gal', count: 4 },
          { type: 'gal', count: 9 },
          { type: null, count: 1 },
        ],
      },
      { satellites: { gps: null, glonass: null, bds: 7, galileo: 4 }, satellitesTotal: 11 },
    ],
    ['hostile antenna text', { antStatus: '\x1b]52;c;eA==\x07' }, { antenna: '\\x1b]52;c;eA==\\x07' }],
    ['unknown status passes through', { status: 'rebooting' }, { status: 'rebooting' }],
  ])('%s', (_name, raw, expected) => {
    expect(normalizeGnssReceiver(raw)).toMatchObject(expected);
  });
});
