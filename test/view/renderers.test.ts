import type { GnssReceiver } from '../../src/model/snapshot.js';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { lineText } from '../../src/view/cell.js';
import { alarmFields, senderText } from '../../src/view/alarm.js';
import { gnssReceiverFields, gnssReceiverTabLines, gnssSatelliteLines } from '../../src/view/gnss-receiver.js';
import { headerLines, healthLine, outageBanner } from '../../src/view/header.js';
import { ntpLegendLine, ntpSourceRow, ntpStatusLine, plusMinus, reachMarks, reachToken } from '../../src/view/ntp-source.js';
import { clockAccuracyText, clockClassText, delayStatsText, ptpPortDetail, ptpPortRow } from '../../src/view/ptp-port.js';
import { sectionAge, sectionErrorLines } from '../../src/view/section.js';
import { sparkline } from '../../src/view/sparkline.js';
import { sectionSummary } from '../../src/view/summary.js';
import { verdictLine, verdictParts } from '../../src/view/verdict.js';
import { asciiGlyphs, offsetLimits, offsetToken, unicodeGlyphs } from '../../src/view/theme.js';
import { clipText, firstWrappedLines, fitLine, padText, shortenMiddle, wrapLine, wrapValue } from '../../src/view/fit.js';
import { cutsIdentity, layoutColumns, placeText, scrollWindow } from '../../src/view/table-layout.js';
import { gridLines, gridShape, pairLines, wrappedGridRows } from '../../src/ui/widgets/FieldGrid.js';
import { cell } from '../../src/view/cell.js';
import {
  NOW,
  emptyState,
  gnssNoReceiverState,
  healthyAlarm,
  healthyState,
  irregularState,
  ntpSource,
  ptpAuthRefusedState,
  ptpPort,
  receiver,
  unreachableState,
} from '../ui/fixtures.js';

const uni = { ascii: false, glyphs: unicodeGlyphs };
const asc = { ascii: true, glyphs: asciiGlyphs };

describe('sparkline', () => {
  it.each([
    { values: [1, 2, 3, 4, 5, 6, 7, 8], width: 8, ramp: '▁▂▃▄▅▆▇█', want: '▁▂▃▄▅▆▇█' },
    { values: [5, 5, 5], width: 8, ramp: '▁▂▃▄▅▆▇█', want: '▄▄▄' },
    { values: [0, null, 10], width: 8, ramp: ' .:-=+*#', want: '  #' },
    { values: [1, 2, 3, 4], width: 2, ramp: '▁█', want: '▁█' },
    { values: [], width: 5, ramp: '▁█', want: '' },
    { values: [null, null], width: 5, ramp: '▁█', want: '' },
  ])('$values in $width columns -> "$want"', ({ values, width, ramp, want }) => {
    expect(sparkline(values, width, ramp)).toBe(want);
  });

  it('scales from a floor for counts', () => {
    expect(sparkline([10, 10], 2, '▁▂▃▄▅▆▇█', { floor: 0 })).toBe('██');
    // No satellites at all is the bottom of the ramp, not its middle.
    expect(sparkline([0, 0, 0], 3, '▁▂▃▄▅▆▇█', { floor: 0 })).toBe('▁▁▁');
  });
});

describe('display-width clipping', () => {
  it.each([
    { text: 'abcdef', width: 3, want: 'abc' },
    { text: '时间服务器', width: 5, want: '时间' },
    { text: 'e\u0301e\u0301e\u0301', width: 2, want: 'e\u0301e\u0301' },
    { text: 'short', width: 10, want: 'short' },
  ])('clipText($text, $width)', ({ text, width, want }) => {
    expect(clipText(text, width).text).toBe(want);
  });

  it('pads and truncates on display width', () => {
    expect(stringWidth(padText('时间服务器.例子', 9, 'left', '…'))).toBe(9);
    expect(padText('ab', 4, 'right', '~')).toBe('  ab');
    expect(padText('abcdef', 4, 'left', '~')).toBe('abc~');
  });

  it('fits a styled line to the width, keeping styles', () => {
    const line = [cell('abc', 'ok'), cell('时间服务器', 'bad')];
    const out = fitLine(line, 6, '~');
    expect(lineText(out)).toBe('abc时~');
    expect(out[0]?.token).toBe('ok');
    expect(lineText(fitLine(line, 20, '~'))).toBe('abc时间服务器');
  });
});

