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

  // IEEE 1588-2008 11.3: meanPathDelay is the mean of the two one-way delays, a magnitude.
  it.each<[number, string]>([
    [850, '850ns'],
    [1180, '1.18µs'],
    [-120, '-120ns'],
  ])('--once prints a path delay of %i ns as %s in the table and the detail: no "+", a negative keeps its "-"', (ns, text) => {
    const report = textReport(edited((s) => s.ptp.ok && (s.ptp.data.ports[0]!.meanPathDelayNs = ns)), { color: false, ascii: false, width: 100 });
    expect(report).toMatch(new RegExp(`^0 +\\* STABLE +\\+12ns +${text.replace('+', '\\+')} 001122`, 'm'));
    expect(report).toMatch(new RegExp(`^port 0\\n  path delay +${text}$`, 'm'));
  });

  // chronyc shows poll as log2 (10 = 1024 s): the report shows the seconds, not "17m".
  it('--once prints the NTP poll interval in seconds', () => {
    const report = textReport(edited((s) => s.ntp.ok && (s.ntp.data.sources[0]!.pollSeconds = 1024)), { color: false, ascii: false, width: 100 });
    expect(report).toMatch(/^\* ◆ GPS .* 1024s ●/m);
  });
});
