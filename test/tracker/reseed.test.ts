// Calls to reseed and the last seeder seen (docs/tracker.md, "Reseed"): a
// member who downloaded a torrent without a seeder asks everyone who completed
// it to seed again, once a day per torrent whatever the requests race; the
// torrent shows when a seeder was last seen; refusals change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { announceUrl, peerId, trackerGet } from '../helpers/tracker.ts';

describeEachDatabase('calls to reseed', (db) => {
  let t: TestApp;
  const clock = new TestClock('2026-06-01T10:00:00.000Z');
  let uploader: MemberWithToken;
  let completer: MemberWithToken;
  let asker: MemberWithToken;
  let second: MemberWithToken;
  let stranger: MemberWithToken;
  let topic: TopicWithAuthor;
  let torrentId: number;
  let infoHash: Buffer;

  const api = (method: 'GET' | 'POST', url: string, who: MemberWithToken | null) => t.app.inject({ method, url, headers: who?.headers ?? {} });
  const reseedNotices = (who: MemberWithToken) =>
    t.database.db.selectFrom('notifications').select(['actor_id']).where('user_id', '=', who.user.id).where('kind', '=', 'reseed').execute();

  before(async () => {
    t = await db.start({ clock });
    uploader = await loggedInWithToken(t, { name: 'Gone Seeder' });
    completer = await loggedInWithToken(t, { name: 'Completer' });
    asker = await loggedInWithToken(t, { name: 'Asker' });
    second = await loggedInWithToken(t, { name: 'Second Asker' });
    stranger = await loggedInWithToken(t, { name: 'Stranger' });
    const forum = await t.services.forum.createForum({ name: 'Old releases' });
    topic = await t.services.forum.createTopic(asAuthUser(uploader.user), { forum_id: forum.id, title: 'A rare release', body: 'Seed it.' });
    const torrent = await t.services.tracker.torrents.upload(asAuthUser(uploader.user), topic.id, makeTorrent({ name: 'rare.bin' }), 'http://localhost');
    torrentId = torrent.id;
    infoHash = Buffer.from(torrent.info_hash_v1!, 'hex');
    for (const who of [asker, second, completer]) await t.services.tracker.torrents.download(torrentId, asAuthUser(who.user), 'http://localhost');
    // The completer finished it months ago and has not seeded since.
    await t.database.db
      .insertInto('tracker_user_torrents')
      .values({
        user_id: completer.user.id,
        torrent_id: torrentId,
        uploaded: 0,
        downloaded: 1000,
        completed_at: '2026-02-01T10:00:00.000Z',
        seeding: true,
        active: false,
        last_announce_at: '2026-02-03T10:00:00.000Z',
      })
      .execute();
  });
  after(() => t.close());

  describe('through the API', () => {
    it('tells those who completed it, once a day whatever the requests race, and shows the last seeder', async () => {
      const state = await api('GET', `/api/torrents/${torrentId}/reseed`, null);
      assert.deepEqual(state.json<{ data: unknown }>().data, { last_seeder_at: '2026-02-03T10:00:00Z', last_call_at: null, next_call_at: null });

      const answers = await Promise.all([api('POST', `/api/torrents/${torrentId}/reseed`, asker), api('POST', `/api/torrents/${torrentId}/reseed`, second)]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 429], answers.map((answer) => answer.body).join('\n'));
      const refused = answers.find((answer) => answer.statusCode === 429)!;
      assert.equal(refused.headers['retry-after'], String(24 * 60 * 60));
      assert.equal((await reseedNotices(completer)).length, 1, 'one call, one notice');
      assert.deepEqual(await reseedNotices(uploader), [], 'the uploader never completed it here: not told');

      clock.advance(24 * 60 * 60 * 1000 + 1000);
      const again = await api('POST', `/api/torrents/${torrentId}/reseed`, second);
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json<{ data: unknown }>().data, { asked: 1 });
      assert.equal((await reseedNotices(completer)).length, 2);
    });

    it('refuses a member who never downloaded it, guests, and a torrent with a seeder, changing nothing', async () => {
      clock.advance(24 * 60 * 60 * 1000 + 1000);
      const unchanged = async (request: () => ReturnType<typeof api>, status: number) => {
        for (const who of [asker, stranger]) await api('GET', '/api/user', who);
        const before = await snapshotTables(t);
        assert.equal((await request()).statusCode, status);
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      };
      await unchanged(() => api('POST', `/api/torrents/${torrentId}/reseed`, stranger), 403);
      await unchanged(() => api('POST', `/api/torrents/${torrentId}/reseed`, null), 401);
      await unchanged(() => api('POST', '/api/torrents/99999999/reseed', asker), 404);
      const passkey = await t.services.tracker.passkeys.forUser(completer.user.id);
      const announced = await trackerGet(t, announceUrl({ passkey, infoHash, peerId: peerId(), left: 0, event: 'started' }), '10.0.0.9');
      assert.equal(announced.status, 200);
      assert.equal((await api('POST', `/api/torrents/${torrentId}/reseed`, asker)).statusCode, 422, 'seeded again: no call');
    });
  });

  describe('on the topic page', () => {
    it('shows the last seeder and, without one, the button to whoever downloaded it', async () => {
      const other = await t.services.forum.createTopic(asAuthUser(uploader.user), { forum_id: topic.forum_id, title: 'Never seeded', body: 'Nobody yet.' });
      const lonely = await t.services.tracker.torrents.upload(asAuthUser(uploader.user), other.id, makeTorrent({ name: 'lonely.bin' }), 'http://localhost');
      await t.services.tracker.torrents.download(lonely.id, asAuthUser(asker.user), 'http://localhost');
      const path = (await t.services.presenter.heading(other)).path;
      const page = dom(await asker.browser.get(path));
      assert.equal(page.text('p.last-seeder'), 'No seeder seen yet.');
      assert.equal(page.text('section.torrent form button'), 'Call for a reseed');
      assert.equal(dom(await stranger.browser.get(path)).find(`form[action="/tracker/torrents/${lonely.id}/reseed/"]`), null);
      assert.equal((await asker.browser.post(`/tracker/torrents/${lonely.id}/reseed/`, {})).status, 303);
      const asked = dom(await asker.browser.get(path));
      assert.match(asked.text('section.torrent'), /A reseed was asked for on/);
      assert.equal(asked.find(`form[action="/tracker/torrents/${lonely.id}/reseed/"]`), null);
    });
  });
});
