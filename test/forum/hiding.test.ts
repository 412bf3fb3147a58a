// Hiding posts and topics instead of deleting them (docs/moderation.md):
// gone for members and guests everywhere (pages, API, counts, search, feeds),
// kept and marked for moderators, restored as they were, each change logged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('hiding posts and topics', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let member: SignedIn;
  let forum: ForumRow;
  let count = 0;

  before(async () => {
    t = await db.start();
    moderator = await signIn(t, 'moderator', 'Hiding Moderator');
    member = await signIn(t, 'user', 'Hiding Member');
    forum = await createForum(t, 'Hiding forum');
  });
  after(() => t.close());

  async function topicWithReply(): Promise<{ topic: TopicWithAuthor; replyId: number }> {
    count += 1;
    const author = await t.services.users.get(member.user.id);
    const topic = await createTopic(t, author, forum, `Hideable topic ${count}`, `Opening words zanzibar${count}`);
    const answer = await reply(t, author, topic, `A reply about quokka${count}`);
    return { topic, replyId: answer.id };
  }
  const post = (as: SignedIn, url: string) => t.app.inject({ method: 'POST', url, headers: as.headers });
  const get = (url: string, as?: SignedIn) => t.app.inject({ method: 'GET', url, ...(as === undefined ? {} : { headers: as.headers }) });
  const counts = async (topicId: number) => {
    const [topic, parent] = await Promise.all([t.services.forum.getTopic(topicId, moderator.user), t.services.forum.getForum(forum.id)]);
    return { topicPosts: topic.posts_count, forumPosts: parent.posts_count, forumTopics: parent.topics_count };
  };

  describe('a post', () => {
    it('is gone for members and guests, counted nowhere, kept and marked for moderators, and restored as it was', async () => {
      const { topic, replyId } = await topicWithReply();
      const before = await counts(topic.id);
      const hidden = await post(moderator, `/api/posts/${replyId}/hide`);
      assert.equal(hidden.statusCode, 200);
      assert.equal(hidden.json().data.hidden, true);
      assert.deepEqual(await counts(topic.id), { ...before, topicPosts: before.topicPosts - 1, forumPosts: before.forumPosts - 1 });

      for (const as of [member, undefined]) {
        const listed = (await get(`/api/topics/${topic.id}/posts`, as)).json().data as Array<{ id: number }>;
        assert.equal(
          listed.some((row) => row.id === replyId),
          false,
        );
        assert.equal((await get(`/api/posts/${replyId}`, as)).statusCode, 404);
      }
      assert.equal((await get(`/api/search?search=quokka${count}`)).json().meta.total, 0, 'search leaves it out');
      const staffList = (await get(`/api/topics/${topic.id}/posts`, moderator)).json().data as Array<{ id: number; hidden: boolean }>;
      assert.equal(staffList.find((row) => row.id === replyId)?.hidden, true);

      assert.equal((await post(moderator, `/api/posts/${replyId}/restore`)).json().data.hidden, false);
      assert.deepEqual(await counts(topic.id), before);
      assert.equal((await get(`/api/search?search=quokka${count}`)).json().meta.total, 1);
      const log = await t.services.forum.moderationLog.list({ action: null, actorName: null, topicId: topic.id }, { page: 1, perPage: 10, offset: 0 });
      assert.deepEqual(
        log.rows.map((entry) => entry.action),
        ['restore_post', 'hide_post'],
      );
    });

    it('cannot be the opening post (422), and hiding twice changes nothing more', async () => {
      const { topic, replyId } = await topicWithReply();
      const opening = (await get(`/api/topics/${topic.id}/posts`, moderator)).json().data[0].id as number;
      const refused = await post(moderator, `/api/posts/${opening}/hide`);
      assert.equal(refused.statusCode, 422);
      assert.match(refused.json().errors.post[0], /hide the topic instead/);
      await post(moderator, `/api/posts/${replyId}/hide`);
      const state = await snapshotTables(t);
      assert.equal((await post(moderator, `/api/posts/${replyId}/hide`)).statusCode, 200);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });
  });

  describe('a topic', () => {
    it('is gone for members and guests (page, API, lists, search, feeds) and back when restored', async () => {
      const { topic, replyId } = await topicWithReply();
      const before = await counts(topic.id);
      const page = (await get(`/api/topics/${topic.id}`)).json().data.url as string;
      assert.equal((await post(moderator, `/api/topics/${topic.id}/hide`)).json().data.hidden, true);
      assert.deepEqual(await counts(topic.id), {
        topicPosts: before.topicPosts,
        forumPosts: before.forumPosts - before.topicPosts,
        forumTopics: before.forumTopics - 1,
      });
      for (const as of [member, undefined]) {
        assert.equal((await get(`/api/topics/${topic.id}`, as)).statusCode, 404);
        assert.equal((await get(`/api/posts/${replyId}`, as)).statusCode, 404, 'its posts go with it');
        const listed = (await get(`/api/forums/${forum.id}/topics`, as)).json().data as Array<{ id: number }>;
        assert.equal(
          listed.some((row) => row.id === topic.id),
          false,
        );
      }
      assert.equal((await new Browser(t).get(page)).status, 404);
      assert.equal((await get(`/api/search?search=zanzibar${count}`)).json().meta.total, 0);
      assert.doesNotMatch((await get('/feed.atom')).body, new RegExp(`Hideable topic ${count}<`));
      assert.equal((await get(`/api/topics/${topic.id}`, moderator)).json().data.hidden, true);

      await post(moderator, `/api/topics/${topic.id}/restore`);
      assert.deepEqual(await counts(topic.id), before);
      assert.equal((await new Browser(t).get(page)).status, 200);
    });

    it('takes nothing from the forums’ counts when moved or deleted while hidden, so every viewer’s total matches its list', async () => {
      const elsewhere = await createForum(t, `Hiding elsewhere ${count}`);
      const { topic } = await topicWithReply();
      const before = await counts(topic.id);
      const word = `heldword${count}`;
      await createRule(t, word, 'moderate', ['topics']);
      const held = await t.app.inject({
        method: 'POST',
        url: '/api/topics',
        headers: member.headers,
        payload: { forum_id: forum.id, title: `Held ${word}`, body: 'Waits.' },
      });
      assert.equal(held.json().data.status, 'pending');

      assert.equal((await post(moderator, `/api/topics/${topic.id}/hide`)).statusCode, 200);
      const moved = await t.app.inject({
        method: 'POST',
        url: `/api/topics/${topic.id}/move`,
        headers: moderator.headers,
        payload: { forum_id: elsewhere.id },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const gone = { forumPosts: before.forumPosts - before.topicPosts, forumTopics: before.forumTopics - 1 };
      const forumCounts = async (id: number) => {
        const row = await t.services.forum.getForum(id);
        return { forumPosts: row.posts_count, forumTopics: row.topics_count };
      };
      assert.deepEqual(await forumCounts(forum.id), gone);
      assert.deepEqual(await forumCounts(elsewhere.id), { forumPosts: 0, forumTopics: 0 }, 'the hidden topic is counted nowhere');
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/topics/${topic.id}`, headers: moderator.headers })).statusCode, 204);
      assert.deepEqual(await forumCounts(elsewhere.id), { forumPosts: 0, forumTopics: 0 }, 'deleting it takes nothing more');

      for (const [who, as] of [
        ['guest', undefined],
        ['member', member],
        ['moderator', moderator],
      ] as const) {
        const body = (await get(`/api/forums/${forum.id}/topics?per_page=100`, as)).json();
        assert.equal(body.meta.total, body.data.length, `${who}: total agrees with the rows`);
        assert.equal(
          (body.data as Array<{ id: number }>).some((row) => row.id === held.json().data.id),
          who !== 'guest',
          `${who}: the held topic`,
        );
      }
    });

    it('refuses members (403) and guests (401) for posts and topics, changing nothing', async () => {
      const { topic, replyId } = await topicWithReply();
      const state = await snapshotTables(t);
      for (const url of [`/api/posts/${replyId}/hide`, `/api/topics/${topic.id}/hide`, `/api/posts/${replyId}/restore`]) {
        assert.equal((await post(member, url)).statusCode, 403, url);
        assert.equal((await t.app.inject({ method: 'POST', url })).statusCode, 401, url);
      }
      assert.equal((await post(moderator, '/api/posts/999999/hide')).statusCode, 404);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });
  });

  describe('the topic page', () => {
    let mod: Member;
    let reader: Member;

    before(async () => {
      mod = await loggedIn(t, { name: 'Page Hider', role: 'moderator' });
      reader = await loggedIn(t, { name: 'Page Reader' });
    });

    it('gives moderators a Hide button under each reply (not the opening post) and a marked hidden post with Restore', async () => {
      const { topic, replyId } = await topicWithReply();
      const path = (await get(`/api/topics/${topic.id}`)).json().data.url as string;
      const page = await mod.browser.get(path);
      assert.ok(dom(page).has(`form#hide-post[action="${path}hide-post/"] input[name="_csrf"]`));
      assert.equal(dom(page).count('article.post button[form="hide-post"]'), 1, 'one reply, one button');
      assert.equal(dom(page).one('article.post button[form="hide-post"]').getAttribute('value'), String(replyId));
      assert.equal(dom(await reader.browser.get(path)).count('button[form="hide-post"]'), 0);

      const hidden = await mod.browser.post(`${path}hide-post/`, { post_id: String(replyId) });
      assert.equal(hidden.status, 303);
      assert.equal(hidden.location, `${path}?post=${replyId}#post-${replyId}`);
      const marked = dom(await mod.browser.get(path)).one(`article#post-${replyId}`);
      assert.match(marked.getAttribute('class') ?? '', /\bhidden\b/);
      assert.match(dom(marked).textContent, /Hidden by a moderator/);
      assert.equal(dom(marked).one('button').getAttribute('form'), 'restore-post');
      assert.equal(dom(await reader.browser.get(path)).count(`article#post-${replyId}`), 0);

      await mod.browser.post(`${path}restore-post/`, { post_id: String(replyId) });
      assert.equal(dom(await reader.browser.get(path)).count(`article#post-${replyId}`), 1);
    });

    it('hides and restores a whole topic from the panel; members get the 403 page and change nothing', async () => {
      const { topic, replyId } = await topicWithReply();
      const path = (await get(`/api/topics/${topic.id}`)).json().data.url as string;
      await reader.browser.get(path);
      const state = await snapshotTables(t);
      assert.equal((await reader.browser.post(`${path}hide/`, {})).status, 403);
      assert.equal((await reader.browser.post(`${path}hide-post/`, { post_id: String(replyId) })).status, 403);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);

      await mod.browser.get(path);
      assert.equal((await mod.browser.post(`${path}hide/`, {})).status, 303);
      const seen = await mod.browser.get(path);
      assert.match(dom(seen).textContent, /This topic is hidden by a moderator/);
      assert.ok(dom(seen).texts('main .badge').includes('Hidden'));
      assert.equal((await reader.browser.get(path)).status, 404);
      assert.equal((await mod.browser.post(`${path}restore/`, {})).status, 303);
      assert.equal((await reader.browser.get(path)).status, 200);
    });
  });
});
