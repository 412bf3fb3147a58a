// Two instances of the service (child processes, two ports) on one PostgreSQL
// database and one Redis, as in production behind a load balancer. Redis is a
// private redis-server this test stops and starts; PostgreSQL is reached
// through a TCP proxy the test cuts and restores (a database restart as the
// service sees it: every connection dropped, new ones refused, then back),
// so the machine's shared servers are never touched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createHash, randomBytes } from 'node:crypto';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import { decode, type BencodeDict } from '../../src/tracker/bencode.ts';
import { generatePasskey } from '../../src/tracker/passkeys.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts';
import { announceUrl, peerId, scrapeUrl } from '../helpers/tracker.ts';
import { Instance, PrivateRedis, TcpProxy, freePort, within } from './cluster.ts';
import { usernameSkeleton } from '../../src/db/username-skeleton.ts';

const ADMIN = { username: 'cluster-admin', password: 'cluster password 1', email: 'cluster@example.test' };
const GUEST_LIMIT = 10;
/**
 * Writes on one instance must be seen on the other within this. On a quiet
 * machine it takes tens of milliseconds; no cache here expires on a timer, so
 * a write that is not passed on is never seen, and a bound of seconds tells
 * the two apart even beside a busy CPU (issue 34).
 */
const VISIBLE_WITHIN_MS = 5000;

const missing =
  !process.env['TEST_DATABASE_URL'] || !process.env['TEST_REDIS_URL']
    ? 'needs PostgreSQL and Redis (TEST_DATABASE_URL and TEST_REDIS_URL)'
    : spawnSync('redis-server', ['--version']).status !== 0
      ? 'redis-server is not installed'
      : false;

