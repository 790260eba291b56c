/**
 * Every fixture goes through the client's decode() with the operation it belongs to: success
 * fixtures must decode to data, error fixtures to the device error they carry. The table below
 * must name every file in fixtures/, so a new fixture cannot be forgotten.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/api/client.js';
import type { OperationName } from '../../src/api/endpoints.js';

const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const read = (file: string) => readFileSync(dir + file, 'utf8');

type Expect = { op: OperationName; ok: true } | { op: OperationName; ok: false; code: string };

const fixtures: Record<string, Expect> = {
  'ntp-healthy.json': { op: 'ntp', ok: true },
  'ntp-unsynced.json': { op: 'ntp', ok: true },
  'ntp-sample-in-lastrx.json': { op: 'ntp', ok: true },
  'ntp-lastrx-never.json': { op: 'ntp', ok: true },
  'ntp-ipv6-bracketed.json': { op: 'ntp', ok: true },
  'ntp-no-sources.json': { op: 'ntp', ok: true },
  'ntp-after-reboot.json': { op: 'ntp', ok: true },
  'ntp-extra-fields.json': { op: 'ntp', ok: true },
  'gnss-healthy.json': { op: 'gnss', ok: true },
  'gnss-single-by-id.json': { op: 'gnss', ok: true },
  'gnss-indicatorvalid.json': { op: 'gnss', ok: true },
  'gnss-combined-datetime.json': { op: 'gnss', ok: true },
  'gnss-standby-minimal.json': { op: 'gnss', ok: true },
  'gnss-antenna-open.json': { op: 'gnss', ok: true },
  'gnss-seed-sample.json': { op: 'gnss', ok: true },
  'alarm-healthy.json': { op: 'alarm', ok: true },
  'alarm-optional-missing.json': { op: 'alarm', ok: true },
  'ptp-healthy.json': { op: 'ptp', ok: true },
  'ptp-port1.json': { op: 'ptp', ok: true },
  'ptp-acquiring.json': { op: 'ptp', ok: true },
  'ptp-lost.json': { op: 'ptp', ok: true },
  'ptp-fractional-variance.json': { op: 'ptp', ok: true },
  'error-40000.json': { op: 'gnss', ok: false, code: '40000' },
  'error-40003.json': { op: 'gnss', ok: false, code: '40003' },
  'error-40004.json': { op: 'ptp', ok: false, code: '40004' },
  'error-40007.json': { op: 'ntp', ok: false, code: '40007' },
  'error-unknown.json': { op: 'alarm', ok: false, code: '50012' },
  'hostile-strings-ntp.json': { op: 'ntp', ok: true },
  'hostile-strings-gnss.json': { op: 'gnss', ok: true },
  'hostile-strings-alarm.json': { op: 'alarm', ok: true },
  'hostile-strings-ptp.json': { op: 'ptp', ok: true },
};

describe('fixtures', () => {
  it('lists every fixture file, and every listed file exists and is documented', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(Object.keys(fixtures).sort());
    const readme = read('README.md');
    for (const file of files) expect(readme).toContain(`| ${file} |`);
  });

  it.each(Object.entries(fixtures))('%s decodes as expected', (file, expected) => {
    const result = decode(expected.op, read(file));
    if (expected.ok) {
      expect(result).toMatchObject({ ok: true });
    } else {
      expect(result).toMatchObject({ ok: false, error: { kind: 'device', code: expected.code } });
    }
  });
});

describe('fixture contents', () => {
  const data = (file: string) => (JSON.parse(read(file)) as { data: unknown }).data;

  it('the sample-in-lastRx source has no lastSample and an offset text in lastRx', () => {
    const sources = (data('ntp-sample-in-lastrx.json') as { sources: Array<Record<string, unknown>> }).sources;
    const odd = sources.filter((s) => !('lastSample' in s));
    expect(odd).toHaveLength(1);
    expect(odd[0]?.lastRx).toMatch(/^[+-]\d+(ns|us|ms|s)\[\s*[+-]\d+(ns|us|ms|s)\] \+\/-\s+\d+(ns|us|ms|s)$/);
  });

  it('indicatorValid replaces ppsValid, and the combined date-time fills both fields', () => {
    const [withIndicator] = data('gnss-indicatorvalid.json') as Array<Record<string, unknown>>;
    expect(withIndicator).toHaveProperty('indicatorValid');
    expect(withIndicator).not.toHaveProperty('ppsValid');
    const [combined] = data('gnss-combined-datetime.json') as Array<Record<string, unknown>>;
    expect(combined?.utcDate).toBe(combined?.utcTime);
    expect(combined?.utcDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('the standby receiver omits what the documented sample omits', () => {
    const [standby] = data('gnss-standby-minimal.json') as Array<Record<string, unknown>>;
    for (const field of ['utcDate', 'utcTime', 'gpsLeapSecond', 'bdsLeapSecond', 'antStatus', 'ppsValid', 'indicatorValid']) {
      expect(standby).not.toHaveProperty(field);
    }
    expect(standby?.position).not.toHaveProperty('hdop');
  });

  it('error envelopes carry the documented message keys and showTypes', () => {
    expect(JSON.parse(read('error-40000.json'))).toEqual({ success: false, errorCode: '40000', errorMessage: 'no.blank.params', showType: 4 });
    expect(JSON.parse(read('error-40003.json'))).toEqual({ success: false, errorCode: '40003', errorMessage: 'gnss.no.device' });
    expect(JSON.parse(read('error-40004.json'))).toEqual({ success: false, errorCode: '40004', errorMessage: 'ptp.not.found', showType: 4 });
    expect(JSON.parse(read('error-unknown.json'))).toMatchObject({ errorMessage: 'unknown.error', showType: 9 });
  });

  it('the hostile fixtures really carry escape sequences and a bidi override', () => {
    const text = ['ntp', 'gnss', 'alarm', 'ptp'].map((op) => JSON.stringify(data(`hostile-strings-${op}.json`))).join('');
    expect(text).toContain('\\u001b]0;PWNED\\u0007');
    expect(text).toContain('\\u001b]52;c;');
    expect(text).toContain('\\u001b[2J');
    expect(text).toContain('\u202e');
  });
});
