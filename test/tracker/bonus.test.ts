import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { TRACKER_DEFAULTS } from '../../src/tracker/config.ts';
import { SeedBonus, creditsFor, tierRate } from '../../src/tracker/bonus.ts';
import { MemorySwarmStore } from '../../src/tracker/swarm/memory.ts';
import type { SeedingPeer } from '../../src/tracker/swarm/store.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { createUser } from '../helpers/auth.ts';
import { registerTorrent } from '../helpers/tracker.ts';

const MIN = 60_000;
const HOUR = 3600_000;
const INTERVAL = 30 * MIN; // announce interval
const WINDOW = 10 * MIN;
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0); // a window boundary
const TIERS = TRACKER_DEFAULTS.bonus.tiers;
const GIB = 1024 ** 3;

describe('seed bonus arithmetic', () => {
  it('tiers: 1, 2, 3, 4 points an hour for 1–10, 11–20, 21–50, 51+ torrents', () => {
    assert.deepEqual(
      [1, 10, 11, 20, 21, 50, 51, 500].map((n) => tierRate(TIERS, n)),
      [100, 100, 200, 200, 300, 300, 400, 400],
    );
    assert.equal(tierRate(TIERS, 0), 0);
  });

  it('credits the time seeded within the window, prorated, at the configured rate (not 1.5×)', () => {
    const seeder: SeedingPeer = { userId: 1, swarm: 1, seedSince: T0 - HOUR, lastSeen: T0 };
    assert.deepEqual(creditsFor([seeder], T0, T0 + HOUR, INTERVAL, TIERS), [{ userId: 1, seconds: 1800, torrents: 1, points: 50 }]);
    const late: SeedingPeer = { userId: 2, swarm: 1, seedSince: T0 + 45 * MIN, lastSeen: T0 + 45 * MIN };
    assert.deepEqual(creditsFor([late], T0, T0 + HOUR, INTERVAL, TIERS), [{ userId: 2, seconds: 900, torrents: 1, points: 25 }]);
  });

  it('counts a user’s simultaneous torrents once in time, and by number for the tier', () => {
    const peers: SeedingPeer[] = Array.from({ length: 11 }, (_, i) => ({ userId: 7, swarm: i + 1, seedSince: T0 - HOUR, lastSeen: T0 + 50 * MIN }));
    assert.deepEqual(creditsFor(peers, T0, T0 + HOUR, INTERVAL, TIERS), [{ userId: 7, seconds: 3600, torrents: 11, points: 200 }]);
  });
});

describeEachDatabase('seed-bonus job', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const log = pino({ level: 'silent' });
  const settings = { ...TRACKER_DEFAULTS, announceInterval: INTERVAL / 1000 };

  async function balance(userId: number): Promise<number> {
    const row = await t.database.db.selectFrom('tracker_user_stats').select('bonus_points').where('user_id', '=', userId).executeTakeFirst();
    return row?.bonus_points ?? 0;
  }

  /** A fresh store and job; each test uses its own day so windows never collide. */
  function job(day: number, startedAt: number) {
    const store = new MemorySwarmStore({ expiryMs: INTERVAL * 1.5 });
    const base = T0 + day * 24 * HOUR;
    // The job's clock stands at the day's start; the windows it credits are named by their ends.
    const clock = new TestClock(new Date(base));
    return { store, base, clock, bonus: new SeedBonus(t.database.db, t.database.dialect, store, settings, log, clock, base + startedAt) };
  }

  function seed(store: MemorySwarmStore, userId: number, swarm: number, at: number, left = 0, peer = 1) {
    const id = Buffer.alloc(20, peer);
    store.announceNow({
      swarm,
      userId,
      peerId: id,
      ip: Buffer.from([127, 0, 0, 1]),
      port: 6881,
      uploaded: 0,
      downloaded: 0,
      left,
      event: '',
      numwant: 0,
      now: at,
      minIntervalMs: 0,
    });
  }

  it('credits each window for the time seeded in it, across windows, and never after the peer is gone', async () => {
    const user = await createUser(t);
    const torrent = await registerTorrent(t);
    const { store, base, bonus } = job(1, -HOUR);
    seed(store, user.id, torrent.id, base + 5 * MIN); // seeding from 5 minutes into the first window
    const first = await bonus.creditWindowEndingAt(base + WINDOW);
    assert.equal(first.credited, true);
    assert.equal(await balance(user.id), Math.floor((100 * 300) / 3600)); // 5 minutes at 1 point/hour
    await bonus.creditWindowEndingAt(base + 2 * WINDOW);
    assert.equal(await balance(user.id), 8 + 16);
    // Last heard at +5 min: counted until +35 min (one interval later), not beyond.
    await bonus.creditWindowEndingAt(base + 3 * WINDOW);
    await bonus.creditWindowEndingAt(base + 4 * WINDOW);
    assert.equal(await balance(user.id), 8 + 16 + 16 + Math.floor((100 * 300) / 3600));
    const history = await bonus.history(user.id);
    assert.equal(history.length, 4);
    assert.deepEqual(
      history.map((entry) => entry.seconds),
      [300, 600, 600, 300],
    );
  });

  it('credits a window once, also when two instances run the job at once', async () => {
    const user = await createUser(t);
    const torrent = await registerTorrent(t);
    const a = job(2, -HOUR);
    const b = { bonus: new SeedBonus(t.database.db, t.database.dialect, a.store, settings, log, a.clock, a.base - HOUR) };
    seed(a.store, user.id, torrent.id, a.base - MIN);
    const results = await Promise.all([a.bonus.creditWindowEndingAt(a.base + WINDOW), b.bonus.creditWindowEndingAt(a.base + WINDOW)]);
    assert.deepEqual(results.map((result) => result.credited).sort(), [false, true]);
    assert.equal(await balance(user.id), 16);
    const again = await a.bonus.creditWindowEndingAt(a.base + WINDOW);
    assert.equal(again.credited, false);
    assert.equal(await balance(user.id), 16);
  });

  it('credits nothing for time before the process started', async () => {
    const user = await createUser(t);
    const torrent = await registerTorrent(t);
    const { store, base, bonus } = job(3, WINDOW + 4 * MIN); // started 4 minutes into the second window
    seed(store, user.id, torrent.id, base - HOUR);
    seed(store, user.id, torrent.id, base + WINDOW + 4 * MIN, 0, 2);
    assert.equal((await bonus.creditWindowEndingAt(base + WINDOW)).users, 0);
    await bonus.creditWindowEndingAt(base + 2 * WINDOW);
    assert.equal(await balance(user.id), Math.floor((100 * 360) / 3600));
  });

  it('credits seeders only, at their tier', async () => {
    const leecher = await createUser(t);
    const heavy = await createUser(t);
    const { store, base, bonus } = job(4, -HOUR);
    for (let swarm = 1; swarm <= 21; swarm++) seed(store, heavy.id, 10_000 + swarm, base - MIN);
    seed(store, leecher.id, 10_001, base - MIN, 500);
    await bonus.creditWindowEndingAt(base + WINDOW);
    assert.equal(await balance(leecher.id), 0);
    assert.equal(await balance(heavy.id), 50); // 3 points an hour for 10 minutes
  });
});

