import { describe, expect, it } from 'vitest';
import type { RawNtpSource, RawNtpStatus } from '../../src/api/schemas.js';
import { ntpStatusSchema } from '../../src/api/schemas.js';
import { normalizeNtp, normalizeNtpSource } from '../../src/model/ntp.js';
import { hasUnsafeCharacters } from '../../src/model/sanitize.js';
import { ntpDataSchema } from '../../src/model/snapshot.js';

/** Shaped like the device's own sample, including the source whose sample sits in lastRx. */
const sample: RawNtpStatus = ntpStatusSchema.parse({
  overallStatus: 'Synchronized',
  syncSourceName: '192.168.1.10',
  sourceCount: 3,
  sources: [
    {
      nameIp: '192.168.1.10',
      mode: 'Server',
      state: 'Best source',
      isSyncSource: true,
      stratum: 1,
      poll: 6,
      reach: '377',
      lastRx: '12',
      lastSample: '+12us[ +15us] +/-  120us',
    },
    {
      nameIp: 'ntp.example.org',
      mode: 'Server',
      state: 'Selectable',
      isSyncSource: false,
      stratum: 2,
      poll: 10,
      reach: '177',
      lastRx: '-1234ns[-1300ns] +/- 5ms',
    },
    { nameIp: '[::ffff:10.0.0.1]', mode: 'Peer', state: 'Not selectable', isSyncSource: false, stratum: 16, poll: 4, reach: '000', lastRx: '4294967295', lastSample: '+0ns[+0ns] +/- 0ns' },
  ],
});

describe('normalizeNtp', () => {
  it('normalizes the sample-shaped status', () => {
    const data = normalizeNtp(sample);
    expect(ntpDataSchema.parse(data)).toEqual(data);
    expect(data.overallStatus).toBe('Synchronized');
    expect(data.syncSource).toBe('192.168.1.10');
    expect(data.sourceCount).toBe(3);
    expect(data.sources).toEqual([
      {
        name: '192.168.1.10',
        mode: 'Server',
        state: 'Best source',
        isSyncSource: true,
        stratum: 1,
        pollSeconds: 64,
        reach: '377',
        reachCount: 8,
        lastRxSeconds: 12,
        offsetNs: 12000,
        measuredOffsetNs: 15000,
        errorNs: 120000,
      },
      {
        name: 'ntp.example.org',
        mode: 'Server',
        state: 'Selectable',
        isSyncSource: false,
        stratum: 2,
        pollSeconds: 1024,
        reach: '177',
        reachCount: 7,
        // The sample sat in lastRx: the reception age is unknown, not zero.
        lastRxSeconds: null,
        offsetNs: -1234,
        measuredOffsetNs: -1300,
        errorNs: 5000000,
      },
      {
        name: '[::ffff:10.0.0.1]',
        mode: 'Peer',
        state: 'Not selectable',
        isSyncSource: false,
        stratum: 16,
        pollSeconds: 16,
        reach: '000',
        reachCount: 0,
        lastRxSeconds: null,
        offsetNs: 0,
        measuredOffsetNs: 0,
        errorNs: 0,
      },
    ]);
  });

  it.each<[string | null | undefined, string | null]>([
    ['None', null],
    ['none', null],
    ['', null],
    ['  ', null],
    [null, null],
    [undefined, null],
    ['GPS', 'GPS'],
    ['\x1b]0;t\x07x', '\\x1b]0;t\\x07x'],
  ])('syncSourceName %j -> syncSource %j', (name, expected) => {
    expect(normalizeNtp({ syncSourceName: name }).syncSource).toBe(expected);
  });

  it('gives an empty source list and nulls for an empty object', () => {
    expect(normalizeNtp({})).toEqual({ overallStatus: null, syncSource: null, sourceCount: null, sources: [] });
  });
});

describe('normalizeNtpSource', () => {
  it.each<[string, RawNtpSource, Partial<ReturnType<typeof normalizeNtpSource>>]>([
    ['state Best source without the flag', { state: 'Best source', isSyncSource: false }, { isSyncSource: true }],
    ['flag without the state', { state: 'Combined with best', isSyncSource: true }, { isSyncSource: true }],
    ['neither', { state: 'False ticker' }, { isSyncSource: false, state: 'False ticker' }],
    ['unknown state passes through sanitized', { state: 'Weird\u202E' }, { state: 'Weird\\u{202E}' }],
    ['numeric reach becomes octal text', { reach: 255 }, { reach: '377', reachCount: 8 }],
    ['numeric reach 7', { reach: 7 }, { reach: '007', reachCount: 3 }],
    ['bad text reach kept as sent', { reach: '8' }, { reach: '8', reachCount: null }],
    ['missing reach', {}, { reach: null, reachCount: null }],
    ['lastRx in minutes', { lastRx: '5m' }, { lastRxSeconds: 300 }],
    ['lastRx dash', { lastRx: '-' }, { lastRxSeconds: null }],
    ['empty lastSample falls back to a sample in lastRx', { lastSample: '', lastRx: '+1ms +/- 2ms' }, { lastRxSeconds: null, offsetNs: 1000000, errorNs: 2000000 }],
    ['lastSample present and lastRx plain', { lastSample: '-3ms[-3ms] +/- 9ms', lastRx: '64' }, { lastRxSeconds: 64, offsetNs: -3000000 }],
    ['unreadable lastSample', { lastSample: 'garbage' }, { offsetNs: null, measuredOffsetNs: null, errorNs: null }],
    ['poll out of range', { poll: 99 }, { pollSeconds: null }],
    ['negative poll', { poll: -2 }, { pollSeconds: 0.25 }],
    ['missing name', {}, { name: '' }],
    ['hostile name', { nameIp: 'a\x1b[2Jb' }, { name: 'a\\x1b[2Jb' }],
    ['blank mode is null', { mode: '' }, { mode: null }],
  ])('%s', (_name, raw, expected) => {
    const source = normalizeNtpSource(raw);
    expect(source).toMatchObject(expected);
    for (const value of Object.values(source)) {
      if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
      if (typeof value === 'string') expect(hasUnsafeCharacters(value)).toBe(false);
    }
  });
});
