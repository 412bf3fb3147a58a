// Reports of posts (docs/moderation.md, "Reports"): a member reports a post
// they may read to its forum's moderators, once while it is open; moderators
// of that forum (and staff) see it, resolve it once (logged), and the reporter
// is told; refusals change nothing. Through the API and the pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PostWithAuthor, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('reports of posts', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let moderator: MemberWithToken;
  let otherModerator: MemberWithToken;
  let author: MemberWithToken;
  let reporter: MemberWithToken;
  let topic: TopicWithAuthor;
  let post: PostWithAuthor;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const open = async (who: MemberWithToken) =>
    (await api('GET', '/api/reports', who)).json<{ data: Array<{ id: number; post_id: number; reason: string }> }>().data;

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Report Admin', role: 'admin' });
    author = await loggedInWithToken(t, { name: 'Spammer' });
    reporter = await loggedInWithToken(t, { name: 'Watchful' });
    moderator = await loggedInWithToken(t, { name: 'Forum Mod' });
    otherModerator = await loggedInWithToken(t, { name: 'Other Mod' });
    const forum = await t.services.forum.createForum({ name: 'Talk' });
    const elsewhere = await t.services.forum.createForum({ name: 'Elsewhere' });
    for (const [who, where] of [
      [moderator, forum],
      [otherModerator, elsewhere],
    ] as const) {
      const set = await api('PUT', `/api/forums/${where.id}/moderators`, admin, { user_ids: [who.user.id] });
      assert.equal(set.statusCode, 200, set.body);
    }
    topic = await t.services.forum.createTopic(asAuthUser(reporter.user), { forum_id: forum.id, title: 'A question', body: 'Where is the rule?' });
    post = await t.services.forum.reply(topic.id, asAuthUser(author.user), 'Buy cheap things at spam.example');
  });
  after(() => t.close());

  describe('through the API', () => {
    it('takes a report once while open, shows it to the forum’s moderators only, resolves it once and tells the reporter', async () => {
      const made = await api('POST', `/api/posts/${post.id}/reports`, reporter, { reason: 'Spam link.' });
      assert.equal(made.statusCode, 201, made.body);
      const again = await api('POST', `/api/posts/${post.id}/reports`, reporter, { reason: 'Still spam.' });
      assert.equal(again.statusCode, 422);
      assert.deepEqual(
        (await open(admin)).map((report) => [report.post_id, report.reason]),
        [[post.id, 'Spam link.']],
      );
      const id = made.json<{ data: { id: number } }>().data.id;
      const resolved = await Promise.all([
        api('POST', `/api/reports/${id}/resolve`, admin, { resolution: 'acted' }),
        api('POST', `/api/reports/${id}/resolve`, admin, { resolution: 'dismissed' }),
      ]);
      assert.deepEqual(resolved.map((answer) => answer.statusCode).sort(), [204, 409], resolved.map((answer) => answer.body).join('\n'));
      assert.deepEqual(await open(admin), []);
      const notices = await t.database.db
        .selectFrom('notifications')
        .select(['kind', 'post_id'])
        .where('user_id', '=', reporter.user.id)
        .where('kind', '=', 'report')
        .execute();
      assert.deepEqual(
        notices.map((notice) => [notice.kind, notice.post_id]),
        [['report', post.id]],
      );
      const log = await t.database.db.selectFrom('moderation_log').select('action').where('action', '=', 'resolve_report').execute();
      assert.equal(log.length, 1);
      assert.equal(
        (await api('POST', `/api/posts/${post.id}/reports`, reporter, { reason: 'Back again.' })).statusCode,
        201,
        'resolved: a new report may be made',
      );
    });

    it('refuses one’s own post, blank and long reasons, guests, members and other forums’ moderators, changing nothing', async () => {
      const unchanged = async (request: () => ReturnType<typeof api>, status: number) => {
        for (const who of [admin, author, reporter, otherModerator]) await api('GET', '/api/user', who);
        const before = await snapshotTables(t);
        const answer = await request();
        assert.equal(answer.statusCode, status, answer.body);
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      };
      await unchanged(() => api('POST', `/api/posts/${post.id}/reports`, author, { reason: 'Mine.' }), 422);
      await unchanged(() => api('POST', `/api/posts/${topic.id}/reports`, author, { reason: '   ' }), 422);
      await unchanged(() => api('POST', `/api/posts/${post.id}/reports`, author, { reason: 'x'.repeat(1001) }), 422);
      await unchanged(() => api('POST', `/api/posts/${post.id}/reports`, null, { reason: 'Spam.' }), 401);
      await unchanged(() => api('POST', '/api/posts/99999999/reports', reporter, { reason: 'Spam.' }), 404);
      const id = (await open(admin))[0]!.id;
      await unchanged(() => api('POST', `/api/reports/${id}/resolve`, reporter, { resolution: 'acted' }), 403);
      await unchanged(() => api('POST', `/api/reports/${id}/resolve`, otherModerator, { resolution: 'acted' }), 403);
      await unchanged(() => api('POST', `/api/reports/${id}/resolve`, admin, { resolution: 'maybe' }), 422);
      assert.deepEqual(await open(otherModerator), [], 'another forum’s moderator sees none of its reports');
    });
  });

  describe('on the pages', () => {
    it('reports from the post’s link and resolves from /admin/reports/, with no script', async () => {
      const path = (await t.services.presenter.heading(topic)).path;
      const topicPage = dom(await reporter.browser.get(path));
      const link = topicPage.find(`#post-${post.id} a.report`);
      assert.ok(link, 'a Report link under another member’s post');
      assert.equal(dom(await author.browser.get(path)).find(`#post-${post.id} a.report`), null, 'none under one’s own');
      const reportPage = await reporter.browser.get(link.getAttribute('href')!);
      assert.equal(reportPage.status, 200);
      const refused = await reporter.browser.post(link.getAttribute('href')!, { reason: '' });
      assert.equal(refused.status, 422);
      const sent = await reporter.browser.post(link.getAttribute('href')!, { reason: 'Already reported above? Then this is refused.' });
      assert.equal(sent.status, 422, 'the open report of the first test stands');

      const list = dom(await admin.browser.get('/admin/reports/'));
      assert.match(list.text('ol.reports'), /Watchful: Back again\./);
      const resolved = await admin.browser.post(`/admin/reports/${(await open(admin))[0]!.id}/resolve/`, { resolution: 'dismissed' });
      assert.equal(resolved.status, 303);
      assert.match(dom(await admin.browser.get('/admin/reports/?status=resolved')).text('ol.reports'), /Dismissed by Report Admin/);
      assert.equal((await reporter.browser.get('/admin/reports/')).status, 403);
    });
  });
});
