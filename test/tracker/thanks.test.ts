// Thanks for releases (docs/tracker.md, "Thanks"): once per member and
// release whatever the requests race, never for one's own, taken back at will;
// who thanked is listed under the release and by the API; the uploader is told
// once per member and their profile counts what their releases received.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { makeTorrent } from '../helpers/torrents.ts';

describeEachDatabase('thanks for releases', (db) => {
  let t: TestApp;
  let uploader: MemberWithToken;
  let reader: MemberWithToken;
  let other: MemberWithToken;
  let topic: TopicWithAuthor;
  let torrentId: number;
  let topicPath: string;

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, who: MemberWithToken | null) => t.app.inject({ method, url, headers: who?.headers ?? {} });
  const thanksNotices = () =>
    t.database.db.selectFrom('notifications').select(['actor_id']).where('user_id', '=', uploader.user.id).where('kind', '=', 'thanks').execute();

  before(async () => {
    t = await db.start();
    uploader = await loggedInWithToken(t, { name: 'Releaser' });
    reader = await loggedInWithToken(t, { name: 'Grateful' });
    other = await loggedInWithToken(t, { name: 'Also Grateful' });
    const forum = await t.services.forum.createForum({ name: 'Releases' });
    topic = await t.services.forum.createTopic(asAuthUser(uploader.user), { forum_id: forum.id, title: 'A release', body: 'Seed it.' });
    torrentId = (await t.services.tracker.torrents.upload(asAuthUser(uploader.user), topic.id, makeTorrent({ name: 'thanks.bin' }), 'http://localhost')).id;
    topicPath = (await t.services.presenter.heading(topic)).path;
  });
  after(() => t.close());

  describe('through the API', () => {
    it('counts one thanks per member whatever the requests race, lists who thanked, and takes it back', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', `/api/torrents/${torrentId}/thanks`, reader)));
      assert.ok(
        answers.every((answer) => answer.statusCode === 200),
        answers.map((answer) => answer.body).join('\n'),
      );
      assert.deepEqual(answers.at(-1)!.json<{ data: unknown }>().data, { count: 1, thanked: true });
      assert.equal((await api('POST', `/api/torrents/${torrentId}/thanks`, other)).json<{ data: { count: number } }>().data.count, 2);
      const listed = await api('GET', `/api/torrents/${torrentId}/thanks`, null);
      assert.deepEqual(
        listed
          .json<{ data: Array<{ user: { name: string } }> }>()
          .data.map((row) => row.user.name)
          .sort(),
        ['Also Grateful', 'Grateful'],
      );
      assert.deepEqual((await thanksNotices()).map((row) => row.actor_id).sort(), [reader.user.id, other.user.id].sort());

      const back = await api('DELETE', `/api/torrents/${torrentId}/thanks`, other);
      assert.deepEqual(back.json<{ data: unknown }>().data, { count: 1, thanked: false });
      await api('POST', `/api/torrents/${torrentId}/thanks`, other);
      assert.equal((await thanksNotices()).length, 2, 'thanking again after taking it back tells the uploader nothing new');
    });

    it('refuses one’s own release, guests and unknown releases, changing nothing', async () => {
      const unchanged = async (request: () => ReturnType<typeof api>, status: number) => {
        await api('GET', '/api/user', uploader);
        const before = await snapshotTables(t);
        assert.equal((await request()).statusCode, status);
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      };
      await unchanged(() => api('POST', `/api/torrents/${torrentId}/thanks`, uploader), 422);
      await unchanged(() => api('POST', `/api/torrents/${torrentId}/thanks`, null), 401);
      await unchanged(() => api('POST', '/api/torrents/99999999/thanks', reader), 404);
      assert.equal((await api('GET', '/api/torrents/99999999/thanks', null)).statusCode, 404);
    });
  });

  describe('on the pages', () => {
    it('lists who thanked under the release, thanks and takes back with no script, and counts them on the uploader’s profile', async () => {
      const third = await loggedInWithToken(t, { name: 'Third Reader' });
      const page = dom(await third.browser.get(topicPath));
      assert.match(page.text('section.torrent section.thanks h3'), /Thanks \(2\)/);
      assert.deepEqual(page.texts('section.thanks p a').sort(), ['Also Grateful', 'Grateful']);
      const given = await third.browser.post(`/tracker/torrents/${torrentId}/thanks/`, {});
      assert.equal(given.status, 303);
      const thankedPage = dom(await third.browser.get(topicPath));
      assert.match(thankedPage.text('section.torrent section.thanks h3'), /Thanks \(3\)/);
      assert.equal(thankedPage.text('section.thanks button'), 'Take back your thanks');
      assert.equal((await third.browser.post(`/tracker/torrents/${torrentId}/unthank/`, {})).status, 303);
      assert.equal(dom(await uploader.browser.get(topicPath)).find('section.thanks button'), null, 'no button under one’s own release');
      const profile = dom(await third.browser.get(`/profile/releaser.${uploader.user.id}/`));
      assert.match(profile.text('p.thanks-received'), /received 2 thanks/);
    });
  });
});
