/**
 * The simulated device: a real node:http server on loopback answering the four operations the
 * way the appliance does (POST only, the JSON envelope, 40000 for blank parameters, 40003 and
 * 40004 for missing receivers and ports), with keep-alive like a small embedded web server.
 * Data comes from a scenario (pure, in scenarios.ts); faults (faults.ts) spoil answers on demand.
 *
 * Everything it starts stops on close(): the listener, every socket (which ends stalled and
 * trickling answers) and a reboot's downtime.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { operationNames, operations, type OperationName } from '../api/endpoints.js';
import { errorEnvelope, faults, parseFaultSpec, successEnvelope, type Envelope, type Fault, type FaultTarget } from './faults.js';
import { answer, isScenarioName, scenarioNames, type DeviceClock, type ScenarioName } from './scenarios.js';

export interface SimOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  scenario?: ScenarioName;
  /** A fault spec, as for `synctop simulate --faults`. */
  faults?: string;
  /** When set, requests without `Authorization: Bearer <token>` get HTTP 401. */
  token?: string;
  /** Operations refused with HTTP 403 (a user without that permission). */
  deny?: OperationName[];
  /** Device seconds per real second: speeds up scenario timelines for tests. */
  timeScale?: number;
  seed?: number;
  /** Serve HTTPS with this certificate and key (PEM text) instead of plain HTTP. */
  tls?: { cert: string; key: string };
}

export interface SimStats {
  requests: Record<OperationName, number>;
  /** TCP connections accepted, over all boots: with keep-alive, sequential polls reuse one. */
  connections: number;
  maxInFlight: Record<OperationName, number>;
  inFlight: Record<OperationName, number>;
  /** The most requests of any operations in flight at once: 1 when clients keep to one at a time. */
  maxInFlightAll: number;
  /**
   * Every distinct value of each request header beyond the standard ones (authorization, cookie,
   * x-...), at most 16 per header: what credentials this device was sent (tests).
   */
  headersSeen: Record<string, string[]>;
}