describe('table layout', () => {
  const cols = [
    { key: 'a', header: 'a' },
    { key: 'name', header: 'name', flex: true, minWidth: 4 },
    { key: 'opt', header: 'optional', drop: 1 },
  ] as const;
  const rows = [{ a: cell('1'), name: cell('a-rather-long-name'), opt: cell('x') }];

  it('keeps natural widths when they fit', () => {
    expect(layoutColumns(cols, rows, 80).map((c) => c.width)).toEqual([1, 18, 8]);
  });
  it('shrinks flex columns, then drops optional ones', () => {
    expect(layoutColumns(cols, rows, 20).map((c) => [c.key, c.width])).toEqual([['a', 1], ['name', 9], ['opt', 8]]);
    expect(layoutColumns(cols, rows, 10).map((c) => [c.key, c.width])).toEqual([['a', 1], ['name', 8]]);
  });
  it('drops every droppable column before it cuts an identity, then cuts it in the middle', () => {
    const idCols = [
      { key: 'a', header: 'a' },
      { key: 'name', header: 'name', identity: true },
      { key: 'opt', header: 'optional', drop: 1 },
      { key: 'more', header: 'more', drop: 2, flex: true, minWidth: 2 },
    ] as const;
    const v6 = '[2001:db8:a0b:12f0:0:0:0:123]';
    const r = [{ a: cell('1'), name: cell(v6), opt: cell('x'), more: cell('yyyyyy') }];
    const widths = (w: number) => layoutColumns(idCols, r, w).map((c) => [c.key, c.width]);
    expect(widths(80)).toEqual([['a', 1], ['name', 29], ['opt', 8], ['more', 6]]);
    expect(widths(40)).toEqual([['a', 1], ['name', 29], ['opt', 8]]);
    expect(widths(39)).toEqual([['a', 1], ['name', 29]]);
    expect(widths(31)).toEqual([['a', 1], ['name', 29]]);
    expect(widths(20)).toEqual([['a', 1], ['name', 18]]);
    for (let w = 10; w <= 80; w++) expect(cutsIdentity(layoutColumns(idCols, r, w), r)).toBe(false);
    const placed = layoutColumns(idCols, r, 20)[1]!;
    expect(placeText(v6, placed, '…')).toBe('[2001:db8…0:0:123]');
  });

  it.each([
    { text: '[2001:db8:a0b:12f0::123]', width: 15, want: '[2001:d…0::123]' },
    { text: '001122.fffe.334455', width: 11, want: '00112…34455' },
    { text: 'short', width: 10, want: 'short' },
    { text: 'abcdef', width: 1, want: 'a' },
  ])('shortenMiddle($text, $width) keeps both ends', ({ text, width, want }) => {
    expect(shortenMiddle(text, width, '…')).toBe(want);
    expect(stringWidth(shortenMiddle(text, width, '…'))).toBeLessThanOrEqual(width);
  });

  it('measures wide characters by display width', () => {
    const wide = [{ a: cell('1'), name: cell('时间服务器'), opt: cell('') }];
    expect(layoutColumns(cols, wide, 80)[1]?.width).toBe(10);
  });

  it.each([
    { prev: 0, selected: 0, cap: 3, total: 10, want: 0 },
    { prev: 0, selected: 3, cap: 3, total: 10, want: 1 },
    { prev: 5, selected: 6, cap: 3, total: 10, want: 5 },
    { prev: 5, selected: 2, cap: 3, total: 10, want: 2 },
    { prev: 9, selected: 9, cap: 3, total: 10, want: 7 },
    { prev: 4, selected: 1, cap: 5, total: 4, want: 0 },
  ])('scrollWindow keeps the selection visible without jumping: %o', ({ prev, selected, cap, total, want }) => {
    expect(scrollWindow(prev, selected, cap, total)).toBe(want);
  });
});

describe('offset colors by threshold', () => {
  const limits = { warnNs: 1_000, critNs: 100_000 };
  it.each([
    [0, undefined],
    [1_000, undefined],
    [-1_001, 'warn'],
    [100_000, 'warn'],
    [100_001, 'bad'],
    [-5e9, 'bad'],
    [null, undefined],
  ] as const)('%s ns -> %s', (ns, token) => {
    expect(offsetToken(ns, limits)).toBe(token);
  });

  it('in the PTP port row and the detail, with the PTP thresholds', () => {
    const port = ptpPort({ id: 0, offsetFromMasterNs: 184_000 });
    expect(ptpPortRow(port, { ...uni, limits }).offset.token).toBe('bad');
    const offset = ptpPortDetail(port, [], NOW, { ...uni, sparkWidth: 0, limits }).find((f) => f.label === 'offset')!;
    expect(offset.value[0]!.token).toBe('bad');
    expect(ptpPortRow(ptpPort({ id: 0, offsetFromMasterNs: 12 }), { ...uni, limits }).offset.token).toBeUndefined();
  });

  it('takes the limits from the health thresholds', () => {
    expect(offsetLimits({ ntpWarnNs: 1, ntpCritNs: 2, ptpWarnNs: 3, ptpCritNs: 4 })).toEqual({ ntp: { warnNs: 1, critNs: 2 }, ptp: { warnNs: 3, critNs: 4 } });
  });
});

