import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { textReport } from '../../src/report/text.js';
import { edited, healthy } from '../monitor/snapshots.js';

const FP = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

describe('textReport', () => {
  it('shows every section of a healthy device, no escape without color', () => {
    const text = textReport(healthy(), { color: false, ascii: false, width: 100 });
    for (const heading of ['NTP', 'GNSS', 'PTP', 'Alarm e-mail']) expect(text).toMatch(new RegExp(`^${heading}$`, 'm'));
    expect(text).toMatch(/^health {2}OK$/m);
    expect(text).toContain('001122.fffe.334455');
    expect(text).not.toContain('\x1b');
    for (const line of text.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(100);
  });

  it('colors with color on', () => {
    expect(textReport(healthy(), { color: true, ascii: false, width: 100 })).toMatch(/\x1b\[\d+m/);
  });

  it('wraps an error sentence instead of cutting it: the fingerprint survives', () => {
    const message = `the device presents a self-signed certificate; its SHA-256 fingerprint is ${FP} (pin it with --pin-sha256); pass --ca FILE with the device's CA, or --insecure to skip verification`;
    const down = { ok: false as const, error: { kind: 'network' as const, code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message } };
    const snap = edited((s) => {
      s.ntp = down;
      s.gnss = down;
      s.ptp = down;
      s.alarm = down;
    });
    const text = textReport(snap, { color: false, ascii: true, width: 60 });
    expect(text).toContain(FP);
    expect(text.replace(/\n\s+/g, ' ')).toContain('or --insecure to skip verification');
    for (const line of text.split('\n')) if (!line.includes(FP)) expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });
});