export interface Simulator {
  url: string;
  port: number;
  stats: SimStats;
  setFault(op: FaultTarget, fault: Fault | null): void;
  setScenario(name: ScenarioName): void;
  /** Stops listening and drops every connection, stays down downMs, then boots with fresh data. */
  reboot(downMs: number): Promise<void>;
  /** Resolves when listener changes started by setFault (refused on or off) have taken effect. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const KEEPALIVE_MS = 5000;
const MAX_REQUEST_BYTES = 64 * 1024;
const JSON_TYPE = 'application/json;charset=UTF-8';

const operationByPath = new Map<string, OperationName>(operationNames.map((op) => [operations[op].path, op]));

/** Which operations take an id: ntp and alarm ignore one, gnss may filter by one, ptp needs one. */
const idRule: Record<OperationName, 'ignored' | 'optional' | 'required'> = {
  ntp: 'ignored',
  gnss: 'optional',
  alarm: 'ignored',
  ptp: 'required',
};

/**
 * The request parameters as the device reads them; undefined when it would answer 40000
 * no.blank.params (a missing, blank or non-JSON body, or a bad id).
 */
export function requestParams(op: OperationName, body: string): { id?: number } | undefined {
  if (body.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const rule = idRule[op];
  if (rule === 'ignored') return {};
  const id = (parsed as { id?: unknown }).id;
  if (id === undefined) return rule === 'required' ? undefined : {};
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? { id } : undefined;
}

/** Headers every client sends: not worth noting in headersSeen. */
const standardHeaders = new Set(['host', 'connection', 'content-type', 'content-length', 'accept', 'user-agent', 'accept-encoding', 'keep-alive']);

const perOperation = (): Record<OperationName, number> => ({ ntp: 0, gnss: 0, alarm: 0, ptp: 0 });

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendPage(res: ServerResponse, status: number, title: string, headers?: Record<string, string>): void {
  send(res, status, 'text/html', `<!DOCTYPE html>\n<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1></body></html>\n`, headers);
}

/** The request body as text, or undefined when it is too large or the client went away. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.once('end', () => resolve(size <= MAX_REQUEST_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.once('close', () => resolve(undefined));
    req.once('error', () => resolve(undefined));
  });
}

export async function startSimulator(opts: SimOptions = {}): Promise<Simulator> {
  const scenario = opts.scenario ?? 'healthy';
  if (!isScenarioName(scenario)) throw new Error(`unknown scenario "${String(scenario)}"; choose one of: ${scenarioNames.join(', ')}`);
  const spec = parseFaultSpec(opts.faults ?? '');
  if (!spec.ok) throw new Error(spec.message);
  const device = new SimulatedDevice({ ...opts, scenario });
  await device.start();
  for (const { target, fault } of spec.faults) device.setFault(target, fault);
  await device.settled();
  return device;
}

class SimulatedDevice implements Simulator {
  url = '';
  port: number;
  readonly stats: SimStats = { requests: perOperation(), connections: 0, maxInFlight: perOperation(), inFlight: perOperation(), maxInFlightAll: 0, headersSeen: Object.create(null) as Record<string, string[]> };

  private readonly host: string;
  private readonly token: string | undefined;
  private readonly deny: ReadonlySet<OperationName>;
  private readonly timeScale: number;
  private readonly seed: number;
  private readonly tls: { cert: string; key: string } | undefined;
  private scenario: ScenarioName;
  private boot = 0;
  private coldStart = false;
  private startedAtMs = Date.now();

  private readonly faults = new Map<OperationName, Fault>();
  private refusing = false;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private closed = false;
  /** Listener changes run one after another: refused on/off, reboots, close. */
  private transitions: Promise<void> = Promise.resolve();
  private readonly wakers = new Set<() => void>();

  constructor(opts: SimOptions & { scenario: ScenarioName }) {
    this.port = opts.port ?? 0;
    this.host = opts.host ?? '127.0.0.1';
    this.token = opts.token;
    this.deny = new Set(opts.deny ?? []);
    this.timeScale = opts.timeScale ?? 1;
    this.seed = opts.seed ?? 1;
    this.tls = opts.tls;
    this.scenario = opts.scenario;
  }

  async start(): Promise<void> {
    await this.listen();
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    this.url = `${this.tls ? 'https' : 'http'}://${host}:${this.port}`;
  }

  setFault(target: FaultTarget, fault: Fault | null): void {
    for (const op of target === 'all' ? operationNames : [target]) {
      if (fault) this.faults.set(op, fault);
      else this.faults.delete(op);
    }
    // "refused" cannot be per operation: a port either listens or it does not.
    const refusing = [...this.faults.values()].some((f) => f.kind === 'refused');
    if (refusing === this.refusing) return;
    this.refusing = refusing;
    void this.enqueue(() => (refusing ? this.unlisten() : this.listen()));
  }

  setScenario(name: ScenarioName): void {
    if (!isScenarioName(name)) throw new Error(`unknown scenario "${String(name)}"; choose one of: ${scenarioNames.join(', ')}`);
    this.scenario = name;
    this.startedAtMs = Date.now();
    this.coldStart = false;
  }

  reboot(downMs: number): Promise<void> {
    return this.enqueue(async () => {
      await this.unlisten();
      await this.pause(downMs);
      if (this.closed) return;
      // The device comes back with fresh data: reach registers, samples and PTP locks restart.
      this.boot++;
      this.coldStart = true;
      this.startedAtMs = Date.now();
      if (!this.refusing) await this.listen();
    });
  }

  settled(): Promise<void> {
    return this.enqueue(async () => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.wakers) wake();
    await this.enqueue(() => this.unlisten());
  }

  // -------------------------------------------------------------------------------------------

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.transitions.then(step);
    // A failed step (port taken on re-listen) must not block later ones, close() above all.
    this.transitions = run.catch(() => undefined);
    return run;
  }

