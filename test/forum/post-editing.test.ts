// Editing posts (docs/formatting.md, "Editing"): the "edited" marker with its
// time, the replaced texts kept for moderators (API and the page's History),
// the page's Edit link and form for authors and moderators, word filters on
// edits, and refusals that change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('editing posts', (db) => {
  let t: TestApp;
  let clock: TestClock;
  let author: Member;
  let moderator: SignedIn;
  let topic: TopicWithAuthor;
  let path: string;

  before(async () => {
    clock = new TestClock('2026-11-20T10:00:00.000Z');
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    author = await loggedIn(t, { name: 'Editing Erik' });
    moderator = await signIn(t, 'moderator', 'Editing Mod');
    topic = await createTopic(t, author.user, await createForum(t, 'Edits'), 'Edited topic');
    path = `/topic/edited-topic.${topic.id}/`;
  });
  after(() => t.close());

  const patch = (as: SignedIn | { headers: Record<string, string> }, postId: number, body: string) =>
    t.app.inject({ method: 'PATCH', url: `/api/posts/${postId}`, headers: as.headers, payload: { body } });

  describe('the API', () => {
    it('marks an edit with its time and keeps the replaced text for moderators, newest first', async () => {
      const post = await reply(t, author.user, topic, 'First words');
      const token = { headers: { authorization: `Bearer ${(await t.services.auth.issueToken(author.user)).token}` } };
      clock.advance(60_000);
      const first = await patch(token, post.id, 'Second words');
      assert.equal(first.statusCode, 200);
      assert.equal(first.json().data.edited_at, '2026-11-20T10:01:00Z');
      clock.advance(60_000);
      await patch(moderator, post.id, 'Third words');
      const revisions = await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}/revisions`, headers: moderator.headers });
      assert.equal(revisions.statusCode, 200);
      assert.deepEqual(
        revisions.json().data.map((r: { body: string; editor: { name: string } }) => [r.body, r.editor.name]),
        [
          ['Second words', 'Editing Mod'],
          ['First words', 'Editing Erik'],
        ],
      );
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}/revisions`, headers: token.headers })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}/revisions` })).statusCode, 401);
    });

    it('changes nothing for the same text, and applies the word filters to edits exactly as to new posts', async () => {
      const post = await reply(t, author.user, topic, 'Unchanged words');
      const token = { headers: { authorization: `Bearer ${(await t.services.auth.issueToken(author.user)).token}` } };
      // The token's first use records itself; after that, reads and refused writes change no row.
      await t.app.inject({ method: 'GET', url: '/api/messages/settings', headers: token.headers });
      const state = await snapshotTables(t);
      const same = await patch(token, post.id, 'Unchanged words');
      assert.equal(same.json().data.edited_at, null);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);

      await createRule(t, 'editblocked', 'block', ['posts']);
      const withRule = await snapshotTables(t);
      const blocked = await patch(token, post.id, 'Now editblocked');
      assert.equal(blocked.statusCode, 422);
      assert.deepEqual(snapshotDifferences(withRule, await snapshotTables(t)), [], 'a refused edit keeps no revision');
      await createRule(t, 'editheld', 'moderate', ['posts']);
      const held = await patch(token, post.id, 'Now editheld');
      assert.equal(held.json().data.status, 'pending', 'a moderate rule holds the edited post for a moderator');
    });
  });

  describe('the topic page', () => {
    it("gives the author Edit under their own posts, edits with the form, and shows 'edited'", async () => {
      const own = await reply(t, author.user, topic, 'Typo here');
      const other = await loggedIn(t, { name: 'Other Olaf' });
      const theirs = await reply(t, other.user, topic, 'Not yours');
      const page = await author.browser.get(path);
      const editOwn = `${path}?post=${own.id}&edit=${own.id}#edit-heading`;
      assert.equal(dom(page).linkText(editOwn), `Edit post ${own.id}`);
      assert.equal(dom(page).count(`a[href^="${path}?post=${theirs.id}&edit="]`), 0);

      const form = await author.browser.get(editOwn.split('#')[0]!);
      assert.equal(dom(form).one('#edit-body').textContent, 'Typo here');
      assert.equal(dom(form).count(`form[action="${path}reply/"]`), 0, 'the edit form takes the reply form’s place');
      clock.advance(60_000);
      const saved = await author.browser.post(`${path}edit-post/`, { post_id: String(own.id), body: 'Typo fixed' });
      assert.equal(saved.status, 303);
      assert.equal(saved.location, `${path}?post=${own.id}#post-${own.id}`);
      const shown = dom(await author.browser.get(path)).one(`article#post-${own.id}`);
      assert.equal(dom(shown).text('.body'), 'Typo fixed');
      assert.match(dom(shown).text('.edited'), /^· edited \d+ \w+ 2026, \d\d:\d\d UTC$/);

      // Someone else's post: the form is not offered, and posting to it is refused (403) without a change.
      assert.equal(dom(await author.browser.get(`${path}?edit=${theirs.id}`)).count('#edit-body'), 0);
      const state = await snapshotTables(t);
      assert.equal((await author.browser.post(`${path}edit-post/`, { post_id: String(theirs.id), body: 'Hijacked' })).status, 403);
      assert.equal((await author.browser.post(`${path}edit-post/`, { post_id: String(own.id), body: '  ' })).status, 422);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });

    it('previews an edit as it will read, in the form again, saving nothing', async () => {
      const own = await reply(t, author.user, topic, 'Plain words');
      await author.browser.get(`${path}?edit=${own.id}`);
      const state = await snapshotTables(t);
      const previewed = await author.browser.post(`${path}edit-post/`, { post_id: String(own.id), body: '[b]Bold[/b] words', preview: '1' });
      assert.equal(previewed.status, 200);
      assert.equal(dom(previewed).one('section.preview .body strong').textContent, 'Bold');
      assert.equal(dom(previewed).one('#edit-body').textContent, '[b]Bold[/b] words', 'the form keeps the draft');
      assert.equal(dom(previewed).one('#edit-heading').textContent, `Edit post ${own.id}`);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);

      await createRule(t, 'forbiddenedit', 'block', ['posts']);
      const refused = await author.browser.post(`${path}edit-post/`, { post_id: String(own.id), body: 'A forbiddenedit word' });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).one('#edit-body').textContent, 'A forbiddenedit word', 'a refused edit shows the edit form again with the draft');
    });

    it('shows moderators the History of an edited post', async () => {
      const post = await reply(t, author.user, topic, 'Before');
      await t.services.forum.editPost(post.id, asAuthUser(author.user), 'After');
      const mod = await loggedIn(t, { name: 'History Mod', role: 'moderator' });
      const page = await mod.browser.get(path);
      const link = `${path}?post=${post.id}&history=${post.id}#history-heading`;
      assert.equal(dom(page).linkText(link), `History of post ${post.id}`);
      const history = await mod.browser.get(link.split('#')[0]!);
      assert.deepEqual(dom(history).texts('section.history pre.revision'), ['Before']);
      const member = dom(await author.browser.get(link.split('#')[0]!));
      assert.equal(member.count('section.history'), 0, 'members see no history');
    });
  });
});
