// The tracker's rules that live in time, tested by moving the clock the app
// was built with (issue 35), not by sleeping or by back-dating rows: the
// daily download limit's rolling window, peer expiry, a ban's end, and how
// long a reported upload waits for the swarm's downloads.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { signIn } from '../helpers/auth.ts';
import { TestClock } from '../helpers/clock.ts';
import { createForum, createTopic } from '../helpers/forum.ts';
import { multipart } from '../helpers/images.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import {
  announceUrl,
  closeTrackerApp,
  describeEachTrackerSetup,
  peerId,
  registerTorrent,
  scrapeUrl,
  textOf,
  trackerGet,
  trackerUser,
} from '../helpers/tracker.ts';
import type { BencodeDict } from '../../src/tracker/bencode.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const INTERVAL = 1800_000; // the default announce interval
const MIB = 1024 * 1024;

describeEachTrackerSetup('tracker time rules on a moved clock', (setup) => {
  let t: TestApp;
  let clock: TestClock;
  before(async () => {
    clock = new TestClock();
    t = await setup.start({ clock, env: { TRACKER_DAILY_DOWNLOADS: '2', TRACKER_MIN_INTERVAL: '0' } });
  });
  after(() => closeTrackerApp(t));

  async function upload(): Promise<number> {
    const author = await signIn(t, 'user');
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', author.user.id).executeTakeFirstOrThrow();
    const topic = await createTopic(t, row, await createForum(t, `Releases ${Math.random()}`), 'A release');
    const body = await multipart({ topic_id: String(topic.id), file: { bytes: makeTorrent(), name: 'x.torrent', type: 'application/x-bittorrent' } });
    const response = await t.app.inject({ method: 'POST', url: '/api/torrents', payload: body.payload, headers: { ...body.headers, ...author.headers } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data.id;
  }

  it('rolls the daily download limit over 24 hours after the oldest counted download', async () => {
    const member = await signIn(t, 'user');
    const ids = [await upload(), await upload(), await upload()];
    const download = (id: number) => t.app.inject({ method: 'GET', url: `/api/torrents/${id}/download`, headers: member.headers });
    assert.equal((await download(ids[0]!)).statusCode, 200);
    clock.advance(HOUR);
    assert.equal((await download(ids[1]!)).statusCode, 200);
    const refused = await download(ids[2]!);
    assert.equal(refused.statusCode, 429);
    assert.equal(Number(refused.headers['retry-after']), 23 * 3600, 'until the first download is a day old');
    clock.advance(23 * HOUR - 1000);
    assert.equal((await download(ids[2]!)).statusCode, 429, 'a second before');
    clock.advance(1000);
    assert.equal((await download(ids[2]!)).statusCode, 200, 'a day after the first');
  });

  it('forgets a peer 1.5 intervals after its last announce, and not before', async () => {
    const torrent = await registerTorrent(t);
    const seeder = await trackerUser(t);
    await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0, event: 'started' }));
    const scraped = async () => {
      const { body } = await trackerGet(t, scrapeUrl(seeder.passkey, [torrent.v1!]));
      return ((body.get('files') as BencodeDict).get(torrent.v1!.toString('latin1')) as BencodeDict).get('complete');
    };
    clock.advance(1.5 * INTERVAL - 1000);
    assert.equal(await scraped(), 1);
    clock.advance(2000);
    assert.equal(await scraped(), 0);
  });

  it('lets a member announce again once their ban has ended', async () => {
    const torrent = await registerTorrent(t);
    const member = await trackerUser(t);
    await t.database.db
      .updateTable('users')
      .set({ status: 'banned', banned_until: new Date(clock.nowMs() + HOUR).toISOString() })
      .where('id', '=', member.user.id)
      .execute();
    t.services.tracker.directory.invalidateUsers();
    const failure = async () => {
      const { body } = await trackerGet(t, announceUrl({ passkey: member.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 10 }));
      return textOf(body.get('failure reason'));
    };
    assert.equal(await failure(), 'Your account is banned.');
    clock.advance(HOUR + 1000);
    t.services.tracker.directory.invalidateUsers();
    assert.equal(await failure(), undefined);
  });

  it('credits a waiting upload when the leecher reports within two intervals, and forfeits it after', async () => {
    for (const [wait, expected] of [
      [2 * INTERVAL - MINUTE, 4 * MIB],
      [2 * INTERVAL + MINUTE, 0],
    ] as const) {
      const torrent = await registerTorrent(t);
      const seeder = await trackerUser(t);
      const leecher = await trackerUser(t);
      const seed = peerId();
      const leech = peerId();
      await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: seed, left: 0, event: 'started' }));
      clock.advance(MINUTE);
      await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: seed, left: 0, uploaded: 4 * MIB }));
      await t.services.tracker.accounting.flush();
      clock.advance(wait);
      // The leecher's session is older than the seeder's claim; its report comes late.
      await trackerGet(t, announceUrl({ passkey: leecher.passkey, infoHash: torrent.v1!, peerId: leech, left: 10 * MIB, event: 'started' }));
      clock.advance(MINUTE);
      await trackerGet(t, announceUrl({ passkey: leecher.passkey, infoHash: torrent.v1!, peerId: leech, left: 6 * MIB, downloaded: 4 * MIB }));
      await t.services.tracker.accounting.flush();
      const row = await t.database.db
        .selectFrom('tracker_user_torrents')
        .select('uploaded')
        .where('user_id', '=', seeder.user.id)
        .where('torrent_id', '=', torrent.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.uploaded, expected, `leecher reporting ${wait / MINUTE} minutes after the claim`);
    }
  });
});
