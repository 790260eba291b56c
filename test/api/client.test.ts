/**
 * The client over real HTTP against small purpose-built servers: each one misbehaves in one
 * precise way (stall, trickle, oversized body, idle close), which the client must survive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceClient } from '../../src/api/client.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
const sockets = new Set<Socket>();

async function serve(handler: Handler): Promise<{ url: string; server: Server; connections: () => number; bodies: string[]; headers: IncomingMessage['headers'][] }> {
  let connections = 0;
  const bodies: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      headers.push(req.headers);
      handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, connections: () => connections, bodies, headers };
}

const ntpOk = JSON.stringify({
  success: true,
  data: { overallStatus: 'Synchronized', syncSourceName: 'GPS', sourceCount: 0, sources: [] },
});

afterEach(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('DeviceClient', () => {
  it('sends {} as the body of an operation without parameters, and the id when given', async () => {
    const srv = await serve((_req, res) => res.end(ntpOk));
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    await client.call('ntp');
    await client.call('ptp', { id: 3 });
    expect(srv.bodies).toEqual(['{}', '{"id":3}']);
    expect(srv.headers[0]!['content-type']).toBe('application/json');
    await client.close();
  });

  it('keeps a base path prefix and sends configured headers', async () => {
    let path = '';
    const srv = await serve((req, res) => {
      path = req.url ?? '';
      res.end(ntpOk);
    });
    const client = new DeviceClient({ baseUrl: `${srv.url}/device7/`, timeoutMs: 1000, headers: { Authorization: 'Bearer t0k' } });
    const r = await client.call('ntp');
    expect(r.ok).toBe(true);
    expect(path).toBe('/device7/api/v1/ntp/get_input_sources_status');
    expect(srv.headers[0]!.authorization).toBe('Bearer t0k');
    await client.close();
  });

  it('reuses one TCP connection for 100 sequential polls', async () => {
    const srv = await serve((_req, res) => res.end(ntpOk));
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    for (let i = 0; i < 100; i++) expect((await client.call('ntp')).ok).toBe(true);
    expect(srv.connections()).toBe(1);
    expect(client.stats.requests).toBe(100);
    await client.close();
  });

  it('cuts off a server that never answers at the deadline', async () => {
    const srv = await serve(() => undefined);
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 300 });
    const r = await client.call('ntp');
    // The device accepted the connection: the other operations are worth asking.
    expect(r).toMatchObject({ ok: false, error: { kind: 'network', code: 'TIMEOUT', connected: true } });
    if (!r.ok) expect(r.error.message).toMatch(/no complete answer within 300 ms/);
    client.destroy();
  });

  it('cuts off a 1-byte-per-interval trickle that an idle timeout would never catch', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 400 });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'network', code: 'TIMEOUT' } });
    client.destroy();
  });

  it('refuses an oversized body without reading all of it', async () => {
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (written = Math.min(written, written)));
      pump();
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 5000, maxResponseBytes: 256 * 1024 });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'protocol', code: 'SIZE' } });
    expect(written).toBeLessThan(50 * 1024 * 1024);
    client.destroy();
  });

  it('refuses up front a body whose declared length is over the cap', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 2000, maxResponseBytes: 1024 });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'protocol', code: 'SIZE' } });
    client.destroy();
  });

  it('retries once on a fresh connection when the reused socket was reset', async () => {
    let n = 0;
    const srv = await serve((req, res) => {
      n++;
      // The second request arrives on the kept-alive socket: the "device" drops it unanswered.
      if (n === 2) return void req.socket.destroy();
      res.end(ntpOk);
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    expect((await client.call('ntp')).ok).toBe(true);
    expect((await client.call('ntp')).ok).toBe(true);
    expect(client.stats.retries).toBe(1);
    expect(srv.connections()).toBe(2);
    await client.close();
  });

  it('names a refused connection', async () => {
    const srv = await serve((_req, res) => res.end(ntpOk));
    const url = srv.url;
    await new Promise((r) => srv.server.close(r));
    const client = new DeviceClient({ baseUrl: url, timeoutMs: 1000 });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED', connected: false } });
    if (!r.ok) expect(r.error.message).toMatch(/connection refused/);
    client.destroy();
  });

  it.each([
    // A token was sent: it is named as refused, never repeated (its source is unknown here).
    [401, /^token refused \(HTTP 401\): it is wrong or has expired; .*ntp:get_input_sources_status/],
    [403, /^token refused \(HTTP 403\): its user lacks permission ntp:get_input_sources_status/],
  ])('turns HTTP %i into an auth error naming the permission', async (status, message) => {
    const srv = await serve((_req, res) => {
      res.statusCode = status;
      res.end('{"success":false}');
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000, headers: { Authorization: 'Bearer very-secret' } });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'auth', code: String(status) } });
    if (!r.ok) {
      expect(r.error.message).toMatch(message);
      expect(r.error.message).not.toContain('very-secret');
    }
    await client.close();
  });

  it('describes an HTML error page by its title', async () => {
    const srv = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    });
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    const r = await client.call('ntp');
    expect(r).toMatchObject({ ok: false, error: { kind: 'http', code: '502', message: 'the device answered HTTP 502 with an HTML page titled "502 Bad Gateway"' } });
    await client.close();
  });

  it.each([
    ['not JSON', 'hello', /not JSON \(text starting "hello"\)/],
    ['truncated JSON', '{"success":true,"data":{"overall', /not JSON/],
    ['no envelope', '[1,2]', /unexpected answer: the answer: expected object, got an array/],
    ['wrong type deep inside', JSON.stringify({ success: true, data: { sources: [{ nameIp: 'a', stratum: { x: 1 } }] } }), /data\.sources\[0\]\.stratum: expected number, got object/],
    ['success without data', '{"success":true}', /success but sent no data/],
  ])('reports a protocol error for %s', async (_name, body, message) => {
    const srv = await serve((_req, res) => res.end(body));
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    const r = await client.call('ntp');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('protocol');
      expect(r.error.message).toMatch(message);
    }
    await client.close();
  });

  it.each([
    ['40003', 'gnss', /no GNSS receiver, or no permission to see it/],
    ['40004', 'ptp', /no PTP slave port with that id/],
    ['40007', 'ntp', /NTP input sources are unavailable/],
    ['40000', 'alarm', /blank parameters/],
    ['49999', 'ntp', /errorCode=49999 errorMessage=weird\.thing showType=9/],
  ] as const)('turns device error %s into a device error', async (code, op, message) => {
    const srv = await serve((_req, res) =>
      res.end(JSON.stringify({ success: false, errorCode: code, errorMessage: code === '49999' ? 'weird.thing' : 'x', showType: code === '49999' ? 9 : 4 })),
    );
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 1000 });
    const r = await client.call(op);
    expect(r).toMatchObject({ ok: false, error: { kind: 'device', code } });
    if (!r.ok) expect(r.error.message).toMatch(message);
    await client.close();
  });
});

describe('DeviceClient serialization', () => {
  it('sends one request at a time; a call queued behind a slow one is delayed, not failed', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const srv = await serve((_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end(ntpOk);
      }, 150);
    });
    // 400 ms each: the third call ends 450 ms after it was made, so it passes only because its
    // deadline starts with its turn; the margin over 150 ms absorbs a loaded machine.
    const client = new DeviceClient({ baseUrl: srv.url, timeoutMs: 400 });
    const results = await Promise.all([client.call('ntp'), client.call('ntp'), client.call('ntp')]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(maxInFlight).toBe(1);
    expect(srv.connections()).toBe(1);
    await client.close();
  });
});

describe('decode', () => {
  it('names the deepest failing field inside the GNSS list union', async () => {
    const { decode } = await import('../../src/api/client.js');
    const r = decode('gnss', JSON.stringify({ success: true, data: [{ id: 0, signal: [{ type: 'gps', count: 'many' }] }] }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('unexpected answer: data[0].signal[0].count: expected number, got string');
  });
});

describe('DeviceClient against the simulated device', () => {
  it('100 sequential polls of every operation reuse one TCP connection (counted by the device)', async () => {
    const { startSimulator } = await import('../../src/sim/server.js');
    const sim = await startSimulator({ scenario: 'healthy' });
    const client = new DeviceClient({ baseUrl: sim.url, timeoutMs: 1000 });
    try {
      for (let i = 0; i < 100; i++) {
        for (const op of ['ntp', 'gnss', 'alarm'] as const) expect((await client.call(op)).ok).toBe(true);
        expect((await client.call('ptp', { id: 0 })).ok).toBe(true);
      }
      expect(sim.stats.requests).toEqual({ ntp: 100, gnss: 100, alarm: 100, ptp: 100 });
      expect(sim.stats.connections).toBe(1);
    } finally {
      await client.close();
      await sim.close();
    }
  });
});
