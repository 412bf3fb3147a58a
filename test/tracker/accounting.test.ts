import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import type { BencodeDict } from '../../src/tracker/bencode.ts';
import { RedisSwarmStore } from '../../src/tracker/swarm/redis.ts';
import type { TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import {
  announceUrl,
  closeTrackerApp,
  describeEachTrackerSetup,
  peerId,
  registerTorrent,
  setTorrent,
  trackerGet,
  trackerUser,
  type TrackerUserFixture,
} from '../helpers/tracker.ts';

const MIB = 1024 * 1024;

async function totals(t: TestApp, userId: number): Promise<{ uploaded: number; downloaded: number }> {
  await t.services.tracker.accounting.flush();
  const row = await t.database.db.selectFrom('tracker_user_stats').select(['uploaded', 'downloaded']).where('user_id', '=', userId).executeTakeFirst();
  return { uploaded: row?.uploaded ?? 0, downloaded: row?.downloaded ?? 0 };
}

async function perTorrent(t: TestApp, userId: number, torrentId: number) {
  await t.services.tracker.accounting.flush();
  return t.database.db.selectFrom('tracker_user_torrents').selectAll().where('user_id', '=', userId).where('torrent_id', '=', torrentId).executeTakeFirst();
}

describeEachTrackerSetup(
  'transfer accounting',
  (setup) => {
    let t: TestApp;
    let logged: string[];
    // Time moves only when a test moves it, so the speed bound is tested by its figures, not by how busy the machine is.
    const clock = new TestClock();
    before(async () => {
      logged = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
      // 64 MiB/s at most: a 100 MiB jump within a second is implausible.
      t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0', TRACKER_MAX_SPEED: String(64 * MIB) }, logger, clock });
    });
    after(() => closeTrackerApp(t));

    const announce = (user: TrackerUserFixture, infoHash: Buffer, id: Buffer, uploaded: number, downloaded: number, left: number, event?: string) =>
      trackerGet(t, announceUrl({ passkey: user.passkey, infoHash, peerId: id, uploaded, downloaded, left, ...(event === undefined ? {} : { event }) }));

    /** A torrent with a seeder and a leecher whose sessions have started (baselines set). */
    async function swarm(options: Parameters<typeof registerTorrent>[1] = {}) {
      const torrent = await registerTorrent(t, options);
      const seeder = await trackerUser(t);
      const leecher = await trackerUser(t);
      const seed = peerId();
      const leech = peerId();
      await announce(seeder, torrent.v1!, seed, 0, 0, 0, 'started');
      await announce(leecher, torrent.v1!, leech, 0, 0, 10 * MIB, 'started');
      return { torrent, seeder, leecher, seed, leech };
    }

    /** What the pair reported and kept: credited upload plus upload still waiting for the swarm's downloads. */
    async function claimed(userId: number, torrentId: number): Promise<number> {
      const row = await perTorrent(t, userId, torrentId);
      return Number(row?.uploaded ?? 0) + Number(row?.pending_upload ?? 0);
    }

    it('credits a seeder’s upload as the leecher reports downloading it, per user and per torrent', async () => {
      const { torrent, seeder, leecher, seed, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 3 * MIB, 7 * MIB);
      await announce(seeder, torrent.v1!, seed, 3 * MIB, 0, 0);
      await announce(leecher, torrent.v1!, leech, 0, 4 * MIB, 6 * MIB);
      await announce(seeder, torrent.v1!, seed, 4 * MIB, 0, 0);
      assert.deepEqual(await totals(t, seeder.user.id), { uploaded: 4 * MIB, downloaded: 0 });
      assert.deepEqual(await totals(t, leecher.user.id), { uploaded: 0, downloaded: 4 * MIB });
      const row = await perTorrent(t, seeder.user.id, torrent.id);
      assert.equal(row?.uploaded, 4 * MIB);
      assert.equal(Boolean(row?.seeding), true);
      assert.equal(Boolean(row?.active), true);
      assert.equal((await perTorrent(t, leecher.user.id, torrent.id))?.downloaded, 4 * MIB);
    });

    it('credits no upload where no leecher downloaded anything: it waits for the swarm', async () => {
      const torrent = await registerTorrent(t);
      const seeder = await trackerUser(t);
      const id = peerId();
      await announce(seeder, torrent.v1!, id, 0, 0, 0, 'started');
      await announce(seeder, torrent.v1!, id, 32 * MIB, 0, 0);
      assert.deepEqual(await totals(t, seeder.user.id), { uploaded: 0, downloaded: 0 });
      assert.equal((await perTorrent(t, seeder.user.id, torrent.id))?.pending_upload, 32 * MIB);
    });

    // The cheats below claim less than the speed budget and the swarm's downloads would allow, so
    // that each test fails on its own rule; the 1.25 GB versions are refused by every layer.

    it('sets a baseline on started: twenty started/stopped pairs claiming 3 MiB (or 1.25 GB) each credit nothing', async () => {
      const { torrent, seeder, leecher, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 60 * MIB, 1 * MIB); // downloads to match, should anything be claimed
      const id = peerId();
      for (const claim of [3 * MIB, 1_250_000_000]) {
        for (let round = 0; round < 20; round++) {
          await announce(seeder, torrent.v1!, id, claim, 0, 0, 'started');
          await announce(seeder, torrent.v1!, id, claim, 0, 0, 'stopped');
        }
      }
      assert.equal(await claimed(seeder.user.id, torrent.id), 0);
    });

    it('sets a baseline for every new peer: twenty fresh peer_ids starting at 3 MiB (or 1.25 GB) credit nothing, nor does a peer the store does not know', async () => {
      const { torrent, seeder, leecher, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 60 * MIB, 1 * MIB);
      for (const claim of [3 * MIB, 1_250_000_000]) {
        for (let round = 0; round < 20; round++) await announce(seeder, torrent.v1!, peerId(), claim, 0, 0, 'started');
        await announce(seeder, torrent.v1!, peerId(), claim, 0, 0); // no event: a stranger to the store
      }
      assert.equal(await claimed(seeder.user.id, torrent.id), 0);
    });

    it('takes a counter that goes down as a new baseline, never as new transfer', async () => {
      const { torrent, seeder, leecher, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 60 * MIB, 1 * MIB);
      const id = peerId();
      await announce(seeder, torrent.v1!, id, 2 * MIB, 0, 0, 'started');
      for (let round = 0; round < 10; round++) {
        await announce(seeder, torrent.v1!, id, 3 * MIB, 0, 0, 'paused');
        await announce(seeder, torrent.v1!, id, 2 * MIB, 0, 0, 'paused');
      }
      assert.equal(await claimed(seeder.user.id, torrent.id), 10 * MIB, 'one MiB of growth per round, nothing for the decreases');
    });

    it('bounds growth by wall-clock time across all of a user’s peers, and logs what it refuses', async () => {
      const { torrent, seeder, leecher, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 600 * MIB, 1 * MIB);
      const ids = Array.from({ length: 20 }, () => peerId());
      for (const id of ids) await announce(seeder, torrent.v1!, id, 0, 0, 0, 'started');
      for (const id of ids) await announce(seeder, torrent.v1!, id, 60 * MIB, 0, 0);
      // 64 MiB/s (this suite's TRACKER_MAX_SPEED) with a second of slack and no time passed: the first peer's 60 MiB fits, the other nineteen's do not.
      assert.equal(await claimed(seeder.user.id, torrent.id), 60 * MIB);
      assert.ok(
        logged.some((line) => line.includes('implausible transfer')),
        'the refusal is logged',
      );
      // Four seconds later the budget has grown by 256 MiB: four more peers' 60 MiB each fit, the fifth's does not.
      clock.advance(4000);
      for (const id of ids.slice(1)) await announce(seeder, torrent.v1!, id, 120 * MIB, 0, 0);
      assert.equal(await claimed(seeder.user.id, torrent.id), 5 * 60 * MIB);
    });

    it('applies freeleech to downloads only: silver counts half, gold nothing; the uploader is credited in full', async () => {
      for (const [freeleech, expected] of [
        ['none', 4 * MIB],
        ['silver', 2 * MIB],
        ['gold', 0],
      ] as const) {
        const { torrent, seeder, leecher, seed, leech } = await swarm({ freeleech });
        await announce(leecher, torrent.v1!, leech, 0, 4 * MIB, 6 * MIB);
        await announce(seeder, torrent.v1!, seed, 4 * MIB, 0, 0);
        assert.equal((await perTorrent(t, leecher.user.id, torrent.id))?.downloaded, expected, `${freeleech} download`);
        assert.equal((await perTorrent(t, seeder.user.id, torrent.id))?.uploaded, 4 * MIB, `${freeleech} upload`);
      }
    });

    it('applies a freeleech change to announces after it', async () => {
      const { torrent, leecher, leech } = await swarm();
      await announce(leecher, torrent.v1!, leech, 0, 2 * MIB, 8 * MIB);
      await setTorrent(t, torrent.id, { freeleech: 'gold' });
      await announce(leecher, torrent.v1!, leech, 0, 6 * MIB, 4 * MIB);
      assert.equal((await totals(t, leecher.user.id)).downloaded, 2 * MIB);
    });

    it('counts a completion once per user and torrent, only from a leecher the swarm knew, and reports it as downloaded', async () => {
      const torrent = await registerTorrent(t);
      const alice = await trackerUser(t);
      const bob = await trackerUser(t);
      const mallory = await trackerUser(t);
      for (const id of [peerId(), peerId()]) {
        await announce(alice, torrent.v1!, id, 0, 0, 10, 'started');
        await announce(alice, torrent.v1!, id, 0, 10, 0, 'completed');
      }
      const bobs = peerId();
      await announce(bob, torrent.v1!, bobs, 0, 0, 10, 'started');
      await announce(bob, torrent.v1!, bobs, 0, 10, 0, 'completed');
      // Never seen before, or still downloading: a completion nobody saw happen.
      await announce(mallory, torrent.v1!, peerId(), 0, 10, 0, 'completed');
      const halfway = peerId();
      await announce(mallory, torrent.v1!, halfway, 0, 0, 10, 'started');
      await announce(mallory, torrent.v1!, halfway, 0, 5, 5, 'completed');
      await t.services.tracker.accounting.flush();
      const row = await t.database.db.selectFrom('torrents').select('completed_count').where('id', '=', torrent.id).executeTakeFirstOrThrow();
      assert.equal(row.completed_count, 2);
      assert.ok((await perTorrent(t, alice.user.id, torrent.id))?.completed_at);
      assert.equal((await perTorrent(t, mallory.user.id, torrent.id))?.completed_at, null);
      const reply = await announce(bob, torrent.v1!, peerId(), 0, 0, 5, 'started');
      assert.equal((reply.body as BencodeDict).get('downloaded'), 2);
    });

    it('marks the user’s row inactive after stopped and records seeding', async () => {
      const torrent = await registerTorrent(t);
      const user = await trackerUser(t);
      const id = peerId();
      await announce(user, torrent.v1!, id, 0, 0, 0, 'started');
      assert.equal(Boolean((await perTorrent(t, user.user.id, torrent.id))?.seeding), true);
      await announce(user, torrent.v1!, id, 0, 0, 0, 'stopped');
      assert.equal(Boolean((await perTorrent(t, user.user.id, torrent.id))?.active), false);
    });
    // On a SQLite file (as in production) the accounting worker writes; on PostgreSQL the event loop does.
  },
  { sqliteFile: true },
);

describeEachTrackerSetup(
  'accounting at shutdown',
  (setup) => {
    it('loses nothing on a graceful stop: the queue is written when the app closes', async () => {
      const t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0' } });
      let closed = false;
      try {
        const torrent = await registerTorrent(t);
        const user = await trackerUser(t);
        const id = peerId();
        await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: torrent.v1!, peerId: id, event: 'started', left: 10 * MIB }));
        await trackerGet(t, announceUrl({ passkey: user.passkey, infoHash: torrent.v1!, peerId: id, uploaded: 7 * MIB, downloaded: 9 * MIB, left: MIB }));
        await trackerGet(
          t,
          announceUrl({ passkey: user.passkey, infoHash: torrent.v1!, peerId: id, uploaded: 7 * MIB, downloaded: 10 * MIB, left: 0, event: 'completed' }),
        );
        // Nothing flushed yet (the timer runs every 5 s): the close must write it.
        const swarm = t.services.tracker.swarm;
        if (swarm instanceof RedisSwarmStore) await swarm.clear();
        await t.app.close();
        closed = true;
        const reopened = openDatabase(t.testDatabase.config, pino({ level: 'silent' }));
        try {
          const stats = await reopened.db
            .selectFrom('tracker_user_stats')
            .select(['uploaded', 'downloaded'])
            .where('user_id', '=', user.user.id)
            .executeTakeFirst();
          assert.deepEqual({ ...stats }, { uploaded: 7 * MIB, downloaded: 10 * MIB });
          const row = await reopened.db.selectFrom('torrents').select('completed_count').where('id', '=', torrent.id).executeTakeFirstOrThrow();
          assert.equal(row.completed_count, 1);
        } finally {
          await reopened.close();
        }
      } finally {
        if (!closed) await t.app.close();
        await t.testDatabase.drop();
      }
    });
  },
  { sqliteFile: true },
);
