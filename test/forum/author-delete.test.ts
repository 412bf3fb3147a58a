// An author deleting their own reply (docs/moderation.md, "Authors' deletes"):
// a published reply is withdrawn (gone for everyone but moderators, counted
// nowhere, not logged as moderation) and a moderator can restore it; a reply
// still waiting for approval is simply gone. From the API and the topic page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

describeEachDatabase('authors deleting their posts', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let forum: ForumRow;
  let count = 0;

  before(async () => {
    t = await db.start();
    moderator = await signIn(t, 'moderator', 'Withdraw Moderator');
    forum = await createForum(t, 'Withdrawals');
  });
  after(() => t.close());

  const call = (method: 'GET' | 'DELETE' | 'POST', url: string, who?: { headers: Record<string, string> }) =>
    t.app.inject({ method, url, ...(who === undefined ? {} : { headers: who.headers }) });

  async function topicByMember(member: { user: { id: number } }): Promise<{ topic: TopicWithAuthor; replyId: number }> {
    count += 1;
    const author = await t.services.users.get(member.user.id);
    const topic = await createTopic(t, author, forum, `Withdrawn topic ${count}`);
    const answer = await reply(t, author, topic, `A reply about wombat${count}`);
    return { topic, replyId: answer.id };
  }

  describe('DELETE /api/posts/{id} by the author', () => {
    it('withdraws a published reply: gone and uncounted for all but moderators, not logged, restorable', async () => {
      const author = await signIn(t, 'user', `Withdrawing Author`);
      const { topic, replyId } = await topicByMember(author);
      const counts = async () => {
        const [shown, parent, user] = await Promise.all([
          call('GET', `/api/topics/${topic.id}`),
          call('GET', `/api/forums/${forum.id}`),
          t.services.users.get(author.user.id),
        ]);
        return [shown.json().data.posts_count, parent.json().data.posts_count, user.post_count];
      };
      const before = await counts();

      assert.equal((await call('DELETE', `/api/posts/${replyId}`, author)).statusCode, 204);
      assert.equal((await call('GET', `/api/posts/${replyId}`, author)).statusCode, 404, 'the author no longer sees it');
      assert.equal((await call('GET', `/api/posts/${replyId}`)).statusCode, 404);
      const kept = await call('GET', `/api/posts/${replyId}`, moderator);
      assert.equal(kept.statusCode, 200, 'moderators still see it');
      assert.equal(kept.json().data.hidden, true);
      assert.deepEqual(await counts(), [before[0]! - 1, before[1]! - 1, before[2]! - 1]);
      const search = (await call('GET', `/api/search?search=wombat${count}`)).json();
      assert.deepEqual(search.data, []);
      const log = (await call('GET', `/api/moderation-log?topic_id=${topic.id}`, await signIn(t, 'admin'))).json().data;
      assert.deepEqual(log, [], 'an author’s own delete is not moderation');

      assert.equal((await call('POST', `/api/posts/${replyId}/restore`, moderator)).statusCode, 200);
      assert.equal((await call('GET', `/api/posts/${replyId}`, author)).statusCode, 200);
      assert.deepEqual(await counts(), before);
    });

    it('removes a reply still waiting for approval for good', async () => {
      const author = await signIn(t, 'user', 'Waiting Author');
      const { topic } = await topicByMember(author);
      await createRule(t, 'holdthisone', 'moderate', ['posts']);
      const held = await reply(t, await t.services.users.get(author.user.id), topic, 'Please holdthisone');
      assert.equal(held.status, 'pending');
      assert.equal((await call('DELETE', `/api/posts/${held.id}`, author)).statusCode, 204);
      assert.equal((await call('GET', `/api/posts/${held.id}`, moderator)).statusCode, 404);
    });

    it('refuses another member (403) and the opening post (422), changing nothing', async () => {
      const author = await signIn(t, 'user', 'Guarded Author');
      const other = await signIn(t, 'user', 'Other Member');
      const { topic, replyId } = await topicByMember(author);
      assert.equal((await call('DELETE', `/api/posts/${replyId}`, other)).statusCode, 403);
      const opening = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0].id as number;
      const refused = await call('DELETE', `/api/posts/${opening}`, author);
      assert.equal(refused.statusCode, 422);
      assert.match(refused.json().errors.post[0], /delete the topic instead/);
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.posts_count, 2);
    });
  });

  describe('on the topic page', () => {
    let member: Member;
    before(async () => {
      member = await loggedIn(t, { name: 'Page Withdrawer' });
    });

    it('offers Delete under the author’s own replies only, and the moderator a marked post to restore', async () => {
      const other = await loggedIn(t, { name: 'Page Bystander' });
      const { topic, replyId } = await topicByMember(member);
      const othersReply = await reply(t, await t.services.users.get(other.user.id), topic, 'Not yours');
      const path = (await t.services.presenter.heading(topic)).path;

      const page = await member.browser.get(path);
      const deletable = dom(page)
        .all('button[form="delete-post"]')
        .map((button) => Number(button.getAttribute('value')));
      assert.deepEqual(deletable, [replyId], 'not the opening post, not another member’s reply');
      assert.equal(dom(page).one('form#delete-post').getAttribute('action'), `${path}delete-post/`);

      const done = await member.browser.post(`${path}delete-post/`, { post_id: String(replyId) });
      assert.equal(done.status, 303);
      assert.equal(done.location, path);
      assert.ok(!dom(await member.browser.get(path)).has(`#post-${replyId}`), 'gone from the author’s view');

      await other.browser.get(path);
      const refused = await other.browser.post(`${path}delete-post/`, { post_id: String(replyId) });
      assert.equal(refused.status, 404, 'a withdrawn post is not there for other members');
      assert.equal((await member.browser.post(`${path}delete-post/`, { post_id: String(othersReply.id) })).status, 403);

      const moderatorBrowser = await loggedIn(t, { name: 'Page Moderator', role: 'moderator' });
      const seen = await moderatorBrowser.browser.get(path);
      assert.match(dom(seen).one(`#post-${replyId} p.badge`).textContent, /^Deleted by its author: only moderators see this post\.$/);
      assert.ok(dom(seen).has(`#post-${replyId} button[form="restore-post"]`));
    });
  });
});