  /** A downtime that close() cuts short, so a closing test never waits out a reboot. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  private clock(): DeviceClock {
    return {
      seed: this.seed,
      boot: this.boot,
      t: ((Date.now() - this.startedAtMs) / 1000) * this.timeScale,
      coldStart: this.coldStart,
      wallStartMs: this.startedAtMs,
    };
  }

  private listen(): Promise<void> {
    if (this.closed || this.server) return Promise.resolve();
    const handler: RequestListener = (req, res) => {
      // A bug in a scenario must show as one broken answer, not as a crashed simulator.
      this.handle(req, res).catch((err: unknown) => {
        if (res.headersSent) res.destroy();
        else sendPage(res, 500, `Simulator Error: ${err instanceof Error ? err.message : String(err)}`.replace(/[<>&]/g, ''));
      });
    };
    // An https.Server is a net.Server too: 'connection' still sees every TCP socket, so close()
    // and reboot() drop TLS connections the same way.
    const server: Server = this.tls ? createHttpsServer({ cert: this.tls.cert, key: this.tls.key }, handler) : createServer(handler);
    server.keepAliveTimeout = KEEPALIVE_MS;
    server.on('connection', (socket: Socket) => {
      this.stats.connections++;
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    return new Promise((resolve, reject) => {
      const fail = (err: NodeJS.ErrnoException) => {
        const why = err.code === 'EADDRINUSE' ? `port ${this.port} is already in use` : err.message;
        reject(new Error(`the simulated device cannot listen on ${this.host}:${this.port}: ${why}`));
      };
      server.once('error', fail);
      server.listen(this.port, this.host, () => {
        server.off('error', fail);
        this.server = server;
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private unlisten(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private track(op: OperationName, res: ServerResponse): void {
    this.stats.requests[op]++;
    const now = ++this.stats.inFlight[op];
    if (now > this.stats.maxInFlight[op]) this.stats.maxInFlight[op] = now;
    const all = Object.values(this.stats.inFlight).reduce((a, b) => a + b, 0);
    if (all > this.stats.maxInFlightAll) this.stats.maxInFlightAll = all;
    res.once('close', () => {
      this.stats.inFlight[op]--;
    });
  }

  private noteHeaders(req: IncomingMessage): void {
    for (const [name, value] of Object.entries(req.headers)) {
      if (standardHeaders.has(name) || value === undefined) continue;
      const seen = (this.stats.headersSeen[name] ??= []);
      const text = Array.isArray(value) ? value.join(', ') : value;
      if (!seen.includes(text) && seen.length < 16) seen.push(text);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const op = operationByPath.get(new URL(req.url ?? '/', 'http://device').pathname);
    if (!op) return sendPage(res, 404, 'Not Found');
    if (req.method !== 'POST') return sendPage(res, 405, 'Method Not Allowed', { allow: 'POST' });
    this.track(op, res);
    this.noteHeaders(req);
    const body = await readBody(req);
    if (body === undefined) return sendPage(res, 413, 'Request Entity Too Large');
    if (this.token !== undefined && req.headers.authorization !== `Bearer ${this.token}`) return sendPage(res, 401, 'Unauthorized');
    if (this.deny.has(op)) return sendPage(res, 403, 'Forbidden');

    const envelope = this.envelopeFor(op, body);
    const fault = this.faults.get(op);
    if (!fault) return send(res, 200, JSON_TYPE, JSON.stringify(envelope));
    faults[fault.kind].respond(
      {
        op,
        envelope,
        res,
        socket: req.socket,
        reboot: (downMs) => {
          // Once: the device that comes back is well.
          for (const [key, f] of this.faults) if (f.kind === 'reboot') this.faults.delete(key);
          this.reboot(downMs).catch(() => undefined);
        },
      },
      fault,
    );
  }

  private envelopeFor(op: OperationName, body: string): Envelope {
    const params = requestParams(op, body);
    if (!params) return errorEnvelope('40000');
    const result = answer(this.scenario, op, params.id, this.clock());
    return result.ok ? successEnvelope(result.data) : errorEnvelope(result.errorCode);
  }
}
