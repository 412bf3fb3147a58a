// The tracker benchmarks (`npm run bench tracker`):
// 1. announce throughput: a bare node:http server answering a fixed bencoded
//    body vs the service's GET /bt/announce.php, on a database of 10,000
//    users (each with a passkey) and 10,000 torrents, 100 connections, random
//    peers with mixed events (started, plain re-announces, completed,
//    stopped); min interval 0 so that every announce takes the full path.
//    Again with REDIS_URL (the Redis peer store) when Redis answers.
//    Throughput is measured saturated (100 connections, as fast as the server
//    answers); latency at a fixed offered load (LATENCY_RATE announces a
//    second), because a saturated closed loop's latency is only its
//    connections divided by its throughput: there bare node:http's own p99 is
//    17–29 ms on this machine, and no server behind it can be under 20 ms.
//    Then as BitTorrent clients mostly announce (issue 33): a fresh TCP
//    connection for every announce, bare, the service and, when Debian's
//    opentracker is installed, opentracker (C, in memory, public; the bench's
//    torrents on its whitelist) as a peer figure.
// 2. memory: 1,000,000 peers in the memory store, heap and buffers per peer.
import autocannon from 'autocannon';
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { generatePasskey } from '../src/tracker/passkeys.ts';
import { DURATION_SECONDS, printTable, startService, type Measurement } from './lib.ts';
import { usernameSkeleton } from '../src/db/username-skeleton.ts';

const USERS = 10_000;
const TORRENTS = 10_000;
const CONNECTIONS = 100;
/** Distinct peers the load draws from (user, torrent, peer_id). */
const PEERS = 50_000;
/**
 * The offered load at which latency is judged: 1,000 announces a second is a
 * swarm of 1.8 million peers announcing every 30 minutes, beyond the largest
 * TorrentPier sites, and under a quarter of the memory store's saturated rate
 * here, so it measures the answer's own time rather than a queue.
 */
const LATENCY_RATE = Number(process.env['BENCH_TRACKER_RATE'] ?? 1000);
const LATENCY_CONNECTIONS = 20;

interface Fixture {
  dir: string;
  databaseUrl: string;
  passkeys: string[];
  hashes: Buffer[];
}