describe('two instances on one PostgreSQL and one Redis', { skip: missing, timeout: 240_000 }, () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let proxy: TcpProxy;
  let a: Instance;
  let b: Instance;
  let admin: Record<string, string>;
  let forumId: number;
  /** What every instance of the cluster is started with. */
  let env: Record<string, string>;
  const uploads = mkdtempSync(join(tmpdir(), 'forum-uploads-'));

  before(async () => {
    database = await createTestDatabase('postgres');
    redis = new PrivateRedis(await freePort());
    await redis.start();
    const real = new URL(database.url);
    proxy = new TcpProxy(await freePort(), { host: real.hostname, port: Number(real.port || 5432) });
    await proxy.restore();
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    env = {
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: redis.url,
      EMOJI_CATALOG: 'none',
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: '10',
      RATE_LIMIT_GUEST: String(GUEST_LIMIT),
      RATE_LIMIT_AUTHENTICATED: '100000',
      // Every announce is accounted (none is held back as too soon after the previous one).
      TRACKER_MIN_INTERVAL: '0',
      // Guests are told apart by X-Forwarded-For, so each check below uses a client of its own.
      TRUST_PROXY: 'true',
      UPLOAD_DIR: uploads,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_EMAIL: ADMIN.email,
    };
    // Started together: migrations and the admin bootstrap must cope.
    const started = await Promise.allSettled([Instance.start(env), Instance.start(env)]);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      for (const result of started) if (result.status === 'fulfilled') await result.value.kill('SIGKILL');
      throw failed.reason;
    }
    [a, b] = started.map((result) => (result as PromiseFulfilledResult<Instance>).value) as [Instance, Instance];
    const login = await a.fetch('/api/login', { method: 'POST', json: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(login.status, 200);
    admin = { authorization: `Bearer ${((await login.json()) as { data: { token: string } }).data.token}` };
    const forum = await a.fetch('/api/forums', { method: 'POST', headers: admin, json: { name: 'Cluster forum' } });
    assert.equal(forum.status, 201);
    forumId = ((await forum.json()) as { data: { id: number } }).data.id;
  });

  after(async () => {
    await a?.kill();
    await b?.kill();
    await proxy?.cut();
    await redis?.stop();
    await database?.drop();
    rmSync(uploads, { recursive: true, force: true });
  });

  const newTopic = async (on: Instance, title: string, body: string): Promise<{ id: number; url: string }> => {
    const response = await on.fetch('/api/topics', { method: 'POST', headers: admin, json: { forum_id: forumId, title, body } });
    assert.equal(response.status, 201, await response.clone().text());
    const data = ((await response.json()) as { data: { id: number; url?: string } }).data;
    return { id: data.id, url: new URL(data.url ?? `/topic/x.${data.id}/`, a.url).pathname };
  };
  const pageOf = async (on: Instance, topic: { id: number }): Promise<string> => {
    const response = await on.fetch(`/topic/x.${topic.id}/`, { headers: { accept: 'text/html' }, redirect: 'follow' });
    return response.text();
  };

  it('show a write on one instance on the other’s API and pages at once, caches included', async () => {
    const topic = await newTopic(a, 'Written on A', 'The first post, written on A');
    const api = await within(
      VISIBLE_WITHIN_MS,
      async () => ((await b.fetch(`/api/topics/${topic.id}`, { headers: admin })).status === 200 ? true : undefined),
      'topic on B',
    );
    assert.ok(api.ms <= VISIBLE_WITHIN_MS);

    // B renders the page (and caches the rendering), then A replies and adds a rule that rewrites it.
    assert.match(await pageOf(b, topic), /The first post, written on A/);
    const word = `zibble${process.pid}`;
    const reply = await a.fetch(`/api/topics/${topic.id}/posts`, { method: 'POST', headers: admin, json: { body: `A reply about ${word}` } });
    assert.equal(reply.status, 201);
    await within(VISIBLE_WITHIN_MS, async () => ((await pageOf(b, topic)).includes(`A reply about ${word}`) ? true : undefined), 'reply on B’s page');
    const rule = await a.fetch('/api/word-filters', {
      method: 'POST',
      headers: admin,
      json: { pattern: word, pattern_type: 'exact', filter_type: 'replace', replacement: 'REDACTED', applies_to: ['posts'] },
    });
    assert.equal(rule.status, 201, await rule.clone().text());
    await within(
      VISIBLE_WITHIN_MS,
      async () => ((await pageOf(b, topic)).includes('A reply about REDACTED') ? true : undefined),
      'new rule applied to B’s cached rendering',
    );

    // The emoji catalog's response cache on B.
    assert.equal((await b.fetch('/api/emoji/categories')).status, 200);
    const category = await a.fetch('/api/emoji/categories', { method: 'POST', headers: admin, json: { title: `Made on A ${process.pid}`, display_order: 1 } });
    assert.equal(category.status, 201);
    await within(
      VISIBLE_WITHIN_MS,
      async () => ((await (await b.fetch('/api/emoji/categories', { headers: admin })).text()).includes(`Made on A ${process.pid}`) ? true : undefined),
      'category in B’s catalog',
    );
  });

  it('apply a forum closed on A on B at the next request: its API, its page (cached before) and the lists', async () => {
    const created = await a.fetch('/api/forums', { method: 'POST', headers: admin, json: { name: `Closing ${process.pid}` } });
    assert.equal(created.status, 201);
    const closing = ((await created.json()) as { data: { id: number } }).data.id;
    const topic = await a.fetch('/api/topics', { method: 'POST', headers: admin, json: { forum_id: closing, title: 'Soon closed', body: 'Read while open' } });
    assert.equal(topic.status, 201);
    const topicId = ((await topic.json()) as { data: { id: number } }).data.id;
    const guestPage = async (path: string) =>
      (await b.fetch(path, { headers: { accept: 'text/html', 'x-forwarded-for': '198.51.100.40' }, redirect: 'follow' })).status;
    // B answers guests and keeps the renderings in its page cache.
    assert.equal((await b.fetch(`/api/forums/${closing}`, { headers: { 'x-forwarded-for': '198.51.100.41' } })).status, 200);
    assert.equal(await guestPage(`/forum/x.${closing}/`), 200);
    assert.equal(await guestPage(`/topic/x.${topicId}/`), 200);
    const levels = {
      view: 'admins',
      read: 'admins',
      post: 'admins',
      reply: 'admins',
      edit: 'admins',
      delete: 'admins',
      pin: 'admins',
      announce: 'admins',
      vote: 'admins',
      poll_create: 'admins',
      upload: 'admins',
      download: 'admins',
    };
    const closed = await a.fetch(`/api/forums/${closing}/permissions`, { method: 'PUT', headers: admin, json: { levels, grants: [] } });
    assert.equal(closed.status, 200, await closed.clone().text());
    await within(
      VISIBLE_WITHIN_MS,
      async () => ((await b.fetch(`/api/forums/${closing}`, { headers: { 'x-forwarded-for': '198.51.100.42' } })).status === 404 ? true : undefined),
      'forum gone from B’s API',
    );
    assert.equal(await guestPage(`/forum/x.${closing}/`), 404);
    assert.equal(await guestPage(`/topic/x.${topicId}/`), 404);
    const listed = (await (await b.fetch('/api/forums?per_page=100', { headers: { 'x-forwarded-for': '198.51.100.43' } })).json()) as {
      data: Array<{ id: number }>;
    };
    assert.ok(!listed.data.some((forum) => forum.id === closing));
    assert.equal((await b.fetch(`/api/forums/${closing}`, { headers: admin })).status, 200, 'admins still find it');
  });

  it('apply site settings changed on A on B at the next request: the name on its pages, registration closed', async () => {
    const name = `Cluster site ${process.pid}`;
    const changed = await a.fetch('/api/site', { method: 'PATCH', headers: admin, json: { name, registration_open: false } });
    assert.equal(changed.status, 200, await changed.clone().text());
    const page = async (path: string) =>
      (await b.fetch(path, { headers: { accept: 'text/html', 'x-forwarded-for': '198.51.100.50' }, redirect: 'follow' })).text();
    await within(VISIBLE_WITHIN_MS, async () => ((await page('/')).includes(name) ? true : undefined), 'B names the site anew');
    assert.match(await page('/register/'), /Registration is closed/);
    const reopened = await a.fetch('/api/site', { method: 'PATCH', headers: admin, json: { registration_open: true } });
    assert.equal(reopened.status, 200);
  });

  /** A user with a passkey and a checked torrent, written straight into the shared database. */
  const trackerFixture = async (): Promise<{ passkey: string; hash: Buffer; torrentId: number }> => {
    const handle = openDatabase({ dialect: 'postgres', url: database.url }, pino({ level: 'silent' }));
    try {
      const now = new Date().toISOString();
      const name = `swarm${process.pid}${randomBytes(3).toString('hex')}`;
      const user = await handle.db
        .insertInto('users')
        .values({
          username: name,
          username_key: name,
          username_skeleton: usernameSkeleton(name),
          email: `${name}@example.test`,
          email_key: `${name}@example.test`,
          password_hash: 'x',
          role: 'user',
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const passkey = generatePasskey();
      await handle.db.insertInto('passkeys').values({ user_id: user.id, passkey, created_at: now }).execute();
      const topic = await newTopic(a, `Release ${name}`, 'A release');
      const hash = createHash('sha1').update(randomBytes(16)).digest();
      const torrent = await handle.db
        .insertInto('torrents')
        .values({
          topic_id: topic.id,
          uploader_id: null,
          info_hash_v1: hash.toString('hex'),
          info_hash_v2: null,
          info_hash_v2_short: null,
          name,
          size: 1 << 20,
          piece_length: 1 << 18,
          piece_count: 4,
          files_count: 1,
          creation_date: null,
          metainfo: Buffer.from('d4:infodee'),
          status: 'checked',
          freeleech: 'none',
          registered_at: now,
          status_changed_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { passkey, hash, torrentId: torrent.id };
    } finally {
      await handle.close();
    }
  };
  const announce = async (on: Instance, url: string, client: string): Promise<BencodeDict> => {
    const response = await on.fetch(url, { headers: { 'x-forwarded-for': client } });
    assert.equal(response.status, 200);
    return decode(Buffer.from(await response.arrayBuffer())) as BencodeDict;
  };

  it('share one swarm through Redis: a peer announced to A is returned to a peer announcing to B, and scrape agrees on both', async () => {
    const { passkey, hash } = await trackerFixture();
    const seed = await announce(a, announceUrl({ passkey, infoHash: hash, peerId: peerId(), port: 6881, left: 0, event: 'started' }), '203.0.113.7');
    assert.equal(seed.get('failure reason'), undefined, String(seed.get('failure reason')));
    const leech = await announce(b, announceUrl({ passkey, infoHash: hash, peerId: peerId(), port: 51413, left: 100, event: 'started' }), '203.0.113.8');
    assert.equal(leech.get('failure reason'), undefined, String(leech.get('failure reason')));
    const peers = leech.get('peers') as Buffer;
    assert.equal(peers.length, 6);
    assert.equal(`${peers[0]}.${peers[1]}.${peers[2]}.${peers[3]}:${peers.readUInt16BE(4)}`, '203.0.113.7:6881');
    for (const on of [a, b]) {
      const scrape = await announce(on, scrapeUrl(passkey, [hash]), '203.0.113.9');
      const entry = (scrape.get('files') as BencodeDict).get(hash.toString('latin1')) as BencodeDict;
      assert.equal(entry.get('complete'), 1, `complete on ${on.url}`);
      assert.equal(entry.get('incomplete'), 1, `incomplete on ${on.url}`);
    }
  });

  it('freeze a torrent whatever its swarm holds (none, seeders only, leechers only): refused at once on the other instance, totals exact', async () => {
    const stats = async (): Promise<{ seeders: number; leechers: number }> => {
      const { seeders, leechers } = ((await (await a.fetch('/api/tracker/stats')).json()) as { data: { seeders: number; leechers: number } }).data;
      return { seeders, leechers };
    };
    const before = await stats();
    for (const [swarm, peers] of [
      ['empty', []],
      ['seeders only', [0, 0]],
      ['leechers only', [100]],
    ] as const) {
      const { passkey, hash, torrentId } = await trackerFixture();
      for (const left of peers) {
        const answer = await announce(a, announceUrl({ passkey, infoHash: hash, peerId: peerId(), left, event: 'started' }), '203.0.113.20');
        assert.equal(answer.get('failure reason'), undefined, `${swarm}: ${String(answer.get('failure reason'))}`);
      }
      // B has looked the torrent up (and cached it) before it is frozen on A.
      const scrape = await announce(b, scrapeUrl(passkey, [hash]), '203.0.113.21');
      assert.equal(scrape.get('failure reason'), undefined);
      const frozen = await a.fetch(`/api/torrents/${torrentId}`, { method: 'PATCH', headers: admin, json: { status: 'closed' } });
      assert.equal(frozen.status, 200, `${swarm}: ${await frozen.clone().text()}`);
      const refused = await announce(b, announceUrl({ passkey, infoHash: hash, peerId: peerId(), left: 100, event: 'started' }), '203.0.113.22');
      assert.match(String(refused.get('failure reason') ?? ''), /not available/, `${swarm}: refused on B at once`);
    }
    assert.deepEqual(await stats(), before, 'the frozen swarms are gone from the totals, which never go below them');
  });

  /** Every outage a limiter logged has been followed by its return, on both instances. */
  async function bothLimitersOnRedis(): Promise<void> {
    const settled = (instance: Instance) => instance.logLines('Redis is back').length === instance.logLines('Redis unreachable').length;
    await within(10_000, async () => (settled(a) && settled(b) ? true : undefined), 'both instances back on Redis');
  }

  it('refuse announces with a failure reason while Redis is down (no split per-instance swarms), and answer again once it is back', async () => {
    const { passkey, hash } = await trackerFixture();
    await redis.stop();
    try {
      const started = Date.now();
      const refused = await announce(a, announceUrl({ passkey, infoHash: hash, peerId: peerId(), left: 0, event: 'started' }), '203.0.113.10');
      assert.match(String(refused.get('failure reason') ?? ''), /could not answer just now/);
      assert.ok(Date.now() - started < 8000, 'refused promptly, not left hanging');
      const onB = await announce(b, scrapeUrl(passkey, [hash]), '203.0.113.11');
      assert.match(String(onB.get('failure reason') ?? ''), /could not answer just now/);
    } finally {
      await redis.start();
    }
    // The restarted Redis is empty: the swarm is rebuilt by the next announces.
    const seed = peerId();
    await within(
      10_000,
      async () => {
        const body = await announce(a, announceUrl({ passkey, infoHash: hash, peerId: seed, port: 6881, left: 0, event: 'started' }), '203.0.113.10');
        return body.get('failure reason') === undefined ? true : undefined;
      },
      'announces answered again on A',
    );
    const leech = await announce(b, announceUrl({ passkey, infoHash: hash, peerId: peerId(), port: 51413, left: 5, event: 'started' }), '203.0.113.12');
    assert.equal(leech.get('failure reason'), undefined);
    assert.equal(leech.get('complete'), 1);
    // The rate limiters reconnect on their own schedule; leave the cluster as it was found.
    await bothLimitersOnRedis();
  });

  it('share one rate-limit budget and one login throttle', async () => {
    const client = { 'x-forwarded-for': '198.51.100.1' };
    for (let i = 0; i < GUEST_LIMIT; i += 1) {
      const response = await (i % 2 === 0 ? a : b).fetch('/api/hello', { headers: client });
      assert.equal(response.status, 200, `request ${i + 1} of ${GUEST_LIMIT}`);
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(GUEST_LIMIT - i - 1));
    }
    assert.equal((await a.fetch('/api/hello', { headers: client })).status, 429);
    assert.equal((await b.fetch('/api/hello', { headers: client })).status, 429);

    const attacker = { 'x-forwarded-for': '198.51.100.2' };
    const wrong = { username: ADMIN.username, password: 'not the password' };
    for (let i = 0; i < 5; i += 1) {
      const response = await (i % 2 === 0 ? a : b).fetch('/api/login', { method: 'POST', headers: attacker, json: wrong });
      assert.equal(response.status, 401, `failure ${i + 1}`);
    }
    assert.equal((await b.fetch('/api/login', { method: 'POST', headers: attacker, json: wrong })).status, 429);
    assert.equal(
      (await a.fetch('/api/login', { method: 'POST', headers: { 'x-forwarded-for': '198.51.100.3' }, json: wrong })).status,
      429,
      'throttled by user name too',
    );
  });

  it('keep serving when Redis stops (limits per instance, logged once each) and share limits again when it is back', async () => {
    // Lines of the tracker test's outage above do not count.
    const earlier = { a: a.logLines('Redis unreachable').length, b: b.logLines('Redis unreachable').length };
    await redis.stop();
    const client = { 'x-forwarded-for': '198.51.100.4' };
    for (let i = 0; i < GUEST_LIMIT; i += 1)
      assert.equal((await a.fetch('/api/hello', { headers: client })).status, 200, `A, request ${i + 1} while Redis is down`);
    assert.equal((await a.fetch('/api/hello', { headers: client })).status, 429, 'A still limits, in its own memory');
    assert.equal((await b.fetch('/api/hello', { headers: client })).status, 200, 'B counts on its own');
    assert.equal((await b.fetch('/api/topics/1', { headers: admin })).status !== 500, true);
    await within(
      3000,
      async () => (a.logLines('Redis unreachable').length > earlier.a && b.logLines('Redis unreachable').length > earlier.b ? true : undefined),
      'outage logged',
    );
    await sleep(1500);
    assert.equal(a.logLines('Redis unreachable').length - earlier.a, 1, 'logged once on A');
    assert.equal(b.logLines('Redis unreachable').length - earlier.b, 1, 'logged once on B');

    await redis.start();
    await bothLimitersOnRedis();
    const later = { 'x-forwarded-for': '198.51.100.5' };
    for (let i = 0; i < GUEST_LIMIT; i += 1) {
      const response = await (i % 2 === 0 ? b : a).fetch('/api/hello', { headers: later });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(GUEST_LIMIT - i - 1), `request ${i + 1} counted in Redis`);
    }
    assert.equal((await a.fetch('/api/hello', { headers: later })).status, 429, 'one budget again');
  });

  it('survive a PostgreSQL restart without being restarted (readiness drops and returns, writes and the change feed resume)', async () => {
    await proxy.cut();
    for (const instance of [a, b]) {
      await within(5000, async () => ((await instance.fetch('/readyz')).status === 503 ? true : undefined), 'not ready while the database is away').catch(
        (error: unknown) => {
          throw new Error(`${String(error)}\n${instance.running ? 'running' : 'exited'}; output:\n${instance.output.slice(-3000)}`);
        },
      );
      assert.equal((await instance.fetch('/api/hello')).status, 200, 'still answering what needs no database');
    }
    await sleep(1000);
    await proxy.restore();
    for (const instance of [a, b]) await within(10_000, async () => ((await instance.fetch('/readyz')).status === 200 ? true : undefined), 'ready again');
    const topic = await within(
      10_000,
      async () => {
        const response = await b.fetch('/api/topics', {
          method: 'POST',
          headers: admin,
          json: { forum_id: forumId, title: 'After the restart', body: 'Written on B once the database was back' },
        });
        return response.status === 201 ? ((await response.json()) as { data: { id: number } }).data : undefined;
      },
      'a write accepted after the restart',
    );
    await within(
      VISIBLE_WITHIN_MS,
      async () => ((await pageOf(a, topic.value)).includes('Written on B once the database was back') ? true : undefined),
      'seen on A',
    );
    // The change feed (LISTEN) reconnected too: a rule made on A reaches B's rendering.
    await pageOf(b, topic.value);
    const rule = await a.fetch('/api/word-filters', {
      method: 'POST',
      headers: admin,
      json: { pattern: 'restart', pattern_type: 'exact', filter_type: 'replace', replacement: 'R*', applies_to: ['topics'] },
    });
    assert.equal(rule.status, 201);
    await within(3000, async () => ((await pageOf(b, topic.value)).includes('After the R*') ? true : undefined), 'B heard about the new rule');
  });

  it('lose at most one accounting flush of announced transfer when an instance is killed (kill -9), and count none twice', async () => {
    // A third instance of the cluster, so that A and B stay up for the tests after this one.
    const c = await Instance.start(env);
    try {
      const { passkey, hash } = await trackerFixture();
      const handle = openDatabase({ dialect: 'postgres', url: database.url }, pino({ level: 'silent' }));
      try {
        const { user_id: userId } = await handle.db.selectFrom('passkeys').select('user_id').where('passkey', '=', passkey).executeTakeFirstOrThrow();
        const stored = async () =>
          (await handle.db.selectFrom('tracker_user_stats').select('downloaded').where('user_id', '=', userId).executeTakeFirst())?.downloaded ?? 0;
        const id = peerId();
        const STEP = 64 * 1024;
        /** Bytes reported so far, and when each total was answered. */
        const answered: Array<{ at: number; total: number }> = [];
        let total = 0;
        const send = async (event?: string) => {
          const body = await announce(
            c,
            // Download is counted as it comes (upload waits to be matched by the swarm's downloads, which would blur the bound).
            announceUrl({ passkey, infoHash: hash, peerId: id, port: 6881, left: 1 << 30, downloaded: total, ...(event === undefined ? {} : { event }) }),
            '203.0.113.30',
          );
          assert.equal(body.get('failure reason'), undefined);
          answered.push({ at: Date.now(), total });
        };
        await send('started');
        // Announce until a flush has reached the database, then for a while more, then kill.
        await within(
          20_000,
          async () => {
            total += STEP;
            await send();
            return (await stored()) > 0 ? true : undefined;
          },
          'a first accounting flush written',
        );
        // Longer than one flush interval, so that the bound below covers announces after the first flush.
        for (const until = Date.now() + 7000; Date.now() < until;) {
          total += STEP;
          await send();
          await sleep(50);
        }
        await c.kill('SIGKILL');
        const killedAt = Date.now();
        const kept = await stored();
        assert.ok(kept <= total, `never counted twice: ${kept} stored of ${total} reported`);
        // A flush runs every 5 s (src/tracker/accounting.ts, FLUSH_MS): whatever was answered more
        // than one interval (and a second for the flush itself) before the kill is in the database.
        const surely = answered.filter((entry) => entry.at < killedAt - 6000).at(-1)?.total ?? 0;
        assert.ok(kept >= surely, `at most one flush lost: ${kept} stored, ${surely} answered over 6 s before the kill`);
        assert.equal((await announce(b, announceUrl({ passkey, infoHash: hash, peerId: peerId(), left: 5 }), '203.0.113.31')).get('failure reason'), undefined);
      } finally {
        await handle.close();
      }
    } finally {
      if (c.running) await c.kill('SIGKILL');
    }
  });

  it('lose no acknowledged write when one instance is killed (kill -9) under load, and the other keeps serving', async () => {
    const topic = await newTopic(b, 'Under load', 'Writers to both instances follow');
    const acknowledged: number[] = [];
    let failedOnA = 0;
    let servedByBAfterKill = 0;
    let killed = false;
    const stopAt = Date.now() + 4000;
    const writer = async (id: number) => {
      for (let n = 0; n < 2000 && Date.now() < stopAt; n += 1) {
        const on = (n + id) % 2 === 0 ? a : b;
        try {
          const response = await on.fetch(`/api/topics/${topic.id}/posts`, { method: 'POST', headers: admin, json: { body: `load ${id}-${n}` } });
          if (response.status === 201) {
            acknowledged.push(((await response.json()) as { data: { id: number } }).data.id);
            if (on === b && killed) servedByBAfterKill += 1;
          } else if (on === b) {
            assert.fail(`B answered ${response.status}`);
          }
        } catch (error) {
          if (on === b) throw error;
          failedOnA += 1;
        }
      }
    };
    const writers = [0, 1, 2, 3].map((id) => writer(id));
    await sleep(1500);
    await a.kill('SIGKILL');
    killed = true;
    await Promise.all(writers);

    assert.ok(failedOnA > 0, 'writes to A failed after the kill');
    assert.ok(servedByBAfterKill > 0, 'B kept taking writes');
    const stored = new Set<number>();
    for (let page = 1; page <= 100; page += 1) {
      const response = await b.fetch(`/api/topics/${topic.id}/posts?per_page=100&page=${page}`, { headers: admin });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: Array<{ id: number }> };
      for (const post of body.data) stored.add(post.id);
      if (body.data.length < 100) break;
    }
    const lost = acknowledged.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${acknowledged.length} acknowledged writes, all stored`);
  });
});
