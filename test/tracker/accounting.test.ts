import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import type { BencodeDict } from '../../src/tracker/bencode.ts';
import { RedisSwarmStore } from '../../src/tracker/swarm/redis.ts';
import type { TestApp } from '../helpers/app.ts';
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
    before(async () => {
      logged = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
      // 64 MiB/s at most: a 100 MiB jump within a second is implausible.
      t = await setup.start({ env: { TRACKER_MIN_INTERVAL: '0', TRACKER_MAX_SPEED: String(64 * MIB) }, logger });
    });
    after(() => closeTrackerApp(t));

    const announce = (user: TrackerUserFixture, infoHash: Buffer, id: Buffer, uploaded: number, downloaded: number, left: number, event?: string) =>
      trackerGet(t, announceUrl({ passkey: user.passkey, infoHash, peerId: id, uploaded, downloaded, left, ...(event === undefined ? {} : { event }) }));

    it('counts the differences from the peer’s previous announce, per user and per torrent', async () => {
      const torrent = await registerTorrent(t);
      const user = await trackerUser(t);
      const id = peerId();
      await announce(user, torrent.v1!, id, 0, 0, 10 * MIB, 'started');
      await announce(user, torrent.v1!, id, 1 * MIB, 3 * MIB, 7 * MIB);
      await announce(user, torrent.v1!, id, 5 * MIB, 4 * MIB, 6 * MIB);
      assert.deepEqual(await totals(t, user.user.id), { uploaded: 5 * MIB, downloaded: 4 * MIB });
      const row = await perTorrent(t, user.user.id, torrent.id);
      assert.equal(row?.uploaded, 5 * MIB);
      assert.equal(row?.downloaded, 4 * MIB);
      assert.equal(Boolean(row?.seeding), false);
      assert.equal(Boolean(row?.active), true);
    });

    it('counts from zero after a client restart (counters went down), never clamping to nothing', async () => {
      const torrent = await registerTorrent(t);
      const user = await trackerUser(t);
      const id = peerId();
      await announce(user, torrent.v1!, id, 0, 0, 10 * MIB, 'started');
      await announce(user, torrent.v1!, id, 8 * MIB, 2 * MIB, 8 * MIB);
      await announce(user, torrent.v1!, id, 3 * MIB, 1 * MIB, 7 * MIB); // restarted: counters are the new session's
      assert.deepEqual(await totals(t, user.user.id), { uploaded: 11 * MIB, downloaded: 3 * MIB });
    });

    it('does not count an implausible jump, and logs it', async () => {
      const torrent = await registerTorrent(t);
      const user = await trackerUser(t);
      const id = peerId();
      await announce(user, torrent.v1!, id, 0, 0, 10 * MIB, 'started');
      await announce(user, torrent.v1!, id, 100 * MIB, 2 * MIB, 8 * MIB);
      assert.deepEqual(await totals(t, user.user.id), { uploaded: 0, downloaded: 2 * MIB });
      assert.ok(
        logged.some((line) => line.includes('implausible transfer')),
        'the jump is logged',
      );
      await announce(user, torrent.v1!, id, 101 * MIB, 2 * MIB, 8 * MIB);
      assert.equal((await totals(t, user.user.id)).uploaded, 1 * MIB, 'later deltas count from the new counters');
    });

    it('applies freeleech to downloads only: silver counts half, gold nothing', async () => {
      const user = await trackerUser(t);
      for (const [freeleech, expected] of [
        ['none', 4 * MIB],
        ['silver', 2 * MIB],
        ['gold', 0],
      ] as const) {
        const torrent = await registerTorrent(t, { freeleech });
        const id = peerId();
        await announce(user, torrent.v1!, id, 0, 0, 10 * MIB, 'started');
        await announce(user, torrent.v1!, id, 1 * MIB, 4 * MIB, 6 * MIB);
        const row = await perTorrent(t, user.user.id, torrent.id);
        assert.equal(row?.downloaded, expected, `${freeleech} download`);
        assert.equal(row?.uploaded, 1 * MIB, `${freeleech} upload`);
      }
      assert.deepEqual(await totals(t, user.user.id), { uploaded: 3 * MIB, downloaded: 6 * MIB });
    });

    it('applies a freeleech change to announces after it', async () => {
      const user = await trackerUser(t);
      const torrent = await registerTorrent(t);
      const id = peerId();
      await announce(user, torrent.v1!, id, 0, 0, 10 * MIB, 'started');
      await announce(user, torrent.v1!, id, 0, 2 * MIB, 8 * MIB);
      await setTorrent(t, torrent.id, { freeleech: 'gold' });
      await announce(user, torrent.v1!, id, 0, 6 * MIB, 4 * MIB);
      assert.equal((await totals(t, user.user.id)).downloaded, 2 * MIB);
    });

    it('counts a completion once per user and torrent, and reports it as downloaded', async () => {
      const torrent = await registerTorrent(t);
      const alice = await trackerUser(t);
      const bob = await trackerUser(t);
      for (const id of [peerId(), peerId()]) {
        await announce(alice, torrent.v1!, id, 0, 0, 10, 'started');
        await announce(alice, torrent.v1!, id, 0, 10, 0, 'completed');
      }
      await announce(bob, torrent.v1!, peerId(), 0, 10, 0, 'completed');
      await t.services.tracker.accounting.flush();
      const row = await t.database.db.selectFrom('torrents').select('completed_count').where('id', '=', torrent.id).executeTakeFirstOrThrow();
      assert.equal(row.completed_count, 2);
      assert.ok((await perTorrent(t, alice.user.id, torrent.id))?.completed_at);
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
