// Announcements (docs/moderation.md, docs/access.md): TorrentPier's third
// kind of topic, set by the forum's `announce` right. An announcement lists
// above the pinned topics in the API and on the forum page, labelled; the
// topic page offers Announce and Remove announcement to those with the right
// (a forum's moderators by the default level, a member it is granted to) and
// to nobody else; refusals change nothing; each change is logged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { OPEN_LEVELS } from '../helpers/access.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface ListedTopic {
  id: number;
  announced: boolean;
  pinned: boolean;
}

describeEachDatabase('topic announcements', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let moderator: MemberWithToken;
  let member: MemberWithToken;
  let count = 0;

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Herald Admin', role: 'admin' });
    moderator = await loggedInWithToken(t, { name: 'Herald Moderator', role: 'moderator' });
    member = await loggedInWithToken(t, { name: 'Herald Member' });
  });
  after(() => t.close());

  type Caller = { headers: Record<string, string> } | undefined;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, who?: Caller, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  const newForum = (): Promise<ForumRow> => t.services.forum.createForum({ name: `Notices ${++count}` });
  const newTopic = (forum: ForumRow, title: string): Promise<TopicWithAuthor> =>
    t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title, body: 'Opening words' });
  const urlOf = async (kind: 'forums' | 'topics', id: number) => (await api('GET', `/api/${kind}/${id}`)).json().data.url as string;
  const listed = async (forum: ForumRow) => (await api('GET', `/api/forums/${forum.id}/topics`)).json().data as ListedTopic[];
  const logOf = async (topic: TopicWithAuthor) =>
    (await api('GET', `/api/moderation-log?topic_id=${topic.id}`, admin)).json().data as Array<{ action: string; moderator: { id: number }; subject: string }>;
  /** Nothing in any table changed while `request` ran. */
  const writesNothing = async <R>(request: () => Promise<R>): Promise<R> => {
    const state = await snapshotTables(t);
    const result = await request();
    assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    return result;
  };

  describe('a moderator', () => {
    it('announces a topic: listed above the pinned ones in the API and on the forum page, labelled; unannouncing puts it back', async () => {
      const forum = await newForum();
      const oldest = await newTopic(forum, 'Rules of the house');
      const pinned = await newTopic(forum, 'Pinned guide');
      const newest = await newTopic(forum, 'Latest chatter');
      assert.equal((await api('POST', `/api/topics/${pinned.id}/pin`, moderator)).statusCode, 200);

      const announced = await api('POST', `/api/topics/${oldest.id}/announce`, moderator);
      assert.equal(announced.statusCode, 200, announced.body);
      assert.equal(announced.json().data.announced, true);
      assert.equal(announced.json().data.pinned, false, 'an announcement is not also pinned');
      assert.equal((await api('GET', `/api/topics/${oldest.id}`)).json().data.announced, true);
      assert.deepEqual(
        (await listed(forum)).map((topic) => [topic.id, topic.announced, topic.pinned]),
        [
          [oldest.id, true, false],
          [pinned.id, false, true],
          [newest.id, false, false],
        ],
      );

      const forumUrl = await urlOf('forums', forum.id);
      const rows = dom(await new Browser(t).get(forumUrl)).all('table.topics tbody tr');
      assert.deepEqual(
        rows.map((row) => dom(row).texts('td:first-child a, td:first-child .badge')),
        [['Rules of the house', 'Announcement'], ['Pinned guide', 'Pinned'], ['Latest chatter']],
      );
      const russian = dom(await new Browser(t, { 'accept-language': 'ru' }).get(forumUrl)).one('table.topics tbody tr');
      assert.deepEqual(dom(russian).texts('.badge'), ['Объявление']);

      const unannounced = await api('POST', `/api/topics/${oldest.id}/unannounce`, moderator);
      assert.equal(unannounced.statusCode, 200, unannounced.body);
      assert.equal(unannounced.json().data.announced, false);
      assert.deepEqual(
        (await listed(forum)).map((topic) => topic.id),
        [pinned.id, newest.id, oldest.id],
      );
    });

    it('logs each change once (a second click logs nothing), and the log page names both in words', async () => {
      const topic = await newTopic(await newForum(), 'Logged notice');
      for (const action of ['announce', 'announce', 'unannounce', 'unannounce'])
        assert.equal((await api('POST', `/api/topics/${topic.id}/${action}`, moderator)).statusCode, 200);
      const entries = await logOf(topic);
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.moderator.id, entry.subject]),
        [
          ['unannounce', moderator.user.id, 'Logged notice'],
          ['announce', moderator.user.id, 'Logged notice'],
        ],
      );
      for (const [action, words] of [
        ['announce', 'Announced'],
        ['unannounce', 'Removed announcement'],
      ] as const) {
        const page = await admin.browser.get(`/admin/moderation-log/?action=${action}&topic_id=${topic.id}`);
        assert.equal(page.status, 200);
        assert.deepEqual(dom(page).texts('tbody th[scope="row"]'), [words]);
      }
    });

    it('announces from the topic page: the panel offers Announce, then Remove announcement, in the reader’s language', async () => {
      const topic = await newTopic(await newForum(), 'Page notice');
      const path = await urlOf('topics', topic.id);
      await moderator.browser.get(path);
      const posted = await moderator.browser.post(`${path}announce/`, {});
      assert.equal(posted.status, 303);
      assert.equal(posted.location, path);
      const page = dom(await moderator.browser.get(path));
      assert.deepEqual(page.texts('main .badge'), ['Announcement']);
      assert.equal(page.text(`details.moderation form[action="${path}unannounce/"] button`), 'Remove announcement');
      assert.equal(page.count(`form[action="${path}announce/"]`), 0);

      const inRussian = new Browser(t, { 'accept-language': 'ru' });
      assert.equal((await inRussian.logIn(moderator.user.username, TEST_PASSWORD)).status, 303);
      assert.equal(dom(await inRussian.get(path)).text(`form[action="${path}unannounce/"] button`), 'Снять объявление');
      assert.equal((await inRussian.post(`${path}unannounce/`, {})).status, 303);
      assert.equal(dom(await inRussian.get(path)).text(`form[action="${path}announce/"] button`), 'Сделать объявлением');
      assert.equal((await api('GET', `/api/topics/${topic.id}`)).json().data.announced, false);
    });

    it('is refused (403) where the forum keeps announcing for admins, and is offered no button there', async () => {
      const forum = await newForum();
      const topic = await newTopic(forum, 'Admins only notice');
      assert.equal(
        (await api('PUT', `/api/forums/${forum.id}/permissions`, admin, { levels: { ...OPEN_LEVELS, announce: 'admins' }, grants: [] })).statusCode,
        200,
      );
      const path = await urlOf('topics', topic.id);
      const page = await moderator.browser.get(path);
      assert.ok(dom(page).has(`details.moderation form[action="${path}lock/"]`), 'the panel is there');
      assert.equal(dom(page).count(`form[action="${path}announce/"]`), 0);
      const refused = await writesNothing(() => api('POST', `/api/topics/${topic.id}/announce`, moderator));
      assert.equal(refused.statusCode, 403);
      assert.equal((await api('POST', `/api/topics/${topic.id}/announce`, admin)).json().data.announced, true);
    });
  });

  describe('others', () => {
    it('refuses a member without the right (403, page and API), a guest (401) and an unknown topic (404), changing nothing', async () => {
      const topic = await newTopic(await newForum(), 'Not yours to announce');
      const path = await urlOf('topics', topic.id);
      const page = await member.browser.get(path);
      assert.equal(dom(page).count(`form[action="${path}announce/"]`), 0, 'no Announce button');
      for (const action of ['announce', 'unannounce']) {
        const refused = await writesNothing(() => api('POST', `/api/topics/${topic.id}/${action}`, member));
        assert.equal(refused.statusCode, 403, action);
        assert.equal(refused.json().error.message, 'Announcing topics in this forum needs a right you do not have.');
        assert.equal((await writesNothing(() => member.browser.post(`${path}${action}/`, {}))).status, 403, action);
        assert.equal((await writesNothing(() => api('POST', `/api/topics/${topic.id}/${action}`))).statusCode, 401, action);
        assert.equal((await writesNothing(() => api('POST', `/api/topics/2000000000/${action}`, moderator))).statusCode, 404, action);
      }
      assert.equal((await api('GET', `/api/topics/${topic.id}`)).json().data.announced, false);
      assert.deepEqual(await logOf(topic), []);
    });

    it('answers 404 where the member may not view the forum, as for an unknown topic', async () => {
      const forum = await newForum();
      const topic = await newTopic(forum, 'Hidden notice');
      const levels = { ...OPEN_LEVELS, view: 'admins', read: 'admins' };
      assert.equal((await api('PUT', `/api/forums/${forum.id}/permissions`, admin, { levels, grants: [] })).statusCode, 200);
      const refused = await writesNothing(() => api('POST', `/api/topics/${topic.id}/announce`, member));
      assert.equal(refused.statusCode, 404, refused.body);
      assert.deepEqual(refused.json(), { message: `No query results for model [Topic] ${topic.id}.` });
    });

    it('lets a member granted `announce` (PUT /api/forums/{id}/permissions) announce and unannounce without moderating', async () => {
      const forum = await newForum();
      const topic = await newTopic(forum, 'Granted notice');
      const grant = { user_id: member.user.id, actions: ['announce'], moderate: false };
      const set = await api('PUT', `/api/forums/${forum.id}/permissions`, admin, { levels: { ...OPEN_LEVELS, announce: 'private' }, grants: [grant] });
      assert.equal(set.statusCode, 200, set.body);
      assert.equal((await api('GET', `/api/forums/${forum.id}`, member)).json().data.permissions.announce, true);

      const path = await urlOf('topics', topic.id);
      const page = dom(await member.browser.get(path));
      assert.equal(page.text(`form[action="${path}announce/"] button`), 'Announce');
      assert.equal(page.count('details.moderation'), 0, 'no moderators’ panel');
      assert.equal(page.count(`form[action="${path}pin/"]`), 0, 'pinning is not granted');
      assert.equal((await member.browser.post(`${path}announce/`, {})).status, 303);
      assert.equal((await api('GET', `/api/topics/${topic.id}`)).json().data.announced, true);

      const unannounced = await api('POST', `/api/topics/${topic.id}/unannounce`, member);
      assert.equal(unannounced.statusCode, 200, unannounced.body);
      assert.equal(unannounced.json().data.announced, false);
      assert.equal((await api('POST', `/api/topics/${topic.id}/pin`, member)).statusCode, 403, 'the grant is announce only');
      assert.deepEqual(
        (await logOf(topic)).map((entry) => [entry.action, entry.moderator.id]),
        [
          ['unannounce', member.user.id],
          ['announce', member.user.id],
        ],
      );
    });
  });
});
