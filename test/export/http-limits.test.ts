/**
 * The real exporter binary against a client that opens connections and never finishes a
 * request (a slowloris), with the open-file limit many systems default to (1,024): the
 * connections of one address are capped, so a scraper elsewhere still gets its answer, and the
 * header deadline frees the rest.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { startExporterProcess, type ExporterProcess } from '../e2e/exporter-process.js';
import { hasBuild, root } from '../e2e/tmux.js';

let sim: Simulator;
let exporter: ExporterProcess;
const sockets: Socket[] = [];

beforeAll(async () => {
  if (!hasBuild()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  sim = await startSimulator({ scenario: 'healthy' });
  exporter = await startExporterProcess([sim.url], { fdLimit: 1024 });
}, 30_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await exporter?.stop();
  await sim?.close();
});

function scrapeFrom(localAddress: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(exporter.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port: Number(port), path, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

describe('exporter HTTP server limits (real binary, 1,024 open files)', () => {
  it('1,100 unfinished requests from one address do not stop a scrape from another', async () => {
    const { hostname, port } = new URL(exporter.url);
    const opened = await Promise.all(
      Array.from(
        { length: 1100 },
        () =>
          new Promise<void>((resolve) => {
            const s = connect({ host: hostname, port: Number(port), localAddress: '127.0.0.1' }, () => {
              s.write('GET /metrics HTTP/1.1\r\nHost: x\r\n'); // never the blank line
              resolve();
            });
            s.on('error', () => resolve());
            s.resume();
            sockets.push(s);
          }),
      ),
    );
    expect(opened).toHaveLength(1100);
    const scrape = await scrapeFrom('127.0.0.2', '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.body).toMatch(/synctop_exporter_connections_refused_total \d+/);
    const refused = Number(/synctop_exporter_connections_refused_total (\d+)/.exec(scrape.body)![1]);
    expect(refused).toBeGreaterThanOrEqual(1100 - 256);
    const probe = await scrapeFrom('127.0.0.2', `/probe?target=${encodeURIComponent(sim.url)}`);
    expect(probe.status).toBe(200);
    expect(probe.body).toMatch(/synctop_up\{device="[^"]+"\} 1/);
  });
});
