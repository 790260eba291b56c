/** Who /probe may ask (pure): allow patterns, the glob matcher, target parsing, the scrape budget, the command line. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveConfig, UsageError } from '../../src/config.js';
import { runExportCommand } from '../../src/export/command.js';
import { MAX_PROBE_BUDGET_MS, scrapeBudgetMs } from '../../src/export/exporter.js';
import { globMatches, parseAllowPattern, parseTarget, TargetBook } from '../../src/export/targets.js';

describe('globMatches', () => {
  it.each([
    ['*.site7.example', 'gm1.site7.example', true],
    ['*.site7.example', 'a.b.site7.example', true],
    ['*.site7.example', 'site7.example', false],
    ['gm-??.example', 'gm-01.example', true],
    ['gm-??.example', 'gm-1.example', false],
    ['*', 'anything.at.all', true],
    ['gm*', 'gm', true],
    ['*gm*', 'xxgmxx', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbY', false],
    ['exact.example', 'exact.example', true],
    ['exact.example', 'exact.example.evil', false],
  ])('%s ~ %s -> %s', (glob, host, expected) => {
    expect(globMatches(glob, host)).toBe(expected);
  });

  it('takes at most pattern x text steps on a pattern made to backtrack', () => {
    const glob = `${'*a'.repeat(30)}*b`;
    const host = 'a'.repeat(253);
    // A regex compiled from this glob backtracks for a very long time; the scan answers at once.
    expect(globMatches(glob, host)).toBe(false);
  });
});

describe('parseAllowPattern', () => {
  it.each([
    ['https://gm1.example/', 'url'],
    ['10.0.0.0/8', 'cidr'],
    ['192.0.2.17', 'cidr'],
    ['fd00::/8', 'cidr'],
    ['*.site7.example', 'glob'],
    ['GM-??.Example', 'glob'],
  ])('%s is a %s pattern', (text, kind) => {
    expect(parseAllowPattern(text).kind).toBe(kind);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', 'gm1.example:443', 'a b', '', '...', 'ftp://x'])('"%s" is a usage error with a sentence', (text) => {
    expect(() => parseAllowPattern(text)).toThrow(UsageError);
  });
});

describe('parseTarget', () => {
  it.each([
    ['https://10.0.0.5', 'https://10.0.0.5'],
    ['https://10.0.0.5/', 'https://10.0.0.5'],
    ['http://[fd00::1]:8080/prefix/', 'http://[fd00::1]:8080/prefix'],
    ['HTTPS://GM1.Example', 'https://gm1.example'],
  ])('%s -> %s', (text, normalized) => {
    const t = parseTarget(text);
    expect(t.ok && t.normalized).toBe(normalized);
  });

  it.each([
    ['10.0.0.5', /scheme/],
    ['file:///etc/passwd', /http/],
    ['https://u:p@gm1', /credentials/],
    ['https://gm1/?x=1', /query/],
    [`https://${'a'.repeat(1100)}`, /longer than 1024/],
  ])('%s is refused: %s', (text, message) => {
    const t = parseTarget(text);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.message).toMatch(message);
  });
});

describe('scrapeBudgetMs', () => {
  it.each([
    [undefined, undefined],
    ['10', 9500],
    ['1', 750],
    ['0.2', 150],
    [' 4.5 ', 4000],
    ['100000', MAX_PROBE_BUDGET_MS - 500],
  ])('%s -> %s ms', (header, ms) => {
    expect(scrapeBudgetMs(header)).toEqual({ ok: true, ms });
  });

  it.each(['0', '-1', '1e3', 'NaN', 'Infinity', '', '12345678', '1.0000000001', 'x'.repeat(10_000)])('"%s" is refused', (header) => {
    expect(scrapeBudgetMs(header).ok).toBe(false);
  });
});

describe('TargetBook', () => {
  const commandLine = resolveConfig('http://target.invalid', { timeout: 1000 }, {}, { oneShot: true });
  const profile = resolveConfig('https://gm9.example', { timeout: 2500, ptpPorts: '0' }, {}, { oneShot: true });
  const book = new TargetBook({
    commandLine,
    urls: ['http://127.0.0.1:8080'],
    patterns: ['*.lab.example', '10.1.0.0/16'].map(parseAllowPattern),
    profiles: new Map([['gm9', profile]]),
  });

  it.each([
    [{ target: 'http://127.0.0.1:8080/' }, 'http://127.0.0.1:8080', 1000],
    [{ target: 'https://x.lab.example' }, 'https://x.lab.example', 1000],
    [{ target: 'https://10.1.200.3:4443' }, 'https://10.1.200.3:4443', 1000],
    // The profile's own settings, by name or by its URL.
    [{ profile: 'gm9' }, 'https://gm9.example', 2500],
    [{ target: 'https://gm9.example' }, 'https://gm9.example', 2500],
    [{ target: 'https://gm9.example/', profile: 'gm9' }, 'https://gm9.example', 2500],
  ])('%j is probed at %s with its settings', (query, url, timeoutMs) => {
    const found = book.lookup(query);
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.target.url).toBe(url);
    expect(found.target.config.connection.url).toBe(url);
    expect(found.target.config.connection.timeoutMs).toBe(timeoutMs);
  });

  it.each([
    [{ target: 'http://127.0.0.1:8081' }, 403],
    [{ target: 'https://lab.example' }, 403],
    [{ target: 'https://10.2.0.1' }, 403],
    [{ target: 'https://x.lab.example.evil.net' }, 403],
    [{ profile: 'nope' }, 403],
    [{ profile: '../etc' }, 403],
    // A profile's credentials never go to another target.
    [{ profile: 'gm9', target: 'http://127.0.0.1:8080' }, 400],
    [{ profile: 'gm9', target: 'https://evil.example' }, 400],
    [{}, 400],
  ])('%j is refused with %i', (query, status) => {
    const found = book.lookup(query);
    expect(found.ok).toBe(false);
    if (!found.ok) expect(found.status).toBe(status);
  });
});

describe('synctop export (the command)', () => {
  const run = (urls: string[], flags: Record<string, unknown>) =>
    runExportCommand({ urls, flags: { listen: '127.0.0.1:0', ...flags }, env: { XDG_CONFIG_HOME: '/nonexistent' }, stdout: new PassThrough(), stderr: new PassThrough(), version: 'test' });

  it.each([
    [[], {}, /nothing to export/],
    [[], { allowTarget: ['10.0.0.0/40'] }, /allow-target 10.0.0.0\/40/],
    [[], { allowTarget: ['*.x'], maxProbes: 0 }, /--max-probes takes a whole number from 1/],
    [[], { allowTarget: ['*.x'], maxTargets: 1e9 }, /--max-targets takes a whole number from 1 to 1,000,000/],
    [[], { allowTarget: ['*.x'], record: '/tmp/never-written.jsonl' }, /--record records the devices polled for \/metrics/],
  ])('%j %j is a usage error', async (urls, flags, message) => {
    await expect(run(urls, flags)).rejects.toThrow(message);
  });

  it('warns when it listens on every interface', async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const e = await runExportCommand({ urls: [], flags: { listen: '0.0.0.0:0', allowTarget: ['127.0.0.1'] }, env: { XDG_CONFIG_HOME: '/nonexistent' }, stdout: new PassThrough(), stderr, version: 'test' });
    await e.close();
    expect(err).toMatch(/warning: listening on every interface: .*give the address Prometheus connects to/);
  });

  it('starts with only an allow pattern: /probe, and /metrics with the exporter alone', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const e = await runExportCommand({ urls: [], flags: { listen: '127.0.0.1:0', allowTarget: ['127.0.0.1'] }, env: { XDG_CONFIG_HOME: '/nonexistent' }, stdout, stderr: new PassThrough(), version: 'test' });
    try {
      expect(out.split('\n')[0]).toBe(`${e.url}/metrics`);
      expect(out).toMatch(/probing at .*\/probe\?target=URL: targets allowed: 1 --allow-target pattern/);
      const metrics = await (await fetch(`${e.url}/metrics`)).text();
      expect(metrics).toContain('synctop_exporter_probes_total');
      expect(metrics).not.toContain('synctop_up');
    } finally {
      await e.close();
    }
  });
});
