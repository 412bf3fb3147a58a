import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthUser } from '../../src/auth/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { createRule } from '../word-filters/helpers.ts';
import { HTMX, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';
import { asAuthUser } from '../helpers/forum.ts';

describeEachDatabase('admin moderation queue', (db) => {
  let t: TestApp;
  let moderator: SignedInBrowser;
  let author: AuthUser;
  let forumId: number;
  let holdRule: number;

  before(async () => {
    t = await db.start();
    moderator = await signedInBrowser(t, 'moderator');
    const row = await createUser(t, { name: 'Held Hanna' });
    author = { id: row.id, name: row.username, email: row.email, role: row.role };
    forumId = (await t.services.forum.createForum({ name: 'Queue forum' })).id;
    holdRule = (await createRule(t, { pattern: 'spammy', filter_type: 'moderate', applies_to: ['posts', 'topics'] })).id;
  });
  after(() => t.close());

  /** A published topic with a held reply; returns both ids. */
  async function heldReply(body = 'This is spammy stuff') {
    const topic = await t.services.forum.createTopic(author, { forum_id: forumId, title: 'Clean title', body: 'Clean opening' });
    const post = await t.services.forum.reply(topic.id, author, body);
    assert.equal(post.status, 'pending');
    return { topicId: topic.id, postId: post.id };
  }

  async function publishedPosts(topicId: number) {
    const response = await t.app.inject({ method: 'GET', url: `/api/topics/${topicId}/posts` });
    return response.json().data as Array<{ id: number; body: string }>;
  }

  it('lists held posts with their author, topic and the rule that held them', async () => {
    const { topicId, postId } = await heldReply('Buy spammy pills');
    const page = await moderator.browser.get('/admin/moderation/');
    assert.equal(page.status, 200);
    const tr = row(page.body, `pending-${postId}`)!;
    assert.ok(tr, 'the post is in the queue');
    const cells = dom(tr);
    assert.equal(cells.text('div.pending-body'), 'Buy spammy pills');
    assert.equal(cells.linkText(`/profile/held-hanna.${author.id}/`), 'Held Hanna');
    assert.equal(cells.linkText(`/topic/clean-title.${topicId}/`), 'Clean title');
    const rule = cells.one(`a[href="/admin/word-filters/${holdRule}/"]`);
    assert.equal(textOf(rule), `#${holdRule}`);
    assert.equal(rule.nextElementSibling?.tagName, 'CODE');
    assert.equal(textOf(rule.nextElementSibling!), 'spammy');
  });

  it('says “rule deleted” when the rule that held a post is gone', async () => {
    const rule = await createRule(t, { pattern: 'shortlived', filter_type: 'moderate', applies_to: ['posts'] });
    const { postId } = await heldReply('a shortlived word');
    await t.services.wordFilters.delete(rule.id);
    const tr = row((await moderator.browser.get('/admin/moderation/')).body, `pending-${postId}`)!;
    assert.ok(dom(tr).texts('span.muted').includes('Rule deleted'));
  });

  describe('approving', () => {
    it('publishes the post: guests see it on the topic, and the queue no longer lists it', async () => {
      const { topicId, postId } = await heldReply('spammy but fine');
      assert.ok(!(await publishedPosts(topicId)).some((post) => post.id === postId), 'hidden from guests while held');
      const response = await moderator.browser.post(`/admin/moderation/${postId}/approve/`, { return: '/admin/moderation/' });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/admin/moderation/');
      assert.ok(
        (await publishedPosts(topicId)).some((post) => post.id === postId),
        'published for guests',
      );
      const queue = await moderator.browser.get('/admin/moderation/');
      assert.equal(row(queue.body, `pending-${postId}`), undefined);
      assert.deepEqual(notice(queue.body), { kind: 'ok', text: `Post #${postId} approved and published.` });
    });

    it('with htmx: answers only the notice (the row is removed)', async () => {
      const { postId } = await heldReply('spammy htmx');
      const response = await moderator.browser.post(`/admin/moderation/${postId}/approve/`, {}, HTMX);
      assert.equal(response.status, 200);
      assert.ok(response.body.startsWith('<div id="admin-live"'));
      const live = dom(response).one('#admin-live[hx-swap-oob="true"]');
      assert.equal(live.firstElementChild?.getAttribute('class'), 'notice ok');
      assert.match(textOf(live.firstElementChild!), /^Post #\d+ approved and published\.$/);
      const { total } = await t.services.forum.listPending(asAuthUser(moderator.user), { page: 1, perPage: 1, offset: 0 });
      assert.equal(dom(response).attr('p.muted#queue-count[hx-swap-oob="true"]', 'data-total'), String(total), 'the count above the table is updated too');
      assert.equal((await t.services.forum.getPost(postId, null)).status, 'published');
    });
  });

  describe('rejecting', () => {
    it('asks first, then deletes the post and mails its author', async () => {
      const { topicId, postId } = await heldReply('spammy and rejected');
      const asked = await moderator.browser.post(`/admin/moderation/${postId}/reject/`, {});
      assert.equal(asked.status, 200);
      assert.match(dom(asked).textContent, /Reject this post by Held Hanna\?/);
      assert.equal(dom(asked).text('blockquote.pending-body'), 'spammy and rejected');
      assert.equal((await t.services.forum.getPost(postId, { ...author })).status, 'pending', 'still there before confirming');

      const done = await moderator.browser.post(`/admin/moderation/${postId}/reject/`, { confirmed: '1' });
      assert.equal(done.status, 303);
      await assert.rejects(t.services.forum.getPost(postId, { ...author }));
      assert.ok(!(await publishedPosts(topicId)).some((post) => post.id === postId));
      const [mail] = (await t.services.outbox.list({ page: 1, perPage: 1, offset: 0 })).rows;
      assert.equal(mail?.to_address, author.email);
      assert.match(mail?.subject ?? '', /was not approved/);
      assert.match(mail?.body ?? '', /spammy and rejected/);
    });

    it('tells the moderator when someone approved the post meanwhile, and keeps it', async () => {
      const { postId } = await heldReply('spammy race');
      await t.services.forum.approvePost(postId, { id: moderator.user.id, name: moderator.user.username, email: moderator.user.email, role: 'moderator' });
      const response = await moderator.browser.post(`/admin/moderation/${postId}/reject/`, { confirmed: '1' }, HTMX);
      assert.equal(response.status, 200);
      assert.equal(response.headers['hx-reswap'], 'none');
      assert.ok(dom(response).texts('p.notice.error').includes('Only posts waiting for moderation can be rejected.'));

      assert.equal((await t.services.forum.getPost(postId, null)).status, 'published');
    });
  });

  it('is for staff only: admins too, members get 403 and nothing changes', async () => {
    const { postId } = await heldReply('spammy guarded');
    const member = await signedInBrowser(t, 'user');
    assert.equal((await member.browser.post(`/admin/moderation/${postId}/approve/`, {})).status, 403);
    assert.equal((await t.services.forum.getPost(postId, { ...author })).status, 'pending');
    const admin = await signedInBrowser(t, 'admin');
    assert.equal((await admin.browser.post(`/admin/moderation/${postId}/approve/`, {})).status, 303);
  });

  it('refuses an approval without the CSRF token', async () => {
    const { postId } = await heldReply('spammy forged');
    const response = await moderator.browser.post(`/admin/moderation/${postId}/approve/`, { _csrf: 'forged-token-1234567890' });
    assert.equal(response.status, 403);
    assert.equal((await t.services.forum.getPost(postId, { ...author })).status, 'pending');
  });
});
