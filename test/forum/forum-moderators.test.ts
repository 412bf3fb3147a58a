// Forum moderators (docs/moderation.md, "Forum moderators"): members who
// moderate the forums admins assign them, and only those (not their
// subforums): the admin API and page that assign them, what they may do in
// their forum and may not do elsewhere (refused with nothing changed), what
// they see, the moderation queue, moving between forums, the forum page's
// "Moderators:" line, and the page cache keeping their views apart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, PostWithAuthor, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createRule, loggedIn, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { fieldError } from '../admin/helpers.ts';

/** A member with a browser session and an API token. */
interface Person extends Member {
  headers: Record<string, string>;
}

describeEachDatabase('forum moderators', (db) => {
  let t: TestApp;
  let admin: Person;
  let staff: Person;
  let keeper: Person;
  let member: Person;
  let linux: ForumRow;
  let debian: ForumRow;
  let windows: ForumRow;
  let count = 0;

  async function person(name: string, role: 'user' | 'moderator' | 'admin' = 'user'): Promise<Person> {
    const signedIn = await loggedIn(t, { name, role });
    const token = await t.services.auth.issueToken(signedIn.user);
    const headers = { authorization: `Bearer ${token.token}` };
    // A token's first use records it (hourly at most): done here, so refused requests later change no row.
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', headers })).statusCode, 200);
    return { ...signedIn, headers };
  }

  before(async () => {
    t = await db.start();
    admin = await person('Admin Alma', 'admin');
    staff = await person('Global Greta', 'moderator');
    keeper = await person('Keeper Kai');
    member = await person('Member Mila');
    linux = await t.services.forum.createForum({ name: 'Linux' });
    debian = await t.services.forum.createForum({ name: 'Debian', parent_id: linux.id });
    windows = await t.services.forum.createForum({ name: 'Windows' });
    await setModerators(linux, [keeper]);
  });
  after(() => t.close());

  const api = (as: Person | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${url}`, headers: as?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function setModerators(forum: ForumRow, people: readonly Person[]) {
    const response = await api(admin, 'PUT', `/forums/${forum.id}/moderators`, { user_ids: people.map((p) => p.user.id) });
    assert.equal(response.statusCode, 200, response.body);
  }

  async function topicIn(forum: ForumRow, author: Person = member): Promise<TopicWithAuthor> {
    count += 1;
    return t.services.forum.createTopic(asAuthUser(author.user), { forum_id: forum.id, title: `Topic ${count} in ${forum.name}`, body: `Opening ${count}` });
  }

  async function replyIn(topic: { id: number }, body: string, author: Person = member): Promise<PostWithAuthor> {
    return t.services.forum.reply(topic.id, asAuthUser(author.user), body);
  }

  /** The request is refused with `status` (and `message`, when given) and no table changes. */
  async function refusedUnchanged(request: () => Promise<{ statusCode: number; json(): { error?: { message: string } } }>, status: number, message?: string) {
    const state = await snapshotTables(t);
    const response = await request();
    assert.equal(response.statusCode, status);
    if (message !== undefined) assert.equal(response.json().error?.message, message);
    assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
  }

  const forumPath = (forum: ForumRow) => `/forum/-.${forum.id}/`;
  const topicPath = (topic: { id: number }) => `/topic/-.${topic.id}/`;
  async function page(browser: Browser, url: string) {
    let response = await browser.get(url);
    if (response.status === 301) response = await browser.get(response.location!);
    assert.equal(response.status, 200, url);
    return response;
  }

  describe('the admin API', () => {
    it('lists and replaces a forum’s moderators, by name, in one request', async () => {
      const forum = await t.services.forum.createForum({ name: 'Assigned' });
      assert.deepEqual((await api(null, 'GET', `/forums/${forum.id}/moderators`)).json(), { data: [] });
      const set = await api(admin, 'PUT', `/forums/${forum.id}/moderators`, { user_ids: [member.user.id, keeper.user.id] });
      assert.equal(set.statusCode, 200);
      const expected = [
        { id: keeper.user.id, username: 'Keeper Kai' },
        { id: member.user.id, username: 'Member Mila' },
      ];
      assert.deepEqual(set.json(), { data: expected });
      assert.deepEqual((await api(null, 'GET', `/forums/${forum.id}/moderators`)).json(), { data: expected }, 'anyone may read them');
      assert.deepEqual((await api(admin, 'PUT', `/forums/${forum.id}/moderators`, { user_ids: [member.user.id] })).json().data, [expected[1]]);
      assert.deepEqual((await api(admin, 'PUT', `/forums/${forum.id}/moderators`, { user_ids: [] })).json(), { data: [] });
      const rows = await t.database.db.selectFrom('forum_grants').selectAll().where('forum_id', '=', forum.id).execute();
      assert.deepEqual(rows, []);
    });

    it('refuses everyone but admins (401, 403), unknown forums (404) and bad lists (422), changing nothing', async () => {
      const url = `/forums/${linux.id}/moderators`;
      const body = { user_ids: [member.user.id] };
      await refusedUnchanged(() => api(null, 'PUT', url, body), 401);
      await refusedUnchanged(() => api(member, 'PUT', url, body), 403, 'This action is unauthorized.');
      await refusedUnchanged(() => api(staff, 'PUT', url, body), 403, 'This action is unauthorized.');
      await refusedUnchanged(() => api(keeper, 'PUT', url, body), 403, 'This action is unauthorized.');
      await refusedUnchanged(() => api(admin, 'PUT', '/forums/999999/moderators', body), 404);
      await refusedUnchanged(() => api(null, 'GET', '/forums/999999/moderators'), 404);

      const invalid = async (payload: unknown, field: string, message: string) => {
        const state = await snapshotTables(t);
        const response = await api(admin, 'PUT', url, payload);
        assert.equal(response.statusCode, 422, JSON.stringify(payload));
        assert.ok(response.json().errors[field]?.includes(message), response.body);
        assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
      };
      await invalid({ user_ids: [member.user.id, 999_999] }, 'user_ids.1', 'The selected user ids.1 is invalid.');
      await invalid({ user_ids: [member.user.id, member.user.id] }, 'user_ids', 'The user ids field has a duplicate value.');
      await invalid({ user_ids: [member.user.id, 'two'] }, 'user_ids.1', 'The user ids.1 field must be an integer.');
      await invalid({ user_ids: [1.5] }, 'user_ids.0', 'The user ids.0 field must be an integer.');
      await invalid({ user_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, 'user_ids', 'The user ids field must not have more than 100 items.');
      await invalid({}, 'user_ids', 'The user ids field is required.');
      assert.deepEqual((await api(null, 'GET', url)).json().data, [{ id: keeper.user.id, username: 'Keeper Kai' }]);
    });

    it('is documented in the OpenAPI description', async () => {
      const document = (await api(null, 'GET', '/openapi.json')).json();
      const path = document.paths['/api/forums/{id}/moderators'];
      assert.ok(path?.get && path?.put, Object.keys(document.paths).join(', '));
      assert.ok(path.put.requestBody, 'the body is described');
    });

    it('drops the rows with their member’s account or their forum, and keeps neither from going', async () => {
      const leaving = await person('Leaving Lou');
      const forum = await t.services.forum.createForum({ name: 'Cascade' });
      await setModerators(forum, [leaving, member]);
      await t.services.users.delete(leaving.user.id, asAuthUser(admin.user));
      assert.deepEqual((await api(null, 'GET', `/forums/${forum.id}/moderators`)).json().data, [{ id: member.user.id, username: 'Member Mila' }]);
      assert.equal((await api(admin, 'DELETE', `/forums/${forum.id}`)).statusCode, 204);
      assert.deepEqual(await t.database.db.selectFrom('forum_grants').selectAll().where('forum_id', '=', forum.id).execute(), []);
    });
  });

  describe('in their forum, and only there', () => {
    it('locks, pins, hides, restores, edits, renames, reads versions and replies to a locked topic in their forum', async () => {
      const topic = await topicIn(linux);
      const post = await replyIn(topic, 'A member’s reply');
      for (const action of ['lock', 'pin', 'hide', 'restore', 'unpin']) {
        assert.equal((await api(keeper, 'POST', `/topics/${topic.id}/${action}`)).statusCode, 200, action);
      }
      assert.equal((await api(keeper, 'POST', `/topics/${topic.id}/posts`, { body: 'Moderators still reply' })).statusCode, 201);
      assert.equal((await api(member, 'POST', `/topics/${topic.id}/posts`, { body: 'Can I?' })).statusCode, 403);
      assert.equal((await api(keeper, 'POST', `/posts/${post.id}/hide`)).json().data.hidden, true);
      assert.equal((await api(keeper, 'POST', `/posts/${post.id}/restore`)).json().data.hidden, false);
      assert.equal((await api(keeper, 'PATCH', `/posts/${post.id}`, { body: 'Edited by the forum’s moderator' })).statusCode, 200);
      assert.equal((await api(keeper, 'GET', `/posts/${post.id}/revisions`)).json().data[0].body, 'A member’s reply');
      assert.equal((await api(keeper, 'PATCH', `/topics/${topic.id}`, { title: 'Renamed by the moderator' })).statusCode, 200);
      const log = (await api(admin, 'GET', `/moderation-log?topic_id=${topic.id}`)).json().data as Array<{ action: string; moderator: { id: number } }>;
      assert.deepEqual(
        log.map((entry) => entry.action),
        ['restore_post', 'hide_post', 'unpin', 'restore_topic', 'hide_topic', 'pin', 'lock'],
      );
      assert.ok(log.every((entry) => entry.moderator.id === keeper.user.id));
      assert.equal((await api(keeper, 'DELETE', `/posts/${post.id}`)).statusCode, 204);
      assert.equal((await api(keeper, 'DELETE', `/topics/${topic.id}`)).statusCode, 204);
    });

    it('is refused in another forum and in their forum’s subforum as a member is, and nothing changes', async () => {
      for (const forum of [windows, debian]) {
        const topic = await topicIn(forum);
        const post = await replyIn(topic, `A reply in ${forum.name}`);
        for (const action of ['lock', 'pin', 'hide']) {
          await refusedUnchanged(() => api(keeper, 'POST', `/topics/${topic.id}/${action}`), 403);
        }
        await refusedUnchanged(() => api(keeper, 'POST', `/posts/${post.id}/hide`), 403, 'Only moderators can hide and restore.');
        await refusedUnchanged(() => api(keeper, 'PATCH', `/posts/${post.id}`, { body: 'Not yours' }), 403, 'Only the author or a moderator can change this.');
        await refusedUnchanged(
          () => api(keeper, 'PATCH', `/topics/${topic.id}`, { title: 'Not yours' }),
          403,
          'Only the author or a moderator can change this.',
        );
        await refusedUnchanged(() => api(keeper, 'DELETE', `/posts/${post.id}`), 403, 'Only the author or a moderator can change this.');
        await refusedUnchanged(() => api(keeper, 'DELETE', `/topics/${topic.id}`), 403, 'Only moderators can delete topics.');
        await refusedUnchanged(() => api(keeper, 'GET', `/posts/${post.id}/revisions`), 403, 'Only moderators can read earlier versions.');
        await api(staff, 'POST', `/topics/${topic.id}/lock`);
        await refusedUnchanged(
          () => api(keeper, 'POST', `/topics/${topic.id}/posts`, { body: 'Locked for me' }),
          403,
          'This topic is locked: only moderators can reply.',
        );
      }
      // A member is refused by the routes' guard, as before there were forum moderators.
      const theirs = await topicIn(linux);
      await refusedUnchanged(() => api(member, 'POST', `/topics/${theirs.id}/lock`), 403, 'This action is unauthorized.');
    });

    it('moves a topic only between two forums they moderate', async () => {
      const mine = await topicIn(linux);
      const elsewhere = await topicIn(windows);
      await refusedUnchanged(
        () => api(keeper, 'POST', `/topics/${mine.id}/move`, { forum_id: windows.id }),
        403,
        'Only moderators of both forums can move a topic between them.',
      );
      await refusedUnchanged(() => api(keeper, 'POST', `/topics/${mine.id}/move`, { forum_id: debian.id }), 403);
      await refusedUnchanged(() => api(keeper, 'POST', `/topics/${elsewhere.id}/move`, { forum_id: linux.id }), 403, 'Only moderators can do this.');
      await setModerators(windows, [keeper]);
      try {
        const moved = await api(keeper, 'POST', `/topics/${mine.id}/move`, { forum_id: windows.id });
        assert.equal(moved.statusCode, 200);
        assert.equal(moved.json().data.forum_id, windows.id);
        assert.equal((await api(keeper, 'POST', `/topics/${elsewhere.id}/move`, { forum_id: linux.id })).json().data.forum_id, linux.id);
      } finally {
        await setModerators(windows, []);
      }
    });

    it('sees pending and hidden posts and topics in their forum only, as the API lists them', async () => {
      await createRule(t, 'holdformods', 'moderate', ['posts', 'topics']);
      const shown = new Map<number, { topic: TopicWithAuthor; pending: PostWithAuthor; hidden: PostWithAuthor; held: TopicWithAuthor }>();
      for (const forum of [linux, windows]) {
        const topic = await topicIn(forum);
        const pending = await replyIn(topic, 'please holdformods this');
        const hidden = await replyIn(topic, 'to be hidden');
        await api(staff, 'POST', `/posts/${hidden.id}/hide`);
        const held = await t.services.forum.createTopic(asAuthUser(member.user), { forum_id: forum.id, title: 'Held holdformods topic', body: 'Body' });
        shown.set(forum.id, { topic, pending, hidden, held });
      }
      const ids = async (url: string) => ((await api(keeper, 'GET', url)).json().data as Array<{ id: number }>).map((row) => row.id);
      const mine = shown.get(linux.id)!;
      const theirs = shown.get(windows.id)!;
      assert.deepEqual((await ids(`/topics/${mine.topic.id}/posts`)).slice(1), [mine.pending.id, mine.hidden.id]);
      assert.deepEqual((await ids(`/topics/${theirs.topic.id}/posts`)).slice(1), []);
      assert.ok((await ids(`/forums/${linux.id}/topics`)).includes(mine.held.id));
      assert.ok(!(await ids(`/forums/${windows.id}/topics`)).includes(theirs.held.id));
      assert.equal((await api(keeper, 'GET', `/topics/${mine.held.id}`)).statusCode, 200);
      assert.equal((await api(keeper, 'GET', `/topics/${theirs.held.id}`)).statusCode, 404);
      assert.equal((await api(keeper, 'GET', `/posts/${mine.hidden.id}`)).statusCode, 200);
      assert.equal((await api(keeper, 'GET', `/posts/${theirs.hidden.id}`)).statusCode, 404);

      // Approving: theirs is not to be seen (404), a published post elsewhere not theirs to decide on (403).
      await refusedUnchanged(() => api(keeper, 'POST', `/posts/${theirs.pending.id}/approve`), 404);
      await refusedUnchanged(() => api(keeper, 'POST', `/posts/${theirs.pending.id}/reject`), 404);
      const published = await replyIn(theirs.topic, 'published elsewhere');
      await refusedUnchanged(() => api(keeper, 'POST', `/posts/${published.id}/approve`), 403, 'Only moderators can approve or reject posts.');
      await refusedUnchanged(() => api(member, 'POST', `/posts/${mine.pending.id}/approve`), 403, 'This action is unauthorized.');
      assert.equal((await api(keeper, 'POST', `/posts/${mine.pending.id}/approve`)).json().data.status, 'published');
    });
  });

  describe('the moderation queue', () => {
    it('shows a forum moderator their forums’ held posts only, and lets them decide on those', async () => {
      await createRule(t, 'queuedformods', 'moderate', ['posts']);
      const mine = await replyIn(await topicIn(linux), 'queuedformods in Linux');
      const theirs = await replyIn(await topicIn(windows), 'queuedformods in Windows');
      const queue = await page(keeper.browser, '/admin/moderation/');
      assert.ok(dom(queue).has(`tr#pending-${mine.id}`));
      assert.ok(!dom(queue).has(`tr#pending-${theirs.id}`));
      assert.ok(dom(await page(staff.browser, '/admin/moderation/')).has(`tr#pending-${theirs.id}`), 'staff see every held post');
      // The dashboard offers them their sections (the queue, the reports, the log); the others stay closed.
      const dashboard = await page(keeper.browser, '/admin/');
      assert.deepEqual(dom(dashboard).texts('ul.cards h2'), ['Moderation queue', 'Reports', 'Moderation log']);
      for (const closed of ['/admin/word-filters/', '/admin/forums/', '/admin/users/']) {
        assert.equal((await keeper.browser.get(closed)).status, 403, closed);
      }
      assert.equal((await member.browser.get('/admin/moderation/')).status, 403);
      assert.ok(dom(queue).has('header.site a[href="/admin/"]'), 'the header leads a forum moderator to the queue');
      assert.ok(!dom(await page(member.browser, '/')).has('header.site a[href="/admin/"]'));

      const state = await snapshotTables(t);
      assert.equal((await keeper.browser.post(`/admin/moderation/${theirs.id}/approve/`, {})).status, 404);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
      assert.equal((await keeper.browser.post(`/admin/moderation/${mine.id}/approve/`, {})).status, 303);
      assert.equal((await t.services.forum.getPost(mine.id, null)).status, 'published');
    });
  });

  describe('the pages', () => {
    it('names a forum’s moderators under its title and on the index, linked to their profiles', async () => {
      const forumPage = dom(await page(new Browser(t), forumPath(linux)));
      const line = forumPage.one('h1 ~ p.moderators');
      assert.equal(line.textContent.replace(/\s+/g, ' ').trim(), 'Moderators: Keeper Kai');
      assert.equal(dom(line).linkText(`/profile/keeper-kai.${keeper.user.id}/`), 'Keeper Kai');
      assert.ok(!dom(await page(new Browser(t), forumPath(windows))).has('p.moderators'));
      const index = dom(await page(new Browser(t), '/'));
      assert.match(index.containing('tr', 'Linux').textContent, /Moderators:\s+Keeper Kai/);
      assert.doesNotMatch(index.containing('tr', 'Windows').textContent, /Moderators:/);
    });

    it('gives them the topic panel in their forum only, offering a move only into forums they moderate', async () => {
      const mine = await topicIn(linux);
      const theirs = await topicIn(windows);
      const panel = dom(await page(keeper.browser, topicPath(mine)));
      assert.ok(panel.has('details.moderation'));
      assert.deepEqual(panel.texts('select#move-forum option'), []);
      assert.ok(!dom(await page(keeper.browser, topicPath(theirs))).has('details.moderation'));
      await setModerators(windows, [keeper]);
      try {
        const both = dom(await page(keeper.browser, topicPath(mine)));
        assert.deepEqual(
          both.texts('select#move-forum option').filter((name) => name !== ''),
          ['Windows'],
        );
        const moved = await keeper.browser.post(`${(await keeper.browser.get(topicPath(mine))).location}move/`, { forum_id: String(windows.id) });
        assert.equal(moved.status, 303);
        assert.equal((await t.services.forum.getTopic(mine.id, null)).forum_id, windows.id);
      } finally {
        await setModerators(windows, []);
      }
      // Back in a forum they no longer moderate, the page's forms refuse them with the 403 page.
      const state = await snapshotTables(t);
      const canonical = (await keeper.browser.get(topicPath(mine))).location!;
      await keeper.browser.get(canonical);
      assert.equal((await keeper.browser.post(`${canonical}lock/`, {})).status, 403);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });

    it('sets a forum’s moderators by name on the admin forum page, with a field error for an unknown name', async () => {
      const forum = await t.services.forum.createForum({ name: 'Named here' });
      const url = `/admin/forums/${forum.id}/`;
      await page(admin.browser, url);
      const state = await snapshotTables(t);
      const refused = await admin.browser.post(url, { name: 'Named here', moderators: 'keeper kai, Nobody Known' });
      assert.equal(refused.status, 422);
      assert.equal(fieldError(refused.body, 'forum', 'moderators'), 'No member is named “Nobody Known”.');
      assert.equal(dom(refused).attr('input#forum-moderators', 'value'), 'keeper kai, Nobody Known', 'what was typed comes back');
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);

      const saved = await admin.browser.post(url, { name: 'Named here', moderators: ' keeper KAI ,member mila,, Keeper Kai' });
      assert.equal(saved.status, 303);
      assert.deepEqual(
        (await t.services.forum.moderators.of(forum.id)).map((user) => user.username),
        ['Keeper Kai', 'Member Mila'],
      );
      assert.equal(dom(await page(admin.browser, url)).attr('input#forum-moderators', 'value'), 'Keeper Kai, Member Mila');
      // A form without the field (loaded before it existed) leaves them; an empty field removes them.
      assert.equal((await admin.browser.post(url, { name: 'Named here' })).status, 303);
      assert.equal((await t.services.forum.moderators.of(forum.id)).length, 2);
      assert.equal((await admin.browser.post(url, { name: 'Named here', moderators: '' })).status, 303);
      assert.deepEqual(await t.services.forum.moderators.of(forum.id), []);
    });
  });

  describe('the page cache', () => {
    it('never serves a staff view to a forum moderator elsewhere, nor a member’s view to them in their forum', async () => {
      const forum = await t.services.forum.createForum({ name: 'Cache here' });
      const topic = await topicIn(forum);
      const hidden = await replyIn(topic, 'cachedhidden reply');
      await api(staff, 'POST', `/posts/${hidden.id}/hide`);
      const shows = async (person: Person) => /cachedhidden/.test((await page(person.browser, topicPath(topic))).body);

      // Staff fill the staff fragment first; the forum moderator-to-be and a member fill their own.
      assert.equal(await shows(staff), true);
      assert.equal(await shows(keeper), false, 'not their forum yet: a member’s view');
      assert.equal(await shows(member), false);
      assert.ok(t.services.pageCache.size > 0);

      await setModerators(forum, [keeper]);
      assert.equal(await shows(keeper), true, 'their forum now: the moderators’ view, not the member’s one kept before');
      assert.match((await page(keeper.browser, topicPath(topic))).body, new RegExp(`form="restore-post" name="post_id" value="${hidden.id}"`));
      assert.equal(await shows(member), false, 'the member still gets their own');
      await setModerators(forum, []);
      assert.equal(await shows(keeper), false, 'no longer theirs: never the moderators’ view again');
    });
  });
});
