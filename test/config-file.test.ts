import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, UsageError } from '../src/config.js';
import { defaultConfigPath, findProfile, loadConfigFile, parseConfigFile, profileFlags } from '../src/config-file.js';

const good = {
  devices: {
    'lab-gm': {
      url: 'https://10.0.0.5',
      tokenEnv: 'LAB_TOKEN',
      headers: { 'X-Site': 'north' },
      pinSha256: 'AB'.repeat(32),
      ptpPorts: [0, 2],
      interval: 5,
      thresholds: { ptpWarn: '2us', ptpCrit: '50us', minSats: 6, frozenAfter: '30s' },
    },
    plain: { url: 'http://10.0.0.6', token: 'inline-token' },
  },
};

describe('config file', () => {
  it('finds $XDG_CONFIG_HOME/synctop/config.json, or ~/.config', () => {
    expect(defaultConfigPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/synctop/config.json');
    expect(defaultConfigPath({ HOME: '/home/t' })).toBe('/home/t/.config/synctop/config.json');
  });

  it.each([
    ['{', /config file c.json is not valid JSON/],
    [JSON.stringify({ device: {} }), /config file c.json: unknown key "device"/],
    [JSON.stringify({}), /config file c.json: "devices" is missing/],
    [JSON.stringify({ devices: { a: { url: 'ftp://x' } } }), /"devices.a.url" an http:\/\/ or https:\/\/ URL/],
    [JSON.stringify({ devices: { a: { url: 'http://x', intervall: 2 } } }), /"devices.a" unknown key "intervall"/],
    [JSON.stringify({ devices: { a: { url: 'http://x', interval: 1e9 } } }), /"devices.a.interval" at most 86400 seconds \(a day\)/],
    [JSON.stringify({ devices: { a: { url: 'http://x', timeout: 2147483648 } } }), /"devices.a.timeout" at most 600000 milliseconds \(ten minutes\)/],
    [JSON.stringify({ devices: { a: { url: 'http://x', thresholds: { ptpWarn: 'fast' } } } }), /"devices.a.thresholds.ptpWarn" a time with a unit/],
    [JSON.stringify({ devices: { a: { url: 'http://x', ptpPorts: 'some' } } }), /"devices.a.ptpPorts"/],
    [JSON.stringify({ devices: { 'bad name': { url: 'http://x' } } }), /"devices.bad name"/],
  ])('rejects %s with a sentence naming the key', (text, message) => {
    expect(() => parseConfigFile(text, 'c.json')).toThrow(UsageError);
    expect(() => parseConfigFile(text, 'c.json')).toThrow(message);
  });

  it('a profile becomes flags under the ones given, token kept out of argv-shaped data', () => {
    const loaded = parseConfigFile(JSON.stringify(good), 'c.json');
    const profile = findProfile(loaded, 'lab-gm', {});
    const merged = profileFlags(profile, { interval: 3 }, { LAB_TOKEN: 'from-env' });
    expect(merged.url).toBe('https://10.0.0.5');
    expect(merged.token).toBe('from-env');
    expect(merged.flags).toMatchObject({ interval: 3, ptpPorts: '0,2', ptpWarn: '2us', minSats: 6, header: ['X-Site: north'] });
    const config = resolveConfig(merged.url, merged.flags, {}, { oneShot: false, profileToken: merged.token! });
    expect(config.connection.headers).toEqual({ 'X-Site': 'north', Authorization: 'Bearer from-env' });
    expect(config.intervalMs).toBe(3000);
    expect(config.ptpPorts).toEqual([0, 2]);
    expect(config.thresholds.ptpWarnNs).toBe(2000);
    expect(config.thresholds.frozenAfterS).toBe(30);
    expect(config.thresholds.minSats).toBe(6);
    expect(config.connection.pinSha256).toBe('AB'.repeat(32));
  });

  it('SYNCTOP_TOKEN wins over the profile', () => {
    const loaded = parseConfigFile(JSON.stringify(good), 'c.json');
    const merged = profileFlags(findProfile(loaded, 'plain', {}), {}, {});
    const c = resolveConfig(merged.url, merged.flags, { SYNCTOP_TOKEN: 'env' }, { oneShot: true, profileToken: merged.token! });
    expect(c.connection.headers.Authorization).toBe('Bearer env');
  });

  it('says when the token variable of a profile is not set', () => {
    const loaded = parseConfigFile(JSON.stringify(good), 'c.json');
    expect(() => profileFlags(findProfile(loaded, 'lab-gm', {}), {}, {})).toThrow(/takes its token from \$LAB_TOKEN, which is not set/);
  });

  it('names the known devices when one is not found', () => {
    const loaded = parseConfigFile(JSON.stringify(good), 'c.json');
    expect(() => findProfile(loaded, 'nope', {})).toThrow(/no device "nope" in c.json; known: lab-gm, plain/);
    expect(() => findProfile(null, 'x', { XDG_CONFIG_HOME: '/cfg' })).toThrow(/no config file at \/cfg\/synctop\/config.json/);
  });

  it('warns when a file holding a token is readable by others; a missing default file is no profiles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'synctop-cfg-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify(good));
    chmodSync(path, 0o644);
    expect(loadConfigFile(path, {})!.warnings[0]).toMatch(/can be read by other users: chmod 600/);
    chmodSync(path, 0o600);
    expect(loadConfigFile(path, {})!.warnings).toEqual([]);
    expect(loadConfigFile(undefined, { XDG_CONFIG_HOME: join(dir, 'none') })).toBeNull();
    expect(() => loadConfigFile(join(dir, 'missing.json'), {})).toThrow(/no such file/);
  });
});
