// Shared pieces of the benchmarks: start the real server (a child process, as
// in production), start a bare node:http baseline, load either with autocannon.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/database.ts';
import { join } from 'node:path';

export interface Server {
  url: string;
  stop(): Promise<void>;
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export const CONNECTIONS = 50;
export const DURATION_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);

/** The service on a fresh SQLite file; limits raised so the benchmark measures work, not 429s. */
export async function startService(env: Record<string, string> = {}): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'forum-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'forum.db')}`,
      RATE_LIMIT_GUEST: '1000000000',
      RATE_LIMIT_AUTHENTICATED: '1000000000',
      LOG_LEVEL: 'info', // as in production: one line per request (sent to /dev/null here)
      ...env,
    },
    // Log lines go straight to /dev/null: read through a pipe they would cost the load generator's CPU.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = await readyUrl(child, `http://127.0.0.1:${port}`, '/api/hello');
  return {
    url,
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A bare node:http server answering the same JSON as /api/hello: the ceiling to compare with. */
export async function startBareServer(): Promise<Server> {
  const code = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      const body = JSON.stringify({ success: true, data: { message: 'Hello! The forum API is up and running.', version: '1.0.0', php_version: process.versions.node, timestamp: Math.floor(Date.now() / 1000) } });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(Number(process.env.PORT), '127.0.0.1');`;
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PORT: String(port) } });
  const url = await readyUrl(child, `http://127.0.0.1:${port}`, '/');
  return { url, stop: () => stopChild(child) };
}

export async function measure(name: string, url: string, options: { connections?: number; headers?: Record<string, string> } = {}): Promise<Measurement> {
  // Warm up (JIT, caches) before the measured run.
  await autocannon({ url, connections: 10, duration: 2, headers: options.headers ?? {} });
  const result = await autocannon({ url, connections: options.connections ?? CONNECTIONS, duration: DURATION_SECONDS, headers: options.headers ?? {} });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A JSON API call against a started service; throws on any non-2xx answer (seeding must not half-fail). */
export async function callApi<T = unknown>(base: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export function printTable(title: string, rows: Measurement[], baseline?: Measurement): void {
  console.log(`\n## ${title}\n`);
  console.log(`| target | req/s | p50 ms | p99 ms | non-2xx | errors |${baseline ? ` vs ${baseline.name} |` : ''}`);
  console.log(`|---|---:|---:|---:|---:|---:|${baseline ? '---:|' : ''}`);
  for (const row of rows) {
    const ratio = baseline ? ` ${((row.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}% |` : '';
    console.log(`| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50} | ${row.p99} | ${row.non2xx} | ${row.errors} |${ratio}`);
  }
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Polls the server until it answers 200 (start-up includes migrations and, for some groups, the Unicode import). */
async function readyUrl(child: ChildProcess, url: string, probe: string): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${probe}`)).ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server at ${url} did not become ready`);
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Logs in through /login/ as a browser would; the session's Cookie header. */
export async function webSession(base: string, user: { username: string; password: string }): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const form = await fetch(`${base}/login/`);
  keep(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (csrf === undefined) throw new Error('no CSRF token on /login/');
  const login = await fetch(`${base}/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, username: user.username, password: user.password }).toString(),
  });
  if (login.status !== 303) throw new Error(`web login answered ${login.status}`);
  keep(login);
  return header();
}

/**
 * Runs `work` on each database a benchmark measures: a fresh SQLite file, then
 * (unless `skipPostgresEnv` is "0") a PostgreSQL database made for the run on
 * BENCH_POSTGRES_URL's server and dropped after it.
 */
export async function onEachDatabase(
  prefix: string,
  skipPostgresEnv: string,
  work: (kind: 'sqlite' | 'postgres', config: DatabaseConfig, url: string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `forum-bench-${prefix}-`));
  try {
    const path = join(dir, 'forum.db');
    await work('sqlite', { dialect: 'sqlite', path }, `sqlite:${path}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (process.env[skipPostgresEnv] === '0') return;
  const admin = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${prefix}_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    await work('postgres', { dialect: 'postgres', url: url.toString() }, url.toString());
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

/**
 * After a fixture is written: fresh planner statistics and, on PostgreSQL, visibility maps, as
 * autovacuum keeps them on a live forum (its index-only scans read a row for each entry until a
 * page is marked all-visible).
 */
export async function settle(database: DatabaseHandle): Promise<void> {
  await sql`${sql.raw(database.dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(database.db);
}
