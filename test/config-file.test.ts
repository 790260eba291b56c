import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, UsageError } from '../src/config.js';
import {
  CONFIG_FILE_MAX_BYTES,
  defaultConfigPath,
  expandConfigPath,
  findProfile,
  loadConfigFile,
  parseConfigFile,
  profileFlags,
  resolveProfile,
  withoutCommandLineCredentials,
} from '../src/config-file.js';

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
    ['{', /config file c.json: it is not valid JSON at line 1, column 2/],
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
    expect(merged.flags).toMatchObject({ interval: 3, ptpPorts: '0,2', ptpWarn: '2us', minSats: 6 });
    expect(merged.headers).toEqual({ 'X-Site': 'north' });
    const config = resolveConfig(merged.url, merged.flags, {}, { oneShot: false, profileToken: merged.token!, profileHeaders: merged.headers });
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
    expect(() => findProfile(loaded, 'nope', {})).toThrow(/no profile named "nope" in c.json; known: lab-gm, plain/);
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

describe('config file: hostile or careless files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synctop-cfg-'));

  it.each([
    // The text near the error is a token: the message gives line and column, never the text.
    ['{"devices": {"a": {"url": "http://x", "token": hunter2secret}}}', 1, 48, 'a value that is not JSON'],
    ['{\n  "devices": {\n    "a": {"url": "http://x", "token": "hunter2secret",}\n  }\n}', 3, 55, 'a property name in double quotes was expected'],
    ['{"devices": {"a": {"token": "hunter2secret', 1, 29, 'an unterminated string'],
    ['{"devices": {}} hunter2secret', 1, 17, 'a value that is not JSON'],
  ])('a JSON syntax error says where, without quoting the file: %j', (text, line, column, what) => {
    let message = '';
    try {
      parseConfigFile(text, 'c.json');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`it is not valid JSON at line ${line}, column ${column}: ${what}`);
    expect(message).not.toMatch(/hunter|secret|"url"|"token"/);
  });

  it.each([
    [{ devices: { a: { url: 'http://x', interval: '5' } } }, '"devices.a.interval" must be a number (got a string)'],
    [{ devices: { a: { url: 'http://x', insecure: 'yes' } } }, '"devices.a.insecure" must be a boolean (got a string)'],
    [{ devices: { a: { url: 'http://x', headers: ['X: y'] } } }, '"devices.a.headers" must be an object (got a list)'],
    [{ devices: { a: { url: 7 } } }, '"devices.a.url" must be a string (got a number)'],
    [{ devices: [] }, '"devices" must be an object (got a list)'],
    [{ devices: { a: { token: 'x' } } }, '"devices.a.url" is missing'],
  ])('a wrong type is a wrong type, not "missing": %j', (json, message) => {
    expect(() => parseConfigFile(JSON.stringify(json), 'c.json')).toThrow(`config file c.json: ${message}`);
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])('@%s is no profile (no prototype lookups)', (name) => {
    const loaded = parseConfigFile(JSON.stringify(good), 'c.json');
    expect(() => findProfile(loaded, name, {})).toThrow(`no profile named "${name}" in c.json; known: lab-gm, plain`);
  });

  it('a FIFO as --config is refused at once instead of blocking', () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => loadConfigFile(fifo, {})).toThrow(`config file ${fifo}: it is a FIFO (named pipe), not a regular file`);
    expect(() => loadConfigFile(dir, {})).toThrow(/it is a directory/);
  });

  it('a config file over 1 MiB is refused without being parsed', () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"devices": {}, "$schema": "${'x'.repeat(CONFIG_FILE_MAX_BYTES)}"}`);
    expect(() => loadConfigFile(big, {})).toThrow(`config file ${big}: it is larger than 1 MiB`);
  });

  it('file paths in the config file: ~/ is the home directory, relative paths are next to the config file', () => {
    expect(expandConfigPath('~/.config/synctop/site-7.cookies', '/etc/synctop', { HOME: '/home/tech' })).toBe('/home/tech/.config/synctop/site-7.cookies');
    expect(expandConfigPath('site.cookies', '/etc/synctop', { HOME: '/home/tech' })).toBe('/etc/synctop/site.cookies');
    expect(expandConfigPath('/abs/ca.pem', '/etc/synctop', { HOME: '/home/tech' })).toBe('/abs/ca.pem');
    // The README's own example, end to end: a cookieFile under ~/ is read.
    const home = mkdtempSync(join(tmpdir(), 'synctop-home-'));
    mkdirSync(join(home, '.config', 'synctop'), { recursive: true });
    writeFileSync(join(home, '.config', 'synctop', 'site-7.cookies'), 'SESSION=abc\n', { mode: 0o600 });
    const path = join(dir, 'readme.json');
    writeFileSync(path, JSON.stringify({ devices: { 'site-7': { url: 'https://192.0.2.17', cookieFile: '~/.config/synctop/site-7.cookies' } } }));
    const env = { HOME: home };
    const c = resolveProfile(loadConfigFile(path, env), 'site-7', {}, env, { oneShot: true, credentials: 'command-line' });
    expect(c.connection.headers.Cookie).toBe('SESSION=abc');
  });

  it('headers from the config file are no ps risk: the argv warning is for --header only', () => {
    const loaded = parseConfigFile(JSON.stringify({ devices: { a: { url: 'https://10.0.0.7', headers: { 'X-Auth-Token': 'from-file' } } } }), 'c.json');
    const fromFile = resolveProfile(loaded, 'a', {}, {}, { oneShot: true, credentials: 'command-line' });
    expect(fromFile.connection.headers).toEqual({ 'X-Auth-Token': 'from-file' });
    expect(fromFile.warnings).toEqual([]);
    const fromArgv = resolveProfile(loaded, 'a', { header: ['X-Auth-Token: typed'] }, {}, { oneShot: true, credentials: 'command-line' });
    expect(fromArgv.connection.headers).toEqual({ 'X-Auth-Token': 'typed' });
    expect(fromArgv.warnings.join('\n')).toMatch(/X-Auth-Token header on the command line is visible to every user in ps/);
  });

  it('a profile header the HTTP client would refuse is a usage error naming the profile key', () => {
    const loaded = parseConfigFile(JSON.stringify({ devices: { a: { url: 'https://10.0.0.7', headers: { 'X-Token': 'a\nb' } } } }), 'c.json');
    expect(() => resolveProfile(loaded, 'a', {}, {}, { oneShot: true, credentials: 'command-line' })).toThrow(UsageError);
    expect(() => resolveProfile(loaded, 'a', {}, {}, { oneShot: true, credentials: 'command-line' })).toThrow(/the profile's header X-Token: the X-Token value has a line break \(U\+000A\)/);
  });
});

describe('credentials belong to their device', () => {
  const files = mkdtempSync(join(tmpdir(), 'synctop-cred-'));
  const cookieA = join(files, 'a.cookies');
  const tokenB = join(files, 'b.token');
  writeFileSync(cookieA, 'SESSION=for-a\n', { mode: 0o600 });
  writeFileSync(tokenB, 'token-b\n', { mode: 0o600 });
  const loaded = parseConfigFile(
    JSON.stringify({ devices: { a: { url: 'https://10.0.0.1' }, b: { url: 'https://10.0.0.2', tokenFile: tokenB, headers: { 'X-Site': 'b' } }, c: { url: 'https://10.0.0.3', tokenEnv: 'SYNCTOP_TOKEN' } } }),
    join(files, 'c.json'),
  );
  const cli = { header: ['X-Site: a'], cookieFile: cookieA, insecure: true, interval: 3 };
  const env = { SYNCTOP_TOKEN: 'token-a' };

  it('the profile named on the command line gets the command line and the environment', () => {
    const a = resolveProfile(loaded, 'a', cli, env, { oneShot: false, credentials: 'command-line' });
    expect(a.connection.headers).toEqual({ 'X-Site': 'a', Authorization: 'Bearer token-a', Cookie: 'SESSION=for-a' });
    expect(a.connection.insecure).toBe(true);
  });

  it('any other profile uses only its own (the non-credential flags still apply)', () => {
    const b = resolveProfile(loaded, 'b', cli, env, { oneShot: false, credentials: 'own' });
    expect(b.connection.headers).toEqual({ 'X-Site': 'b', Authorization: 'Bearer token-b' });
    expect(b.connection.insecure).toBe(false);
    expect(b.intervalMs).toBe(3000);
    const a = resolveProfile(loaded, 'a', cli, env, { oneShot: false, credentials: 'own' });
    expect(a.connection.headers).toEqual({});
  });

  it("a profile's insecure: true holds unless --insecure is given (the parser reports an absent flag as false)", () => {
    const l = parseConfigFile(JSON.stringify({ devices: { lab: { url: 'https://10.0.0.9', insecure: true } } }), 'c.json');
    expect(resolveProfile(l, 'lab', { insecure: false }, {}, { oneShot: true, credentials: 'command-line' }).connection.insecure).toBe(true);
    expect(resolveProfile(l, 'lab', { insecure: false }, {}, { oneShot: true, credentials: 'own' }).connection.insecure).toBe(true);
  });

  it('a profile that names SYNCTOP_TOKEN as its own variable keeps it', () => {
    const c = resolveProfile(loaded, 'c', cli, env, { oneShot: false, credentials: 'own' });
    expect(c.connection.headers).toEqual({ Authorization: 'Bearer token-a' });
  });

  it('withoutCommandLineCredentials drops exactly the credential flags and variables', () => {
    const { flags, env: rest } = withoutCommandLineCredentials({ ...cli, tokenFile: 't', ca: 'x', pinSha256: 'y', ptpPorts: '0' }, { ...env, HOME: '/h' });
    expect(flags).toEqual({ interval: 3, ptpPorts: '0' });
    expect(rest).toEqual({ HOME: '/h' });
  });
});