export async function seed(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-bench-'));
  const path = join(dir, 'forum.db');
  const log = pino({ level: 'silent' });
  const database = openDatabase({ dialect: 'sqlite', path }, log);
  await migrateToLatest(database, log);
  const now = new Date().toISOString();
  const passkeys: string[] = [];
  const hashes: Buffer[] = [];
  await database.db.transaction().execute(async (trx) => {
    for (let start = 0; start < USERS; start += 500) {
      const rows = Array.from({ length: Math.min(500, USERS - start) }, (_, i) => {
        const n = start + i;
        return {
          username: `peer${n}`,
          username_key: `peer${n}`,
          username_skeleton: usernameSkeleton(`peer${n}`),
          email: `peer${n}@bench.test`,
          email_key: `peer${n}@bench.test`,
          password_hash: 'x',
          role: 'user' as const,
          status: 'active' as const,
          created_at: now,
          updated_at: now,
        };
      });
      const ids = await trx.insertInto('users').values(rows).returning('id').execute();
      const keys = ids.map(() => generatePasskey());
      passkeys.push(...keys);
      await trx
        .insertInto('passkeys')
        .values(ids.map((row, i) => ({ user_id: row.id, passkey: keys[i]!, created_at: now })))
        .execute();
    }
    const forum = await trx.insertInto('forums').values({ name: 'Bench', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    for (let start = 0; start < TORRENTS; start += 500) {
      const count = Math.min(500, TORRENTS - start);
      const topics = await trx
        .insertInto('topics')
        .values(
          Array.from({ length: count }, (_, i) => ({
            forum_id: forum.id,
            title: `Release ${start + i}`,
            author_id: null,
            status: 'published' as const,
            last_post_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute();
      const batch = topics.map(() => createHash('sha1').update(randomBytes(16)).digest());
      hashes.push(...batch);
      await trx
        .insertInto('torrents')
        .values(
          topics.map((topic, i) => ({
            topic_id: topic.id,
            uploader_id: null,
            info_hash_v1: batch[i]!.toString('hex'),
            info_hash_v2: null,
            info_hash_v2_short: null,
            name: `release-${start + i}`,
            size: 1 << 30,
            piece_length: 1 << 20,
            piece_count: 1024,
            files_count: 1,
            creation_date: null,
            metainfo: Buffer.from('d4:infodee'),
            status: 'checked' as const,
            freeleech: 'none' as const,
            registered_at: now,
            status_changed_at: now,
          })),
        )
        .execute();
    }
  });
  await database.close();
  return { dir, databaseUrl: `sqlite:${path}`, passkeys, hashes };
}

function encode(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += `%${byte < 16 ? '0' : ''}${byte.toString(16)}`;
  return out;
}

/** Announce URLs for a pool of peers, each moving through started → re-announces → completed / stopped. */
export function announceLoad(fixture: Fixture): () => string {
  const peers = Array.from({ length: PEERS }, () => {
    const user = Math.floor(Math.random() * USERS);
    const torrent = Math.floor(Math.random() * TORRENTS);
    return {
      prefix: `/bt/announce.php?uk=${fixture.passkeys[user]}&info_hash=${encode(fixture.hashes[torrent]!)}&peer_id=${encode(Buffer.concat([Buffer.from('-BN0001-'), randomBytes(12)]))}&port=${1024 + Math.floor(Math.random() * 60000)}&compact=1`,
      state: 0 as 0 | 1 | 2, // 0 not started, 1 leeching, 2 seeding
      uploaded: 0,
      downloaded: 0,
      left: 1 << 30,
    };
  });
  return () => {
    const peer = peers[Math.floor(Math.random() * PEERS)]!;
    let event = '';
    if (peer.state === 0) {
      event = 'started';
      peer.state = Math.random() < 0.3 ? 2 : 1;
      peer.left = peer.state === 2 ? 0 : 1 << 30;
    } else {
      const roll = Math.random();
      peer.uploaded += Math.floor(Math.random() * 1_000_000);
      if (peer.state === 1) peer.downloaded += Math.floor(Math.random() * 1_000_000);
      if (roll < 0.05 && peer.state === 1) {
        event = 'completed';
        peer.state = 2;
        peer.left = 0;
      } else if (roll > 0.95) {
        event = 'stopped';
        peer.state = 0;
      }
    }
    return `${peer.prefix}&uploaded=${peer.uploaded}&downloaded=${peer.downloaded}&left=${peer.left}${event === '' ? '' : `&event=${event}`}`;
  };
}

function runLoad(base: string, next: () => string, duration: number, rate?: number, fresh = false) {
  return autocannon({
    url: base,
    connections: rate === undefined ? CONNECTIONS : LATENCY_CONNECTIONS,
    ...(rate === undefined ? {} : { overallRate: rate }),
    // A new connection for every request, as most clients announce: the server closes each after its answer
    // and autocannon connects again (its reconnectRate: 1 sends nothing at all, autocannon 8).
    ...(fresh ? { headers: { connection: 'close' } } : {}),
    duration,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: next() }) }],
  });
}

/** Warm-up at full load: caches fill and the JIT settles before the measured runs. */
export async function warmUp(base: string, next: () => string): Promise<void> {
  await runLoad(base, next, 10);
}

/** Saturated (throughput), or at `rate` announces a second (latency; autocannon corrects for coordinated omission). */
export async function measureAnnounce(name: string, base: string, next: () => string, rate?: number, fresh = false): Promise<Measurement> {
  const result = await runLoad(base, next, DURATION_SECONDS, rate, fresh);
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** A bare node:http server answering a fixed compact announce reply of 50 peers. */
async function bareTracker(): Promise<{ url: string; stop(): Promise<void> }> {
  const code = `
    const http = require('node:http');
    const peers = Buffer.alloc(300, 7);
    const body = Buffer.concat([Buffer.from('d8:completei10e10:downloadedi3e10:incompletei40e8:intervali1800e12:min intervali300e5:peers300:'), peers, Buffer.from('6:peers60:e')]);
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
      res.end(body);
    }).listen(Number(process.env.PORT), '127.0.0.1');`;
  const { createServer } = await import('node:net');
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = (probe.address() as { port: number }).port;
  probe.close();
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PORT: String(port) } });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const OPENTRACKER = '/usr/bin/opentracker';

/** Debian's opentracker on a free port, the fixture's torrents on its whitelist; null when it is not installed. */
async function opentracker(fixture: Fixture): Promise<{ url: string; stop(): Promise<void> } | null> {
  const { chmodSync, existsSync, writeFileSync } = await import('node:fs');
  if (!existsSync(OPENTRACKER)) return null;
  // Its own directory, readable by nobody (the fixture's is private to us).
  const root = join(fixture.dir, 'opentracker');
  mkdirSync(root, { mode: 0o755 });
  chmodSync(fixture.dir, 0o711);
  writeFileSync(join(root, 'whitelist.txt'), `${fixture.hashes.map((hash) => hash.toString('hex')).join('\n')}\n`, { mode: 0o644 });
  const { createServer } = await import('node:net');
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = (probe.address() as { port: number }).port;
  probe.close();
  // It changes root to -d (so the whitelist is named from there) and runs as nobody.
  const child = spawn(OPENTRACKER, ['-i', '127.0.0.1', '-p', String(port), '-P', String(port), '-d', root, '-w', '/whitelist.txt'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}/stats`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  // A figure of refusals would flatter it: one announce must be answered with peers' counts.
  const check = await (await fetch(`${url}/announce?info_hash=${encode(fixture.hashes[0]!)}&peer_id=-BN0001-000000000000&port=6881&left=0`)).text();
  if (!check.includes('8:complete')) {
    await stop();
    throw new Error(`opentracker refused the bench's torrents: ${check}`);
  }
  return { url, stop };
}

async function redisAnswers(url: string): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Rounds of bare, memory, Redis measured one after the other (BENCH_ROUNDS, default 3): on a shared machine only ratios within a round mean something. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

export async function trackerBench(): Promise<void> {
  const fixture = await seed();
  const stops: (() => Promise<void>)[] = [];
  try {
    const bare = await bareTracker();
    stops.push(() => bare.stop());
    const env = { TRACKER_MIN_INTERVAL: '0', DATABASE_URL: fixture.databaseUrl, EMOJI_CATALOG: 'none' };
    const service = await startService(env);
    stops.push(() => service.stop());
    const memoryLoad = announceLoad(fixture);

    const redisUrl = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    const prefix = `bench-tracker-${randomBytes(4).toString('hex')}:`;
    let redis: { url: string; load: () => string } | null = null;
    if (await redisAnswers(redisUrl)) {
      const withRedis = await startService({ ...env, REDIS_URL: redisUrl, TRACKER_REDIS_PREFIX: prefix });
      stops.push(async () => {
        await withRedis.stop();
        const { RedisSwarmStore } = await import('../src/tracker/swarm/redis.ts');
        const cleanup = new RedisSwarmStore(redisUrl, { expiryMs: 1, prefix });
        await cleanup.clear();
        await cleanup.close();
      });
      redis = { url: withRedis.url, load: announceLoad(fixture) };
    } else {
      console.log(`\n(Redis at ${redisUrl} does not answer: the Redis store is not measured.)`);
    }

    const peer = await opentracker(fixture);
    if (peer !== null) stops.push(() => peer.stop());
    else console.log(`\n(${OPENTRACKER} is not installed: opentracker is not measured.)`);
    // The same announces, on opentracker's path (it ignores the passkey).
    const peerPool = announceLoad(fixture);
    const peerLoad = () => peerPool().replace('/bt/announce.php?', '/announce?');

    await warmUp(bare.url, () => '/announce');
    await warmUp(service.url, memoryLoad);
    if (redis !== null) await warmUp(redis.url, redis.load);
    for (let round = 1; round <= ROUNDS; round++) {
      const load = (await import('node:os'))
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ');
      const bareResult = await measureAnnounce(`round ${round}: bare node:http, fixed bencoded body`, bare.url, () => '/announce');
      const rows = [bareResult, await measureAnnounce(`round ${round}: GET /bt/announce.php (memory store)`, service.url, memoryLoad)];
      if (redis !== null) rows.push(await measureAnnounce(`round ${round}: GET /bt/announce.php (Redis store)`, redis.url, redis.load));
      printTable(
        `tracker announce round ${round}, saturated (load average ${load}), ${USERS} users, ${TORRENTS} torrents, ${PEERS} peers, ${CONNECTIONS} connections (targets: memory ≥ 50% of bare, Redis ≥ 25%)`,
        rows,
        bareResult,
      );
      const atRate = [
        await measureAnnounce(`round ${round}: bare node:http at ${LATENCY_RATE}/s`, bare.url, () => '/announce', LATENCY_RATE),
        await measureAnnounce(`round ${round}: GET /bt/announce.php (memory store) at ${LATENCY_RATE}/s`, service.url, memoryLoad, LATENCY_RATE),
      ];
      if (redis !== null)
        atRate.push(await measureAnnounce(`round ${round}: GET /bt/announce.php (Redis store) at ${LATENCY_RATE}/s`, redis.url, redis.load, LATENCY_RATE));
      printTable(`tracker announce round ${round}, ${LATENCY_RATE} announces a second over ${LATENCY_CONNECTIONS} connections (target: p99 < 20 ms)`, atRate);
      const freshBare = await measureAnnounce(`round ${round}: bare node:http, a connection each`, bare.url, () => '/announce', undefined, true);
      const fresh = [
        freshBare,
        await measureAnnounce(`round ${round}: GET /bt/announce.php (memory store), a connection each`, service.url, memoryLoad, undefined, true),
      ];
      if (redis !== null)
        fresh.push(await measureAnnounce(`round ${round}: GET /bt/announce.php (Redis store), a connection each`, redis.url, redis.load, undefined, true));
      if (peer !== null) fresh.push(await measureAnnounce(`round ${round}: opentracker, a connection each`, peer.url, peerLoad, undefined, true));
      printTable(
        `tracker announce round ${round}, a new TCP connection for every announce, ${CONNECTIONS} at a time (target: ≥ 40% of bare)`,
        fresh,
        freshBare,
      );
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(fixture.dir, { recursive: true, force: true });
  }
  if (process.env['BENCH_TRACKER_MEMORY'] !== '0') await peerMemory();
}

/** 1,000,000 peers in the memory store, measured in a child process with --expose-gc. */
async function peerMemory(): Promise<void> {
  const child = spawn(process.execPath, ['--expose-gc', 'bench/tracker-memory.ts'], { stdio: ['ignore', 'inherit', 'inherit'] });
  await new Promise((resolve) => child.once('exit', resolve));
}