describe('NTP source renderer', () => {
  it('shows chrony symbols, reach marks, scaled offsets and the source in use', () => {
    const row = ntpSourceRow(ntpSource({ name: 'ntp1', state: 'Best source', isSyncSource: true, offsetNs: -850, errorNs: 21_000, reach: '177' }), [], uni);
    expect(row.state.text).toBe('*');
    expect(row.state.token).toBe('ok');
    expect(row.name.text).toBe('◆ ntp1');
    expect(row.name.bold).toBe(true);
    expect(row.reach.text).toBe('○●●●●●●● 177');
    expect(row.offset.text).toBe('-850ns');
    expect(row.error.text).toBe('±21.0µs');
    expect(row.poll.text).toBe('64s');
  });

  // chronyc prints Poll as log2 (`sources -v`): 10 is 1024 s. The column shows seconds, and the key says so.
  it.each<[number, string]>([
    [16, '16s'],
    [64, '64s'],
    [1024, '1024s'],
    [2 ** 17, '131072s'],
  ])('poll every %i s reads %s, never minutes; the legend names the unit', (pollSeconds, text) => {
    expect(ntpSourceRow(ntpSource({ name: 'a', pollSeconds }), [], uni).poll.text).toBe(text);
    expect(lineText(ntpLegendLine(unicodeGlyphs))).toMatch(/ poll in seconds$/);
  });

  it.each([
    ['Best source', '*', 'ok'],
    ['Combined with best', '+', 'ok'],
    ['Selectable', '-', 'accent'],
    ['False ticker', 'x', 'bad'],
    ['Too variable', '~', 'warn'],
    ['Not selectable', '?', 'muted'],
    ['Something new', '?', 'muted'],
  ])('state %s -> %s (%s)', (state, symbol, token) => {
    const row = ntpSourceRow(ntpSource({ name: 'n', state }), [], uni);
    expect([row.state.text, row.state.token]).toEqual([symbol, token]);
  });

  it('has ASCII forms', () => {
    const row = ntpSourceRow(ntpSource({ name: 'n', offsetNs: 12_300, errorNs: 450_000, reach: '017' }), [1, 2, 3], asc);
    expect(row.reach.text).toBe('....|||| 017');
    expect(row.offset.text).toBe('+12.3us');
    expect(row.error.text).toBe('+/-450us');
    expect(row.trend.text).toMatch(/^[ .:\-=+*#]+$/);
  });

  it('shows nulls as dashes, never as zeros', () => {
    const row = ntpSourceRow(ntpSource({ name: 'n', reach: null, stratum: null, offsetNs: null, errorNs: null, lastRxSeconds: null }), [], uni);
    expect([row.reach.text, row.stratum.text, row.offset.text, row.error.text, row.lastRx.text]).toEqual(['-', '-', '-', '-', '-']);
    expect(plusMinus(null, false)).toBe('-');
  });

  it.each([
    [-850, undefined],
    [12_000_000, 'warn'],
    [-250_000_000, 'bad'],
    [null, 'muted'],
  ] as const)('colors the offset %s by the NTP thresholds: %s', (offsetNs, token) => {
    const limits = { warnNs: 10_000_000, critNs: 100_000_000 };
    expect(ntpSourceRow(ntpSource({ name: 'n', offsetNs }), [], { ...uni, limits }).offset.token).toBe(token);
  });

  it('colors reach by how many polls succeeded', () => {
    expect([reachToken('377'), reachToken('376'), reachToken('000'), reachToken(null)]).toEqual(['ok', 'warn', 'bad', 'muted']);
    expect(reachMarks('bogus', unicodeGlyphs)).toBe('bogus');
  });

  it('says the overall status and the sync source', () => {
    expect(lineText(ntpStatusLine(healthyState().ntp.data!))).toBe('* synchronized  to ntp1.example.net  6 sources');
    expect(lineText(ntpStatusLine(irregularState().ntp.data!))).toBe('! not synchronized  no sync source  2 sources');
  });
});

describe('verdict', () => {
  it.each([
    ['healthy', healthyState(), 'NTP synced to ntp1.example.net · GNSS 1 working, 33 sats · PTP 1/2 STABLE'],
    ['irregular', irregularState(), 'NTP not synced · GNSS 1 working, 33 sats · PTP 0/2 STABLE'],
    ['no GNSS receiver', gnssNoReceiverState(), 'NTP synced to ntp1.example.net · GNSS none · PTP 1/2 STABLE'],
    ['no data yet', emptyState(), 'NTP waiting · GNSS waiting · PTP waiting'],
  ])('%s', (_name, state, want) => {
    expect(verdictLine(state)).toBe(want);
  });

  it('reports an error when a section never answered', () => {
    const s = emptyState();
    s.ptp.error = { kind: 'auth', code: '403', message: 'refused' };
    expect(verdictLine(s)).toContain('PTP auth error');
  });

  it('an open antenna is red (CRITICAL), PPS trouble alone yellow', () => {
    const parts = verdictParts(irregularState());
    expect(parts.find((c) => c.text.startsWith('GNSS'))?.token).toBe('bad');
    const pps = irregularState();
    pps.gnss.data!.receivers = pps.gnss.data!.receivers.map((r) => ({ ...r, antenna: 'normal' }));
    expect(verdictParts(pps).find((c) => c.text.startsWith('GNSS'))?.token).toBe('warn');
    expect(parts.find((c) => c.text.startsWith('PTP'))?.token).toBe('bad');
  });
});

describe('GNSS receiver renderer', () => {
  it('packs the receiver tabs into lines, a tab never split; the switch hint only where it fits', () => {
    const rxs = [receiver({ id: 0 }), receiver({ id: 1, status: 'standby' }), receiver({ id: 2, status: 'standby' })];
    const lines = (width: number) => gnssReceiverTabLines(rxs, 1, unicodeGlyphs, width).map(lineText);
    expect(lines(200)).toEqual(['  rx 0 * working   ▶ rx 1 - standby     rx 2 - standby   ←/→ switch']);
    // Without the hint the tabs fit: left out, not given a line of its own.
    expect(lines(54)).toEqual(['  rx 0 * working   ▶ rx 1 - standby     rx 2 - standby']);
    expect(lines(40)).toEqual(['  rx 0 * working   ▶ rx 1 - standby', '  rx 2 - standby   ←/→ switch']);
    // A tab wider than the line has a line of its own (cut where it is drawn).
    expect(lines(10)).toHaveLength(3);
    // At most maxLines: the last holds the tabs left.
    expect(gnssReceiverTabLines(rxs, 1, unicodeGlyphs, 40, 1).map(lineText)).toEqual(['  rx 0 * working   ▶ rx 1 - standby     rx 2 - standby']);
    expect(gnssReceiverTabLines(rxs, 1, unicodeGlyphs, 10, 2).map(lineText)).toEqual(['  rx 0 * working', '▶ rx 1 - standby     rx 2 - standby']);
    expect(gnssReceiverTabLines([receiver({ id: 0 })], 0, unicodeGlyphs, 80).map(lineText)).toEqual(['▶ rx 0 * working']);
  });

  it('shows every field of a working receiver, signed decimal degrees', () => {
    const text = gnssReceiverFields(receiver({}), uni).map((f) => `${f.label}: ${lineText(f.value)}`);
    expect(text).toEqual([
      'status: * working',
      'antenna: * normal',
      'PPS: * valid',
      'position: +22.54310° -113.95001°',
      'altitude: 43.5 m',
      'DOP: H 0.9  V 1.2  P 1.5',
      'UTC: 2026-11-22 14:02:28Z',
      'leap seconds: GPS 18  BDS 4',
    ]);
  });

  // The device's sample standby receiver sends altitude 0 (and may send 0,0): filler, not a fix.
  it.each<[string, Partial<GnssReceiver>, string[]]>([
    ['standby with filler altitude 0', { status: 'standby', altitudeM: 0, latitudeDeg: 22.5, longitudeDeg: 113.9 }, ['status', 'position']],
    ['standby with filler 0,0 position and altitude', { status: 'standby', altitudeM: 0, latitudeDeg: 0, longitudeDeg: 0 }, ['status']],
    ['standby with a real altitude', { status: 'standby', altitudeM: 47.9, latitudeDeg: 22.5, longitudeDeg: 113.9 }, ['status', 'position', 'altitude']],
  ])('a non-working receiver: %s', (_name, over, labels) => {
    const rx = { ...irregularState().gnss.data!.receivers[0]!, antenna: null, ppsValid: null, hdop: null, vdop: null, pdop: null, utc: null, gpsLeapSeconds: null, bdsLeapSeconds: null, ...over };
    expect(gnssReceiverFields(rx, uni).map((f) => f.label)).toEqual(labels);
  });

  it('a working receiver at altitude 0 m (sea level) shows it', () => {
    const rx = { ...irregularState().gnss.data!.receivers[0]!, status: 'working', altitudeM: 0 };
    expect(gnssReceiverFields(rx, uni).find((f) => f.label === 'altitude')!.value.map((c) => c.text).join('')).toBe('0.0 m');
  });

  it('shows a standby receiver without rows of dashes', () => {
    const standby = irregularState().gnss.data!.receivers[0]!;
    expect(gnssReceiverFields(standby, uni).map((f) => f.label)).toEqual(['status', 'position']);
    expect(gnssSatelliteLines(standby, () => [], { ...uni, sparkWidth: 8 }).map(lineText)).toEqual(['no satellite counts']);
  });

  it('colors the antenna: normal green, open/short red, others dim', () => {
    const token = (antenna: string) => gnssReceiverFields(receiver({ antenna }), uni).find((f) => f.label === 'antenna')!.value[0]!.token;
    expect([token('normal'), token('open'), token('short-circuited'), token('not-support'), token('uninitialized')]).toEqual(['ok', 'bad', 'bad', 'muted', 'muted']);
  });

  it('lists satellites per constellation with a total', () => {
    const lines = gnssSatelliteLines(receiver({}), () => [1, 2, 3], { ...uni, sparkWidth: 3 }).map(lineText);
    expect(lines).toEqual(['GPS      12 ▃▆█', 'GLONASS   8 ▃▆█', 'BDS      11 ▃▆█', 'Galileo   2 ▃▆█', 'total    33 ▃▆█']);
  });

  it('has no degree sign in ASCII', () => {
    const pos = gnssReceiverFields(receiver({}), asc).find((f) => f.label === 'position')!;
    expect(lineText(pos.value)).toBe('+22.54310 -113.95001');
  });
});

describe('PTP port renderer', () => {
  // The API documents lastUpdate as a timestamp in seconds; firmwares send milliseconds, 0 or an uptime.
  const nowS = NOW / 1000;
  it.each<[string, number | null, string]>([
    ['seconds, 3 s old', nowS - 3, '3s ago'],
    ['milliseconds, 3 s old', (nowS - 3) * 1000, '3s ago (sent in milliseconds)'],
    ['2 h ahead of this computer', nowS + 7200, '2h ahead of this computer'],
    ['0', 0, '0: never set'],
    ['a count since boot', 3600, '3600 is no date (a time since boot?)'],
    ['missing', null, '-'],
  ])('updated: lastUpdate %s reads %j', (_name, lastUpdate, text) => {
    const field = ptpPortDetail(ptpPort({ id: 0, lastUpdate }), [], NOW, { ...uni, sparkWidth: 3 }).find((f) => f.label === 'updated')!;
    expect(lineText(field.value)).toBe(text);
  });

  // An oscillator is off by at most 100 ppm (IEEE 802.1AS B.1.1), two clocks by about 200 ppm; a raw
  // 802.1AS cumulativeScaledRateOffset ((rateRatio - 1) x 2^41) reads in millions: shown as sent, flagged.
  it.each<[number | null, string, string | undefined]>([
    [0.0132, '+13.2ppb', undefined],
    [-1.5, '-1.50ppm', undefined],
    [200, '+200ppm', undefined],
    [2_198_889, '2198889 (not a rate offset in ppm: over 200 ppm, a raw scaled value?)', 'warn'],
    [-350.5, '-350.5 (not a rate offset in ppm: over 200 ppm, a raw scaled value?)', 'warn'],
    [null, '-', undefined],
  ])('rate offset %j reads %j', (ppm, text, flag) => {
    const field = ptpPortDetail(ptpPort({ id: 0, cumulativeRateOffsetPpm: ppm }), [], NOW, { ...uni, sparkWidth: 3 }).find((f) => f.label === 'rate offset')!;
    expect(lineText(field.value)).toBe(text);
    expect(field.value[1]?.token).toBe(flag);
  });

  // IEEE 1588-2008 11.3: meanPathDelay is the mean of the two one-way delays, a magnitude: no "+".
  it.each<[number, string]>([
    [1480, '1.48µs'],
    [-120, '-120ns'],
  ])('prints a path delay of %i ns as %s in the row, the detail and the delay stats', (ns, text) => {
    const p = ptpPort({ id: 0, meanPathDelayNs: ns });
    expect(ptpPortRow(p, uni).delay.text).toBe(text);
    expect(lineText(ptpPortDetail(p, [], NOW, { ...uni, sparkWidth: 3 }).find((f) => f.label === 'path delay')!.value)).toBe(text);
    expect(delayStatsText([ns, ns], false)).toBe(`mean ${text} sd 0ns min ${text} max ${text}`);
  });

  it('shows every field of the selected port', () => {
    const fields = ptpPortDetail(ptpPort({ id: 0 }), [10, 12, 14], NOW, { ...uni, sparkWidth: 3 });
    const byLabel = Object.fromEntries(fields.map((f) => [f.label, lineText(f.value)]));
    expect(byLabel).toEqual({
      'port id': '0',
      'sync state': '* STABLE',
      'offset': '+12ns ▁▅█',
      'path delay': '1.48µs',
      'master offset': '-8ns',
      'steps removed': '1 (directly attached to the grandmaster)',
      'rate offset': '+12.0ppb',
      'GM present': '* yes',
      'GM identity': '001122.3344.556677',
      'parent port': '001122.3344.556677-1',
      'GM class': '6 (locked to a primary reference (e.g. GNSS))',
      'GM accuracy': '0x21 (within 100 ns)',
      'GM variance': '0x4E5D (deviation about 34 ns)',
      'GM priority': '128 / 128',
      'updated': '3s ago',
    });
  });

  it.each([
    ['STABLE', 'ok'],
    ['ACQUIRED', 'warn'],
    ['ACQUIRING', 'warn'],
    ['LOST', 'bad'],
    ['NEVER', 'bad'],
    ['UNKNOWN', 'muted'],
  ])('sync state %s is %s', (syncState, token) => {
    const row = ptpPortRow(ptpPort({ id: 0, syncState }), uni);
    expect(row.state.token).toBe(token);
    expect(row.state.text).toContain(syncState);
  });

  it('shows a port that failed with its error', () => {
    const port = irregularState().ptp.data!.ports[1]!;
    const row = ptpPortRow(port, uni);
    expect(row.state.text).toBe('! device error');
    // The message is the pane's error line; an identity column would keep a sentence whole.
    expect(row.gm.text).toBe('-');
  });

  it('explains clock class and accuracy', () => {
    expect(clockClassText(248)).toBe('248 (free-running: default, not synchronized to any reference)');
    expect(clockClassText(7)).toBe('7 (holdover, within specification)');
    expect(clockClassText(99)).toBe('99 (alternate PTP profile)');
    expect(clockClassText(null)).toBe('-');
    expect(clockAccuracyText(0x23, false)).toBe('0x23 (within 1 µs)');
    expect(clockAccuracyText(0x23, true)).toBe('0x23 (within 1 us)');
    expect(clockAccuracyText(0xfe, true)).toBe('0xFE (unknown)');
    expect(clockAccuracyText(0x99, true)).toBe('0x99 (reserved)');
  });
});

describe('alarm renderer', () => {
  it('shows the configuration, the password exactly as the model holds it', () => {
    const byLabel = Object.fromEntries(alarmFields(healthyAlarm).map((f) => [f.label, lineText(f.value)]));
    expect(byLabel).toEqual({
      'e-mail alerts': '* on, major and above',
      recipients: 'noc@example.net, ops@example.net',
      sender: 'Time Server 5 <timeserver@example.net>',
      'subject prefix': '[TS5]',
      'device id': 'in mails',
      SMTP: 'smtp.example.net:587, TLS on',
      auth: 'on, user timeserver@example.net',
      password: '***',
      'SMTP timeout': '30s',
      'check every': '60s',
      'rate limit': '20 mails/h',
      retries: '3, 10s apart',
    });
  });

  it('shows missing values as dashes', () => {
    const byLabel = Object.fromEntries(alarmFields(irregularState().alarm.data!).map((f) => [f.label, lineText(f.value)]));
    expect(byLabel.password).toBe('-');
    expect(byLabel.recipients).toBe('-');
    expect(byLabel.retries).toBe('-');
    expect(byLabel['e-mail alerts']).toBe('! off, level -');
    expect(senderText({ ...healthyAlarm, senderName: null })).toBe('<timeserver@example.net>');
  });
});

describe('header, sections and summaries', () => {
  it('has a banner while the device does not answer', () => {
    const s = unreachableState();
    const banner = outageBanner(s, NOW, false)!;
    expect(lineText(banner)).toMatch(/^! no answer since \d\d:\d\d:\d\d, retrying in 8s — connection refused/);
    expect(outageBanner(healthyState(), NOW, false)).toBeNull();
    expect(lineText(outageBanner({ ...s, paused: true }, NOW, true)!)).toContain(', paused - ');
    expect(headerLines(s, NOW, uni)).toHaveLength(3);
    expect(headerLines(healthyState(), NOW, uni)).toHaveLength(2);
  });

  it('adds the health verdict\'s worst finding when there is one', () => {
    const s = healthyState();
    s.verdict = {
      severity: 'warning',
      findings: [
        { rule: 'ptp-state', severity: 'warning', section: 'ptp', subject: 'ptp port 1', topic: 'ptp-state', message: 'PTP port 1 ACQUIRING' },
        { rule: 'ntp-source', severity: 'warning', section: 'ntp', subject: 'ntp source time.bad.example', topic: 'ntp-source', message: 'time.bad.example is a false ticker' },
      ],
    };
    const lines = headerLines(s, NOW, uni);
    expect(lines).toHaveLength(3);
    expect(lineText(lines[2]!)).toBe('~ PTP port 1 ACQUIRING (+1 more: f)');
    // The verdict word itself leads the second line, with its symbol.
    expect(lineText(lines[1]!)).toMatch(/^~ WARNING · NTP synced/);
    expect(lines[1]![0]!.token).toBe('warn');
    expect(lines[2]![0]!.token).toBe('warn');
    expect(healthLine(healthyState())).toBeNull();
  });

  it('says LIVE or PAUSED', () => {
    const text = (paused: boolean) => lineText(headerLines({ ...healthyState(), paused }, NOW, uni)[0]!);
    expect(text(false)).toContain('● LIVE');
    expect(text(true)).toContain('PAUSED');
    expect(text(false)).toContain('every 2s');
  });

  it('ages sections and marks stale data', () => {
    expect(lineText(sectionAge(healthyState().ntp, 2000, NOW))).toBe('1s ago');
    expect(lineText(sectionAge(unreachableState().ntp, 2000, NOW))).toBe('STALE 45s ago');
    expect(lineText(sectionAge(emptyState().ntp, 2000, NOW))).toBe('no data yet');
  });

  it('an error line beside data wraps into the lines the pane has to spare; the last holds the rest, without the indents', () => {
    const state = healthyState();
    const error = { kind: 'network', code: 'TIMEOUT', message: 'no complete answer within 900 ms (timeout) and more words after it' } as const;
    const section = { data: {}, error };
    const text = (spare: number) => sectionErrorLines(state, section, 30, undefined, spare).map(lineText);
    expect(text(0)).toEqual(['! network error TIMEOUT: no complete answer within 900 ms (timeout) and more words after it']);
    expect(text(1)).toEqual(['! network error TIMEOUT: no ', '  complete answer within 900 ms (timeout) and more words after it']);
    expect(text(9)).toHaveLength(3);
    expect(sectionErrorLines(state, { data: null, error }, 30).map(lineText)).toEqual(text(2));
    const wrapped = wrapLine([cell('aaa bbb ccc ddd')], 4, 2);
    expect(firstWrappedLines(wrapped, 2).map(lineText)).toEqual(['aaa ', '  bbb ccc ddd']);
    expect(firstWrappedLines(wrapped, 9)).toEqual(wrapped);
  });

  it('summarizes each section in one line', () => {
    expect(lineText(sectionSummary('ptp', ptpAuthRefusedState(), NOW, uni))).toContain('! auth: permission refused');
    expect(lineText(sectionSummary('gnss', gnssNoReceiverState(), NOW, uni))).toContain('GNSS none');
    expect(lineText(sectionSummary('alarm', healthyState(), NOW, uni))).toContain('mail alerts on major+ to 2 recipients');
    expect(lineText(sectionSummary('ntp', unreachableState(), NOW, uni))).toContain('STALE 45s ago · ! no answer');
  });
});

describe('field grid', () => {
  const fields = [
    { label: 'a', value: [cell('1111')] },
    { label: 'bb', value: [cell('22')] },
    { label: 'c', value: [cell('3')] },
  ];
  it('with lines to spare, a one-column grid wraps the values it would cut, in order, into the lines left', () => {
    const long = [
      { label: 'to', value: [cell('noc@example.com, ops@example.com')] },
      { label: 'id', value: [cell('a0b1c2.fffe.d3e4f5-3')], whole: true },
      { label: 'x', value: [cell('1')] },
    ];
    expect(gridLines(long, 20, 40, '~', 3).map(lineText)).toEqual(['to noc@example.com,~', 'id a0b1c2.f~d3e4f5-3', 'x  1']);
    expect(wrappedGridRows(long, 20, 40)).toBe(5);
    expect(gridLines(long, 20, 40, '~', 5).map(lineText)).toEqual(['to noc@example.com, ', '   ops@example.com', 'id a0b1c2.fffe.d3e4f', '   5-3', 'x  1']);
    // One line to spare: the first value's extra line fits, the identity's does not.
    expect(gridLines(long, 20, 40, '~', 4).map(lineText)).toEqual(['to noc@example.com, ', '   ops@example.com', 'id a0b1c2.f~d3e4f5-3', 'x  1']);
    // Fewer lines than a value needs: it wraps into those left, the last cut where it ends.
    const three = [{ label: 'to', value: [cell('aaaa bbbb cccc dddd eeee')] }, { label: 'x', value: [cell('1')] }];
    expect(gridLines(three, 10, 40, '~', 3).map(lineText)).toEqual(['to aaaa ', '   bbbb c~', 'x  1']);
  });

  it('wraps a value at spaces, or column by column where a word is wider than the line', () => {
    expect(wrapValue([cell('aa bb '), cell('cc', 'warn')], 5).map(lineText)).toEqual(['aa ', 'bb cc']);
    expect(wrapValue([cell('abcdefgh')], 3).map(lineText)).toEqual(['abc', 'def', 'gh']);
    expect(wrapValue([cell('ab'), cell('界cd')], 3).map(lineText)).toEqual(['ab', '界c', 'd']);
    expect(wrapValue([cell('界界')], 1).map(lineText)).toEqual(['界', '界']);
    expect(wrapValue([cell('short')], 10).map(lineText)).toEqual(['short']);
    // At most four lines, the last holding the rest, however long the value.
    const huge = wrapValue([cell('x'.repeat(100_000))], 10);
    expect(huge.map((l) => lineText(l).length)).toEqual([10, 10, 10, 100_000 - 30]);
    expect(wrapValue([cell('a '.repeat(50))], 10)).toHaveLength(4);
    expect(wrapValue([cell('aa bb cc dd')], 3, 2).map(lineText)).toEqual(['aa ', 'bb cc dd']);
  });
  it('fills as many columns as fit, column by column', () => {
    expect(gridShape(fields, 100, 40)).toMatchObject({ columns: 3, rows: 1 });
    expect(gridShape(fields, 16, 40)).toMatchObject({ columns: 1, rows: 3 });
    expect(gridShape(fields, 17, 40)).toMatchObject({ columns: 2, rows: 2 });
    expect(gridLines(fields, 17, 40, '~').map(lineText)).toEqual(['a  1111   c  3', 'bb 22']);
  });
  it('with more columns for a short pane, the columns fill its height (no empty line)', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ label: `f${String(i).padStart(2, '0')}`, value: [cell('v'.repeat(20))] }));
    expect(gridShape(many, 66, 40)).toMatchObject({ columns: 2, rows: 8 });
    expect(gridShape(many, 66, 40, 7)).toMatchObject({ columns: 3, rows: 7 });
    expect(gridLines(many, 66, 40, '~', 7)).toHaveLength(7);
  });

  it('keeps whole values whole: fewer columns rather than a cut identity; in the middle when the pane is too narrow', () => {
    const id = '001122.fffe.334455';
    const withId = [...fields, { label: 'GM identity', value: [cell(id)], whole: true }];
    const narrow = gridShape(withId, 40, 40, 2);
    expect(narrow.valueWidth).toBeGreaterThanOrEqual(id.length);
    expect(gridLines(withId, 40, 40, '…', 2).map(lineText).join('\n')).toContain(id);
    expect(gridLines(withId, 24, 40, '…').map(lineText).join('\n')).toMatch(/GM identity 0011\S*…\S*34455$/m);
  });

  it('never exceeds the width', () => {
    for (const w of [5, 10, 20, 33]) {
      for (const line of gridLines(alarmFields(healthyAlarm), w, 40, '~')) expect(stringWidth(lineText(line))).toBeLessThanOrEqual(w);
    }
  });
});

