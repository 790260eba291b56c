/**
 * HTTPS against the simulated device with the committed self-signed certificate: default
 * verification refuses it with a sentence a technician can act on (what is wrong, the SHA-256
 * fingerprint to pin, --ca and --insecure), and each way of trusting it works. Once through the
 * real binary's flags as well.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceClient, type ClientOptions } from '../../src/api/client.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { bin, hasBuild, root } from '../e2e/tmux.js';

const certFile = new URL('./device-cert.pem', import.meta.url);
const cert = readFileSync(certFile, 'utf8');
const key = readFileSync(new URL('./device-key.pem', import.meta.url), 'utf8');
/** "81:20:…" as Node (and openssl -fingerprint) print it. */
const FP = new X509Certificate(cert).fingerprint256;
const FP_BARE = FP.replace(/:/g, '').toLowerCase();
/** Some other certificate's fingerprint: every byte flipped. */
const WRONG_FP = FP.split(':')
  .map((b) => (0xff ^ parseInt(b, 16)).toString(16).padStart(2, '0'))
  .join(':');

let sim: Simulator;
const clients: DeviceClient[] = [];

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'healthy', tls: { cert, key } });
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await sim?.close();
});

function client(opts: Partial<ClientOptions> = {}): DeviceClient {
  const c = new DeviceClient({ baseUrl: sim.url, timeoutMs: 2000, ...opts });
  clients.push(c);
  return c;
}

describe('HTTPS simulator', () => {
  it('serves https:// on 127.0.0.1', () => {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('default verification', () => {
  it('refuses the self-signed certificate, names the problem, the fingerprint and both ways out', async () => {
    const r = await client().call('ntp');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('network');
    expect(r.error.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    // A failed TLS handshake is no connection: a one-shot mode asks nothing more.
    expect(r.error.connected).toBe(false);
    expect(r.error.message).toMatch(/self-signed certificate/);
    expect(r.error.message).toContain(`SHA-256 fingerprint is ${FP}`);
    expect(r.error.message).toMatch(/--pin-sha256/);
    expect(r.error.message).toMatch(/--ca FILE/);
    expect(r.error.message).toMatch(/--insecure/);
  });

  it('a CA that did not sign the certificate is still refused, with the fingerprint', async () => {
    // Any other PEM certificate: the Node root store's first entry will do.
    const { rootCertificates } = await import('node:tls');
    const r = await client({ ca: rootCertificates[0] }).call('alarm');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('network');
    expect(r.error.message).toContain(FP);
    expect(r.error.message).toMatch(/--insecure/);
  });
});

describe('ways to trust the device', () => {
  it.each<[string, Partial<ClientOptions>]>([
    ['insecure: true', { insecure: true }],
    ['ca: the certificate itself (subjectAltName IP:127.0.0.1)', { ca: cert }],
    ['pinSha256 with colons', { pinSha256: FP }],
    ['pinSha256 bare lower-case hex', { pinSha256: FP_BARE }],
  ])('%s reads every operation', async (_name, opts) => {
    const c = client(opts);
    for (const op of ['ntp', 'gnss', 'alarm'] as const) {
      const r = await c.call(op);
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
    const ptp = await c.call('ptp', { id: 0 });
    expect(ptp.ok).toBe(true);
  });

  it('a wrong pin is refused with a sentence naming the fingerprint presented', async () => {
    const r = await client({ pinSha256: WRONG_FP }).call('ntp');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('network');
    expect(r.error.code).toBe('PIN_MISMATCH');
    expect(r.error.message).toMatch(/does not match --pin-sha256/);
    expect(r.error.message).toContain(`it presents ${FP}`);
    expect(r.error.message).not.toContain(WRONG_FP);
  });

  it('a pin does not make a plain-HTTP device with the same port number unreachable', async () => {
    // A pin is about certificates only: the client ignores it over http:// (the command line
    // refuses the combination as bad usage before a client is made).
    const plain = await startSimulator({ scenario: 'healthy' });
    try {
      const c = new DeviceClient({ baseUrl: plain.url, timeoutMs: 2000, pinSha256: FP });
      clients.push(c);
      expect((await c.call('ntp')).ok).toBe(true);
    } finally {
      await plain.close();
    }
  });
});

describe('the binary', () => {
  const run = promisify(execFile);
  beforeAll(async () => {
    if (!hasBuild()) await run('npm', ['run', 'build', '--silent'], { cwd: root });
  }, 60_000);

  it('--once --pin-sha256 FP reads the device; without a way to trust it --json exits 1 naming the fingerprint', async () => {
    const ok = await run(process.execPath, [bin, sim.url, '--once', '--pin-sha256', FP, '--no-color'], { env: { ...process.env, NO_COLOR: '1' } });
    expect(ok.stdout).toMatch(/synctop report/);
    expect(ok.stdout).toMatch(/synchronized\s+to GPS/);
    expect(ok.stdout).not.toMatch(/self-signed/);

    // --json, not the text report: the report cuts lines at 120 columns, which today cuts the
    // fingerprint off the end of the sentence (reported to the report's owner).
    const bad = await run(process.execPath, [bin, sim.url, '--json']).then(
      () => {
        throw new Error('expected exit code 1 without a way to trust the certificate');
      },
      (err: { code: number; stdout: string }) => err,
    );
    expect(bad.code).toBe(1);
    const snap = JSON.parse(bad.stdout) as { ntp: { ok: boolean; error?: { kind: string; message: string } } };
    expect(snap.ntp.error?.kind).toBe('network');
    expect(snap.ntp.error?.message).toMatch(/self-signed certificate/);
    expect(snap.ntp.error?.message).toContain(FP);
    expect(snap.ntp.error?.message).toMatch(/--insecure/);
  });

  it.each([['--insecure'], ['--ca']])('%s works end to end', async (flag) => {
    const args = flag === '--ca' ? ['--ca', certFile.pathname] : [flag];
    const { stdout } = await run(process.execPath, [bin, sim.url, '--json', ...args]);
    const snap = JSON.parse(stdout) as { ntp: { ok: boolean }; alarm: { ok: boolean } };
    expect(snap.ntp.ok).toBe(true);
    expect(snap.alarm.ok).toBe(true);
  });
});
