// Upload is credited only against what the swarm downloaded (accounting-batch.ts,
// docs/tracker.md "Accounting"): the queue's writer matches members' reported
// uploads with the leechers' reported downloads of the same torrent, within
// the claim window, the pool shared max-min fairly. Flushes are written here
// directly with the time they run at, so the window is tested without waiting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOWNLOAD_ALLOWANCE, fairShares, type PendingTransfer } from '../../src/tracker/accounting-batch.ts';
import { inProcessWriter } from '../../src/tracker/accounting-writers.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { registerTorrent } from '../helpers/tracker.ts';

const GIB = 1024 ** 3;
const T0 = Date.parse('2026-11-27T12:00:00.000Z');
const WINDOW = 3600_000;

describe('fair shares of a pool', () => {
  it('gives every claim at most an equal share of what is left, and small claims’ leftovers to the larger', () => {
    assert.deepEqual(fairShares([100, 1], 2), [1, 1]);
    assert.deepEqual(fairShares([100 * GIB, GIB], 2 * GIB), [GIB, GIB]);
    assert.deepEqual(fairShares([10, 3, 50], 40), [10, 3, 27]);
    assert.deepEqual(fairShares([10, 3], 100), [10, 3], 'never more than claimed');
    assert.deepEqual(fairShares([7, 7, 7], 10), [3, 3, 4], 'whole bytes, none invented');
    assert.deepEqual(fairShares([5], 0), [0]);
    assert.deepEqual(fairShares([], 10), []);
  });
});

describeEachDatabase('upload credited against the swarm’s downloads', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const writer = () => inProcessWriter(t.database.db);

  function transfer(userId: number, torrentId: number, values: { uploaded?: number; downloaded?: number }): PendingTransfer {
    const downloaded = values.downloaded ?? 0;
    return {
      userId,
      torrentId,
      uploaded: values.uploaded ?? 0,
      downloaded,
      swarmDownloaded: downloaded,
      completed: false,
      seeding: downloaded === 0,
      active: true,
      lastAnnounce: T0,
    };
  }

  async function flush(at: number, ...queued: PendingTransfer[]): Promise<void> {
    await writer().writeAll(queued, { nowMs: at, claimWindowMs: WINDOW }, () => {});
  }

  async function credited(userId: number, torrentId: number): Promise<{ uploaded: number; pending: number; total: number }> {
    const row = await t.database.db
      .selectFrom('tracker_user_torrents')
      .select(['uploaded', 'pending_upload'])
      .where('user_id', '=', userId)
      .where('torrent_id', '=', torrentId)
      .executeTakeFirst();
    const stats = await t.database.db.selectFrom('tracker_user_stats').select('uploaded').where('user_id', '=', userId).executeTakeFirst();
    return { uploaded: Number(row?.uploaded ?? 0), pending: Number(row?.pending_upload ?? 0), total: Number(stats?.uploaded ?? 0) };
  }

  async function fixture() {
    const torrent = await registerTorrent(t);
    const seeder = await createUser(t);
    const leecher = await createUser(t);
    return { torrent: torrent.id, seeder: seeder.id, leecher: leecher.id };
  }

  it('credits nothing for an upload no leecher downloaded: it waits', async () => {
    const { torrent, seeder } = await fixture();
    await flush(T0, transfer(seeder, torrent, { uploaded: GIB }));
    assert.deepEqual(await credited(seeder, torrent), { uploaded: 0, pending: GIB, total: 0 });
  });

  it('credits a waiting upload when leechers report downloads in a later flush, up to what they downloaded (with the allowance)', async () => {
    const { torrent, seeder, leecher } = await fixture();
    await flush(T0, transfer(seeder, torrent, { uploaded: GIB }));
    await flush(T0 + 60_000, transfer(leecher, torrent, { downloaded: GIB / 4 }));
    const matched = Math.ceil((GIB / 4) * (1 + DOWNLOAD_ALLOWANCE));
    assert.deepEqual(await credited(seeder, torrent), { uploaded: matched, pending: GIB - matched, total: matched });
    await flush(T0 + 120_000, transfer(leecher, torrent, { downloaded: GIB }));
    assert.deepEqual(await credited(seeder, torrent), { uploaded: GIB, pending: 0, total: GIB }, 'never more than was reported');
  });

  it('keeps downloads reported before the upload for it, within the window', async () => {
    const { torrent, seeder, leecher } = await fixture();
    await flush(T0, transfer(leecher, torrent, { downloaded: GIB }));
    await flush(T0 + WINDOW - 1000, transfer(seeder, torrent, { uploaded: GIB }));
    assert.equal((await credited(seeder, torrent)).uploaded, GIB);
  });

  it('forfeits an upload that waited past the window, and downloads no upload claimed in it', async () => {
    const { torrent, seeder, leecher } = await fixture();
    await flush(T0, transfer(seeder, torrent, { uploaded: GIB }));
    await flush(T0 + WINDOW + 1, transfer(leecher, torrent, { downloaded: GIB }));
    assert.deepEqual(await credited(seeder, torrent), { uploaded: 0, pending: 0, total: 0 }, 'the old claim is gone');
    // The leecher's download waits for a later claim in its turn, and then it too expires.
    await flush(T0 + 2 * WINDOW + 2, transfer(seeder, torrent, { uploaded: GIB }));
    assert.deepEqual(await credited(seeder, torrent), { uploaded: 0, pending: GIB, total: 0 });
  });

  it('never credits one torrent’s upload against another torrent’s downloads', async () => {
    const first = await fixture();
    const second = await registerTorrent(t);
    await flush(T0, transfer(first.seeder, first.torrent, { uploaded: GIB }), transfer(first.leecher, second.id, { downloaded: GIB }));
    assert.equal((await credited(first.seeder, first.torrent)).uploaded, 0);
  });

  it('shares a swarm’s downloads fairly: a huge claim beside an honest seeder takes no more than an equal share', async () => {
    const { torrent, seeder, leecher } = await fixture();
    const cheater = (await createUser(t)).id;
    await flush(T0, transfer(cheater, torrent, { uploaded: 500 * GIB }), transfer(seeder, torrent, { uploaded: GIB }));
    await flush(T0 + 1000, transfer(leecher, torrent, { downloaded: GIB }));
    const pool = Math.ceil(GIB * (1 + DOWNLOAD_ALLOWANCE));
    assert.equal((await credited(seeder, torrent)).uploaded, Math.floor(pool / 2), 'the honest seeder gets half');
    assert.equal((await credited(cheater, torrent)).uploaded, pool - Math.floor(pool / 2), 'the cheater no more than the other half');
  });
});
