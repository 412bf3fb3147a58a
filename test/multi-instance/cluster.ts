// What the multi-instance tests run: the service as real child processes
// (`node src/main.ts`) on their own ports, a private redis-server the test may
// stop and start, and a TCP proxy in front of PostgreSQL that the test cuts
// and restores to play a database restart without touching the shared server.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHILD_PROCESS_MS } from '../helpers/processes.ts';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Polls `check` until it returns a value other than undefined, at most `ms` (and 1000 tries). */
export async function within<T>(ms: number, check: () => Promise<T | undefined>, what: string): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let lastError: unknown;
  for (let attempt = 0; attempt < 1000 && Date.now() - started <= ms; attempt += 1) {
    try {
      const value = await check();
      if (value !== undefined) return { value, ms: Date.now() - started };
    } catch (error) {
      lastError = error;
    }
    await sleep(20);
  }
  throw new Error(`not within ${ms} ms: ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

export class Instance {
  readonly url: string;
  readonly #child: ChildProcess;
  #output = '';

  private constructor(child: ChildProcess, port: number) {
    this.#child = child;
    this.url = `http://127.0.0.1:${port}`;
    const keep = (chunk: Buffer) => {
      if (this.#output.length < 2_000_000) this.#output += chunk.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static async start(env: Record<string, string>): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const instance = new Instance(child, port);
    try {
      await within(
        CHILD_PROCESS_MS,
        async () => {
          if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${instance.output.slice(-2000)}`);
          return (await fetch(`${instance.url}/api/hello`)).status === 200 ? true : undefined;
        },
        `instance on port ${port} ready`,
      );
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    return instance;
  }

  /** Everything the process wrote (pino JSON lines). Logs are flushed at least every second. */
  get output(): string {
    return this.#output;
  }

  /** Log lines whose msg contains `text`. */
  logLines(text: string): string[] {
    return this.#output.split('\n').filter((line) => line.includes(text));
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const exited = once(this.#child, 'exit');
    this.#child.kill(signal);
    await Promise.race([exited, sleep(15_000)]);
    if (this.running) {
      this.#child.kill('SIGKILL');
      await once(this.#child, 'exit');
    }
  }

  fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const { json, headers, ...rest } = init;
    return fetch(`${this.url}${path}`, {
      ...rest,
      headers: {
        accept: 'application/json',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(headers as Record<string, string> | undefined),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      signal: AbortSignal.timeout(10_000),
    });
  }
}

export class PrivateRedis {
  readonly port: number;
  #child: ChildProcess | null = null;

  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.#child = child;
    await within(
      10_000,
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = connect(this.port, '127.0.0.1');
          socket.once('connect', () => {
            socket.end();
            resolve(true);
          });
          socket.once('error', () => resolve(undefined));
        }),
      `redis-server on ${this.port}`,
    );
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}

/** Forwards a local port to PostgreSQL; cut() drops every connection and stops listening, restore() listens again. */
export class TcpProxy {
  readonly port: number;
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;

  constructor(port: number, target: { host: string; port: number }) {
    this.port = port;
    this.#target = target;
  }

  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target.port, this.#target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
