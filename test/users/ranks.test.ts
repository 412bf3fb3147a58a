// Ranks (docs/members.md, "Ranks"): titles earned by post count and special
// ones admins give, with an optional image, shown beside posts. Through the
// API (admins make, change, delete and give them; anyone reads them), the
// admin page, and the topic page, which follows a change at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface RankJson {
  id: number;
  title: string;
  min_posts: number | null;
  image_url: string | null;
}

describeEachDatabase('ranks', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;
  let forum: ForumRow;
  let topic: TopicWithAuthor;
  let path: string;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const make = async (body: object): Promise<RankJson> => {
    const made = await api('POST', '/api/ranks', admin, body);
    assert.equal(made.statusCode, 201, made.body);
    return made.json<{ data: RankJson }>().data;
  };
  /** The rank line under the member's name beside their opening post, as a guest sees it. */
  const shownRank = async (): Promise<string | null> => {
    const page = dom(await new Browser(t).get(path));
    const line = page.find(`article.post .author-panel .rank-title`);
    return line === null ? null : (line.textContent ?? '').trim();
  };

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Rank Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Rank Member' });
    forum = await t.services.forum.createForum({ name: 'Ranked' });
    topic = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title: 'Who am I', body: 'My first post.' });
    await t.services.forum.reply(topic.id, asAuthUser(member.user), 'My second post.');
    path = (await t.services.presenter.heading(topic)).path;
  });
  after(() => t.close());

  describe('through the API', () => {
    it('earns the rank of the highest threshold reached; a special rank wins; taking it back shows the earned one again', async () => {
      assert.equal(await shownRank(), null, 'no rank yet');
      const newcomer = await make({ title: 'Newcomer', min_posts: 0 });
      await make({ title: 'Regular', min_posts: 2, image_url: '/uploads/ranks/regular.png' });
      await make({ title: 'Veteran', min_posts: 100 });
      assert.equal(await shownRank(), 'Regular', 'two posts: Regular, not Newcomer or Veteran');
      const image = dom(await new Browser(t).get(path)).attr('article.post .rank-title img', 'src');
      assert.equal(image, '/uploads/ranks/regular.png');

      const special = await make({ title: 'Release team', min_posts: null });
      assert.equal((await api('PUT', `/api/users/${member.user.id}/rank`, admin, { rank_id: special.id })).statusCode, 204);
      assert.equal(await shownRank(), 'Release team');
      assert.equal((await api('PUT', `/api/users/${member.user.id}/rank`, admin, { rank_id: newcomer.id })).statusCode, 422, 'an earned rank is not given');
      assert.equal((await api('PUT', `/api/users/${member.user.id}/rank`, admin, { rank_id: null })).statusCode, 204);
      assert.equal(await shownRank(), 'Regular');

      const listed = await api('GET', '/api/ranks', null);
      assert.deepEqual(
        listed.json<{ data: RankJson[] }>().data.map((rank) => [rank.title, rank.min_posts]),
        [
          ['Newcomer', 0],
          ['Regular', 2],
          ['Veteran', 100],
          ['Release team', null],
        ],
      );
    });

    it('follows a rename and a delete on the topic page at once', async () => {
      const ranks = (await api('GET', '/api/ranks', null)).json<{ data: RankJson[] }>().data;
      const regular = ranks.find((rank) => rank.title === 'Regular')!;
      assert.equal((await api('PUT', `/api/ranks/${regular.id}`, admin, { title: 'Seeder', min_posts: 2, image_url: null })).statusCode, 200);
      assert.equal(await shownRank(), 'Seeder');
      assert.equal((await api('DELETE', `/api/ranks/${regular.id}`, admin)).statusCode, 204);
      assert.equal(await shownRank(), 'Newcomer');
      assert.equal((await api('DELETE', `/api/ranks/${regular.id}`, admin)).statusCode, 404);
    });

    it('refuses members, a second rank at one threshold, a blank title and an unsafe image, changing nothing', async () => {
      const unchanged = async (request: () => Promise<{ statusCode: number }>, status: number) => {
        await api('GET', '/api/user', member);
        await api('GET', '/api/user', admin);
        const before = await snapshotTables(t);
        assert.equal((await request()).statusCode, status);
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      };
      await unchanged(() => api('POST', '/api/ranks', member, { title: 'Mine', min_posts: 5 }), 403);
      await unchanged(() => api('POST', '/api/ranks', null, { title: 'Mine', min_posts: 5 }), 401);
      await unchanged(() => api('POST', '/api/ranks', admin, { title: 'Again', min_posts: 100 }), 422);
      await unchanged(() => api('POST', '/api/ranks', admin, { title: '  ', min_posts: 5 }), 422);
      await unchanged(() => api('POST', '/api/ranks', admin, { title: 'Bad', min_posts: 5, image_url: 'javascript:alert(1)' }), 422);
      await unchanged(() => api('POST', '/api/ranks', admin, { title: 'Negative', min_posts: -1 }), 422);
      await unchanged(() => api('PUT', `/api/users/${member.user.id}/rank`, member, { rank_id: null }), 403);
      await unchanged(() => api('PUT', '/api/users/99999999/rank', admin, { rank_id: null }), 404);
      await unchanged(() => api('PUT', `/api/users/${member.user.id}/rank`, admin, { rank_id: 99999999 }), 422);
    });
  });

  describe('on the admin page', () => {
    it('makes a rank, refuses a bad threshold in the page, and gives a special rank to a member by name', async () => {
      const page = await admin.browser.get('/admin/ranks/');
      assert.equal(page.status, 200);
      const made = await admin.browser.post('/admin/ranks/', { title: 'Moderator of the year', min_posts: '', image_url: '' });
      assert.equal(made.status, 303);
      const refused = await admin.browser.post('/admin/ranks/', { title: 'Odd', min_posts: '1.5', image_url: '' });
      assert.equal(refused.status, 422);
      assert.match(dom(refused).text(), /A whole number of posts/);
      const special = (await t.services.ranks.all()).find((rank) => rank.title === 'Moderator of the year')!;
      await admin.browser.get('/admin/ranks/');
      const nobody = await admin.browser.post('/admin/ranks/give/', { username: 'Nobody Here', rank_id: String(special.id) });
      assert.equal(nobody.status, 422);
      const given = await admin.browser.post('/admin/ranks/give/', { username: 'rank member', rank_id: String(special.id) });
      assert.equal(given.status, 303);
      assert.equal(await shownRank(), 'Moderator of the year');
      const listed = dom(await admin.browser.get('/admin/ranks/'));
      assert.match(listed.text(), /Rank Member: Moderator of the year/);
      assert.equal((await admin.browser.post(`/admin/ranks/take/${member.user.id}/`, {})).status, 303);
      assert.equal(await shownRank(), 'Newcomer');
      assert.equal((await member.browser.get('/admin/ranks/')).status, 403);
    });
  });
});