describe('header with a device profile', () => {
  it('names the profile before the URL', async () => {
    const { statusLine } = await import('../../src/view/header.js');
    const { lineText } = await import('../../src/view/cell.js');
    const { healthyState } = await import('../ui/fixtures.js');
    const { unicodeGlyphs } = await import('../../src/view/theme.js');
    const state = { ...healthyState(), profile: 'lab-gm' };
    expect(lineText(statusLine(state, unicodeGlyphs))).toMatch(/^synctop @lab-gm https?:\/\//);
    expect(lineText(statusLine(healthyState(), unicodeGlyphs))).not.toContain('@');
  });
});

describe('field grid in a pane too short for one column', () => {
  const f = (label: string, width: number, whole = false) => ({ label, value: [cell('v'.repeat(width))], whole });
  // Width 40: labels 2 wide, so each half of a line holds a value of 15 columns.
  const mixed = [f('aa', 10), f('bb', 10), f('cc', 30), f('dd', 10), f('ee', 10), f('ff', 30)];
  it.each([
    { height: 6, lines: 6, cut: 0 },
    { height: 5, lines: 5, cut: 0 },
    { height: 4, lines: 4, cut: 0 },
    { height: 3, lines: 3, cut: 2 },
  ])('height $height: $lines lines, $cut values cut, no line empty', ({ height, lines, cut }) => {
    const out = gridLines(mixed, 40, 40, '~', height).map(lineText);
    expect(out).toHaveLength(lines);
    expect(out.filter((l) => l.trim() === '')).toEqual([]);
    expect(out.filter((l) => l.includes('~')).length).toBe(cut);
    for (const l of out) expect(stringWidth(l)).toBeLessThanOrEqual(40);
    expect(gridShape(mixed, 40, 40, height).rows).toBe(lines);
  });
  it('short neighbours share a line in reading order; long values keep a line of their own', () => {
    expect(gridLines(mixed, 40, 40, '~', 4).map(lineText)).toEqual([
      `aa ${'v'.repeat(10)}        bb ${'v'.repeat(10)}`,
      `cc ${'v'.repeat(30)}`,
      `dd ${'v'.repeat(10)}        ee ${'v'.repeat(10)}`,
      `ff ${'v'.repeat(30)}`,
    ]);
  });
  it('keeps the pairs that cut nothing when one more pair is needed: only that pair is cut', () => {
    // Like the alarm pane losing a line to an error line: long values first, short ones after.
    const alarmLike = [f('aa', 30), f('bb', 30), f('cc', 30), f('dd', 10), f('ee', 10), f('ff', 30), f('gg', 10), f('hh', 10)];
    const out = gridLines(alarmLike, 40, 40, '~', 5).map(lineText);
    expect(out).toHaveLength(5);
    expect(out.filter((l) => l.includes('~'))).toHaveLength(1);
    expect(out[0]).toMatch(/^aa v+~ +bb v+~$/);
    expect(out.slice(1)).toEqual([`cc ${'v'.repeat(30)}`, `dd ${'v'.repeat(10)}        ee ${'v'.repeat(10)}`, `ff ${'v'.repeat(30)}`, `gg ${'v'.repeat(10)}        hh ${'v'.repeat(10)}`]);
  });
  it('never cuts a whole value to pair it', () => {
    const ids = [f('aa', 30, true), f('bb', 30, true), f('cc', 30, true)];
    expect(pairLinesOrNull(ids, 2)).toBeNull();
  });
});

function pairLinesOrNull(fields: { label: string; value: ReturnType<typeof cell>[]; whole: boolean }[], height: number) {
  return pairLines(fields, 40, 2, height);
}
