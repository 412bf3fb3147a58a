// Moderators' tools on topics (docs/moderation.md): lock, pin, move and
// delete through the API and the topic page's panel, their effect on members
// (no replies to a locked topic, pinned topics first), forum counters after a
// move, and the moderation log that admins read and filter.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('topic moderation', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let admin: SignedIn;
  let member: SignedIn;
  let general: ForumRow;
  let archive: ForumRow;
  let count = 0;

  before(async () => {
    t = await db.start();
    moderator = await signIn(t, 'moderator', 'Mod Mia');
    admin = await signIn(t, 'admin', 'Admin Ada');
    member = await signIn(t, 'user', 'Member Max');
    general = await createForum(t, 'General moderation');
    archive = await createForum(t, 'Archive moderation');
  });
  after(() => t.close());

  async function topic(forum = general) {
    count += 1;
    const row = await t.services.users.get(member.user.id);
    return createTopic(t, row, forum, `Moderated topic ${count}`);
  }
  const post = (as: SignedIn, url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: as.headers, ...(payload === undefined ? {} : { payload }) });
  const logOf = async (query = '') => (await t.app.inject({ method: 'GET', url: `/api/moderation-log${query}`, headers: admin.headers })).json();

  describe('the API', () => {
    it('locks a topic: members cannot reply (403), moderators still can; unlocking opens it again', async () => {
      const locked = await topic();
      const response = await post(moderator, `/api/topics/${locked.id}/lock`);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().data.locked, true);
      const refused = await post(member, `/api/topics/${locked.id}/posts`, { body: 'Can I still reply?' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.message, 'This topic is locked: only moderators can reply.');
      assert.equal((await post(moderator, `/api/topics/${locked.id}/posts`, { body: 'Closing words' })).statusCode, 201);
      assert.equal((await post(moderator, `/api/topics/${locked.id}/unlock`)).json().data.locked, false);
      assert.equal((await post(member, `/api/topics/${locked.id}/posts`, { body: 'Open again' })).statusCode, 201);
    });

    it('lists pinned topics first in their forum, in the API and on the forum page', async () => {
      const forum = await createForum(t, `Pin order ${count}`);
      const older = await topic(forum);
      await topic(forum);
      await post(moderator, `/api/topics/${older.id}/pin`);
      const listed = (await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}/topics` })).json().data as Array<{ id: number; pinned: boolean }>;
      assert.equal(listed[0]!.id, older.id);
      assert.equal(listed[0]!.pinned, true);
      const page = await new Browser(t).get(`/forum/${forum.name.toLowerCase().replaceAll(' ', '-')}.${forum.id}/`);
      const first = dom(page).one('table.topics tbody tr');
      assert.match(dom(first).textContent, new RegExp(`${older.title}\\s*Pinned`));
    });

    it('moves a topic with its counts, keeps its address, and refuses a missing or the same forum (422)', async () => {
      const moving = await topic();
      await reply(t, await t.services.users.get(member.user.id), moving, 'A reply that moves too');
      const before = await Promise.all([general, archive].map((forum) => t.services.forum.getForum(forum.id)));
      const moved = await post(moderator, `/api/topics/${moving.id}/move`, { forum_id: archive.id });
      assert.equal(moved.statusCode, 200);
      assert.equal(moved.json().data.forum_id, archive.id);
      const after = await Promise.all([general, archive].map((forum) => t.services.forum.getForum(forum.id)));
      assert.deepEqual(
        after.map((forum, i) => [forum.topics_count - before[i]!.topics_count, forum.posts_count - before[i]!.posts_count]),
        [
          [-1, -2],
          [1, 2],
        ],
      );
      const page = await new Browser(t).get(moved.json().data.url);
      assert.equal(page.status, 200, 'the same address answers');
      assert.match(dom(page).text('nav[aria-label="Breadcrumb"]'), /Archive moderation/);

      const state = await snapshotTables(t);
      assert.equal((await post(moderator, `/api/topics/${moving.id}/move`, { forum_id: archive.id })).statusCode, 422);
      assert.equal((await post(moderator, `/api/topics/${moving.id}/move`, { forum_id: 999_999 })).statusCode, 422);
      assert.equal((await post(moderator, `/api/topics/${moving.id}/move`, { forum_id: '1e3' })).statusCode, 422);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });

    it('refuses members (403), guests (401) and unknown topics (404), changing nothing', async () => {
      const guarded = await topic();
      const state = await snapshotTables(t);
      for (const action of ['lock', 'unlock', 'pin', 'unpin']) {
        assert.equal((await post(member, `/api/topics/${guarded.id}/${action}`)).statusCode, 403, action);
        assert.equal((await t.app.inject({ method: 'POST', url: `/api/topics/${guarded.id}/${action}` })).statusCode, 401, action);
        assert.equal((await post(moderator, `/api/topics/999999/${action}`)).statusCode, 404, action);
      }
      assert.equal((await post(member, `/api/topics/${guarded.id}/move`, { forum_id: archive.id })).statusCode, 403);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });
  });

  describe('the moderation log', () => {
    it('records each action once with its moderator, topic and forums; a repeated click records nothing', async () => {
      const logged = await topic();
      await post(moderator, `/api/topics/${logged.id}/lock`);
      await post(moderator, `/api/topics/${logged.id}/lock`);
      await post(moderator, `/api/topics/${logged.id}/move`, { forum_id: archive.id });
      const entries = (await logOf(`?topic_id=${logged.id}`)).data as Array<Record<string, unknown>>;
      assert.deepEqual(
        entries.map((entry) => entry['action']),
        ['move', 'lock'],
      );
      assert.deepEqual(entries[0]!['moderator'], { id: moderator.user.id, name: 'Mod Mia', url: `/profile/mod-mia.${moderator.user.id}/` });
      assert.deepEqual(entries[0]!['forum'], { id: general.id, name: general.name });
      assert.deepEqual(entries[0]!['to_forum'], { id: archive.id, name: archive.name });
      assert.equal(entries[0]!['subject'], logged.title);
    });

    it('records deleted topics, posts deleted by moderators (not by their authors), approvals and rejections', async () => {
      const doomed = await topic();
      const authorRow = await t.services.users.get(member.user.id);
      const ownPost = await reply(t, authorRow, doomed, 'Deleted by its author');
      const modPost = await reply(t, authorRow, doomed, 'Deleted by a moderator');
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/posts/${ownPost.id}`, headers: member.headers })).statusCode, 204);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/posts/${modPost.id}`, headers: moderator.headers })).statusCode, 204);
      await createRule(t, 'heldbymod', 'moderate', ['posts']);
      const held = await reply(t, authorRow, doomed, 'This heldbymod one');
      await t.services.forum.moderation.approve(held.id, moderator.user);
      const rejected = await reply(t, authorRow, doomed, 'Another heldbymod one');
      await t.services.forum.moderation.reject(rejected.id, moderator.user);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/topics/${doomed.id}`, headers: moderator.headers })).statusCode, 204);

      const entries = (await logOf(`?topic_id=${doomed.id}`)).data as Array<{ action: string; post_id: number | null; subject: string }>;
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.post_id]),
        [
          ['delete_topic', null],
          ['reject', rejected.id],
          ['approve', held.id],
          ['delete_post', modPost.id],
        ],
      );
      assert.equal(entries[3]!.subject, 'Deleted by a moderator');
    });

    it('filters by action and moderator (an unknown name finds nothing), pages, and is for staff and forum moderators only', async () => {
      const filtered = await logOf('?action=lock&moderator=mod%20mia&per_page=1');
      assert.equal(filtered.success, true);
      assert.equal(filtered.data.length, 1);
      assert.equal(filtered.data[0].action, 'lock');
      assert.ok(filtered.meta.total >= 2);
      assert.equal((await logOf('?moderator=Nobody%20Here')).meta.total, 0);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/moderation-log?action=explode', headers: admin.headers })).statusCode, 422);
      // Staff moderators read every entry, as admins do; members none.
      const asModerator = await t.app.inject({ method: 'GET', url: '/api/moderation-log?per_page=100', headers: moderator.headers });
      assert.equal(asModerator.statusCode, 200);
      assert.equal(asModerator.json().meta.total, (await logOf('?per_page=100')).meta.total);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/moderation-log', headers: member.headers })).statusCode, 403);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/moderation-log' })).statusCode, 401);
    });
  });

  describe('the pages', () => {
    let mod: Member;
    let user: Member;

    before(async () => {
      mod = await loggedIn(t, { name: 'Page Moderator', role: 'moderator' });
      user = await loggedIn(t, { name: 'Page Member' });
    });

    const pathOf = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/topics/${id}` })).json().data.url as string;

    it('shows the panel to moderators only, and its buttons lock, pin and move', async () => {
      const shown = await topic();
      const path = await pathOf(shown.id);
      assert.equal(dom(await user.browser.get(path)).count('details.moderation'), 0);
      const page = await mod.browser.get(path);
      const panel = dom(page).one('details.moderation');
      assert.ok(dom(panel).has(`form[action="${path}lock/"]`));
      assert.ok(dom(panel).has(`form[action="${path}pin/"]`));
      assert.ok(dom(panel).has(`form[action="${path}move/"] select[name="forum_id"]`));

      for (const action of ['lock', 'pin']) {
        const response = await mod.browser.post(`${path}${action}/`, {});
        assert.equal(response.status, 303, action);
        assert.equal(response.location, path);
      }
      const after = await mod.browser.get(path);
      assert.deepEqual(dom(after).texts('main .badge'), ['Pinned', 'Locked']);
      assert.ok(dom(after).has(`form[action="${path}unlock/"]`));
      const memberView = await user.browser.get(path);
      assert.match(dom(memberView).textContent, /This topic is locked: only moderators can reply\./);
      assert.equal(dom(memberView).count(`form[action="${path}reply/"]`), 0);

      const moved = await mod.browser.post(`${path}move/`, { forum_id: String(archive.id) });
      assert.equal(moved.status, 303);
      assert.equal((await t.services.forum.getTopic(shown.id, null)).forum_id, archive.id);
    });

    it('shows a refused move again (422) and sends members who post to the panel the 403 page, changing nothing', async () => {
      const kept = await topic();
      const path = await pathOf(kept.id);
      await mod.browser.get(path);
      const refused = await mod.browser.post(`${path}move/`, { forum_id: String(general.id) });
      assert.equal(refused.status, 422);
      assert.match(dom(refused).text('details.moderation'), /The topic is already in this forum\./);
      await user.browser.get(path);
      const state = await snapshotTables(t);
      for (const action of ['lock', 'pin', 'delete']) assert.equal((await user.browser.post(`${path}${action}/`, {})).status, 403, action);
      assert.equal((await user.browser.post(`${path}move/`, { forum_id: String(archive.id) })).status, 403);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });

    it('deletes a topic from the panel after asking on a page of its own, back to its forum', async () => {
      const doomed = await topic();
      const path = await pathOf(doomed.id);
      const page = await mod.browser.get(path);
      assert.ok(dom(page).has(`form[action="${path}delete/"] button.danger`), 'Delete looks dangerous');
      const state = await snapshotTables(t);
      const asked = await mod.browser.post(`${path}delete/`, {});
      assert.equal(asked.status, 200, 'the first click only asks');
      assert.match(dom(asked).text('main'), /will be deleted for good/);
      assert.equal(dom(asked).one(`main a[href="${path}"]`).textContent, 'Keep it');
      assert.ok(dom(asked).has(`form[action="${path}delete/"] input[name="confirmed"][value="1"]`));
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), [], 'asking deleted nothing');
      const deleted = await mod.browser.post(`${path}delete/`, { confirmed: '1' });
      assert.equal(deleted.status, 303);
      assert.match(deleted.location!, new RegExp(`^/forum/[^/]+\\.${general.id}/$`));
      assert.equal((await new Browser(t).get(path)).status, 404);
    });

    it('gives staff the log page with its filters, and no member', async () => {
      const adminMember = await loggedIn(t, { name: 'Page Admin', role: 'admin' });
      const page = await adminMember.browser.get('/admin/moderation-log/?action=pin');
      assert.equal(page.status, 200);
      const actions = dom(page).texts('tbody th[scope="row"]');
      assert.ok(actions.length > 0 && actions.every((action) => action === 'Pinned'));
      assert.equal((await adminMember.browser.get('/admin/moderation-log/?action=explode')).status, 422);
      assert.equal((await mod.browser.get('/admin/moderation-log/')).status, 200);
      assert.equal((await (await loggedIn(t, { name: 'Log Page Member' })).browser.get('/admin/moderation-log/')).status, 403);
    });
  });
});
