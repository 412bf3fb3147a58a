// Moderator comments (docs/moderation.md, "Moderator comments"): a forum's
// moderator writes a note of one of four kinds under a post; everyone who
// sees the post sees it, rendered from BBCode; members and other forums'
// moderators are refused and change nothing; writing again replaces it,
// removing clears it; each change is logged. Through the API and the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, loggedInWithToken, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface PostAnswer {
  data: {
    id: number;
    moderator_comment: { kind: string; text: string; text_html: string; moderator: { id: number; name: string } | null; created_at: string } | null;
  };
}

describeEachDatabase('moderator comments', (db) => {
  let t: TestApp;
  let moderator: MemberWithToken;
  let forumModerator: MemberWithToken;
  let member: MemberWithToken;
  let forum: ForumRow;
  let elsewhere: ForumRow;
  let topic: TopicWithAuthor;
  let path: string;
  let replyId: number;

  const api = (method: 'GET' | 'PUT' | 'DELETE', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });

  async function unchanged<R>(work: () => Promise<R>): Promise<R> {
    const before = await snapshotTables(t);
    const result = await work();
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    return result;
  }

  before(async () => {
    t = await db.start();
    moderator = await loggedInWithToken(t, { name: 'Comment Moderator', role: 'moderator' });
    forumModerator = await loggedInWithToken(t, { name: 'Other Forum Moderator' });
    member = await loggedInWithToken(t, { name: 'Comment Member' });
    forum = await t.services.forum.createForum({ name: 'Commented' });
    elsewhere = await t.services.forum.createForum({ name: 'Elsewhere' });
    await t.services.forum.moderators.replace(elsewhere.id, [forumModerator.user.id]);
    topic = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title: 'A release without seeders', body: 'Opening.' });
    replyId = (await t.services.forum.reply(topic.id, asAuthUser(member.user), 'A reply.')).id;
    path = (await t.services.presenter.heading(topic)).path;
  });
  after(() => t.close());

  describe('through the API', () => {
    it('writes a note of a kind under a post, signed and rendered, replaces it, and removes it; each change logged', async () => {
      const written = await api('PUT', `/api/posts/${replyId}/moderator-comment`, moderator, { kind: 'warning', text: 'Please [b]seed[/b] & read the rules.' });
      assert.equal(written.statusCode, 200, written.body);
      const comment = written.json<PostAnswer>().data.moderator_comment!;
      assert.deepEqual([comment.kind, comment.text, comment.moderator?.name], ['warning', 'Please [b]seed[/b] & read the rules.', 'Comment Moderator']);
      assert.match(comment.text_html, /<strong>seed<\/strong> &amp; read/);
      // Everyone who reads the post sees it.
      const read = await api('GET', `/api/topics/${topic.id}/posts`, null);
      const listed = read.json<{ data: Array<PostAnswer['data']> }>().data.find((post) => post.id === replyId)!;
      assert.equal(listed.moderator_comment?.kind, 'warning');

      const replaced = await api('PUT', `/api/posts/${replyId}/moderator-comment`, moderator, { kind: 'violation', text: 'Rule 3.' });
      assert.equal(replaced.json<PostAnswer>().data.moderator_comment?.kind, 'violation');
      const removed = await api('DELETE', `/api/posts/${replyId}/moderator-comment`, moderator);
      assert.equal(removed.statusCode, 200);
      assert.equal(removed.json<PostAnswer>().data.moderator_comment, null);
      const log = await t.services.forum.moderationLog.list(
        { action: null, actorName: 'Comment Moderator', topicId: topic.id },
        { page: 1, perPage: 10, offset: 0 },
      );
      assert.deepEqual(
        log.rows.map((row) => [row.action, row.post_id]),
        [
          ['uncomment_post', replyId],
          ['comment_post', replyId],
          ['comment_post', replyId],
        ],
      );
      // Removing what is not there changes and logs nothing.
      assert.equal((await unchanged(() => api('DELETE', `/api/posts/${replyId}/moderator-comment`, moderator))).statusCode, 200);
    });

    it('refuses members, moderators of other forums, unknown kinds and empty notes, changing nothing', async () => {
      const body = { kind: 'comment', text: 'Note.' };
      assert.equal((await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, member, body))).statusCode, 403);
      assert.equal((await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, forumModerator, body))).statusCode, 403);
      assert.equal((await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, null, body))).statusCode, 401);
      assert.equal(
        (await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, moderator, { kind: 'praise', text: 'Note.' }))).statusCode,
        422,
      );
      assert.equal((await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, moderator, { kind: 'comment', text: '   ' }))).statusCode, 422);
      assert.equal(
        (await unchanged(() => api('PUT', `/api/posts/${replyId}/moderator-comment`, moderator, { kind: 'comment', text: 'x'.repeat(5001) }))).statusCode,
        422,
      );
      assert.equal((await unchanged(() => api('PUT', `/api/posts/99999999/moderator-comment`, moderator, body))).statusCode, 404);
    });
  });

  describe('on the topic page', () => {
    it('shows moderators a Comment link that opens the form; the note then shows under the post to guests, coloured by its kind', async () => {
      const page = dom(await moderator.browser.get(path));
      const link = page.links(`#post-${replyId} .actions`).find((found) => found.text.startsWith('Comment'));
      assert.ok(link, 'a Comment link under the post');
      assert.ok(!dom(await member.browser.get(path)).has('.mod-comment-link'), 'not for members');
      const form = dom(await moderator.browser.get(link.href));
      assert.ok(form.has('#mod-comment-heading'));
      assert.ok(!form.has('#reply-heading'), 'in place of the reply form');
      const posted = await moderator.browser.post(`${path}mod-comment/`, { post_id: String(replyId), kind: 'information', text: 'Moved from [i]Trash[/i].' });
      assert.equal(posted.status, 303);
      const guest = dom(await new Browser(t).get(path));
      const note = guest.one(`#post-${replyId} aside.mod-comment.information`);
      assert.match(note.textContent ?? '', /Information · from Comment Moderator/);
      assert.match(note.innerHTML, /<em>Trash<\/em>/);
    });

    it('shows the form again with why when the note is empty (422), and removes a note with its button', async () => {
      await moderator.browser.get(path);
      const refused = await moderator.browser.post(`${path}mod-comment/`, { post_id: String(replyId), kind: 'warning', text: '' });
      assert.equal(refused.status, 422);
      assert.ok(dom(refused).has('#mod-comment-heading'));
      const removed = await moderator.browser.post(`${path}mod-uncomment/`, { post_id: String(replyId) });
      assert.equal(removed.status, 303);
      assert.ok(!dom(await new Browser(t).get(path)).has('aside.mod-comment'));
    });

    it('in Russian, names the kind and the moderator', async () => {
      await t.services.forum.moderatorComments.set(replyId, asAuthUser(moderator.user), 'violation', 'Правило 3.');
      const page = dom(await new Browser(t, { 'accept-language': 'ru' }).get(path));
      assert.match(page.one(`#post-${replyId} aside.mod-comment.violation`).textContent ?? '', /Нарушение правил · Comment Moderator/);
    });
  });
});