describeEachDatabase('bonus exchange', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  async function funded(points: number) {
    const user = await createUser(t);
    await t.database.db.insertInto('tracker_user_stats').values({ user_id: user.id, bonus_points: points, updated_at: new Date().toISOString() }).execute();
    return user;
  }

  async function stats(userId: number) {
    return t.database.db.selectFrom('tracker_user_stats').select(['bonus_points', 'uploaded']).where('user_id', '=', userId).executeTakeFirstOrThrow();
  }

  it('turns points into upload credit and records it in the history', async () => {
    const user = await funded(12_000);
    const result = await t.services.tracker.bonus.exchange(user.id, 10, 'click-1');
    assert.deepEqual(result, { ok: true, applied: true, points: 10_000, uploadBytes: 10 * GIB });
    assert.deepEqual({ ...(await stats(user.id)) }, { bonus_points: 2000, uploaded: 10 * GIB });
    const [entry] = await t.services.tracker.bonus.history(user.id);
    assert.equal(entry?.kind, 'exchange');
    assert.equal(entry?.points, -10_000);
    assert.equal(entry?.uploadBytes, 10 * GIB);
  });

  it('refuses an offer the balance does not cover, and one that is not offered', async () => {
    const user = await funded(999);
    assert.deepEqual(await t.services.tracker.bonus.exchange(user.id, 1, 'k'), { ok: false, reason: 'not-enough-points' });
    assert.deepEqual(await t.services.tracker.bonus.exchange(user.id, 3, 'k2'), { ok: false, reason: 'unknown-offer' });
    assert.deepEqual({ ...(await stats(user.id)) }, { bonus_points: 999, uploaded: 0 });
    assert.deepEqual(await t.services.tracker.bonus.history(user.id), []);
  });

  it('applies one click once, also when it arrives twice at the same moment', async () => {
    const user = await funded(5000);
    const results = await Promise.all([t.services.tracker.bonus.exchange(user.id, 1, 'same'), t.services.tracker.bonus.exchange(user.id, 1, 'same')]);
    assert.deepEqual(results.map((result) => result.ok && result.applied).sort(), [false, true]);
    assert.deepEqual({ ...(await stats(user.id)) }, { bonus_points: 4000, uploaded: GIB });
  });

  it('never goes below zero when two different clicks race for one balance', async () => {
    const user = await funded(1500);
    const results = await Promise.all([t.services.tracker.bonus.exchange(user.id, 1, 'a'), t.services.tracker.bonus.exchange(user.id, 1, 'b')]);
    assert.deepEqual(results.map((result) => result.ok).sort(), [false, true]);
    assert.deepEqual({ ...(await stats(user.id)) }, { bonus_points: 500, uploaded: GIB });
  });
});
