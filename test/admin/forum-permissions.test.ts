// /admin/forums/{id}/permissions/ (docs/access.md): the grid of levels and
// grants, usable without JavaScript. An admin closes a forum to a group and
// opens it again; a name nobody has is named in the 422 and nothing changes;
// only admins open it, behind the CSRF token; in Russian too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { fieldError, notice, signedInBrowser, type SignedInBrowser } from './helpers.ts';

const ACTIONS = ['view', 'read', 'post', 'reply', 'edit', 'delete', 'pin', 'announce', 'vote', 'poll_create', 'upload', 'download'];

describeEachDatabase('admin forum permission pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let teamGroupId: number;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
    const now = new Date(0).toISOString();
    teamGroupId = (
      await t.database.db
        .insertInto('user_groups')
        .values({ name: 'Release Crew', name_key: 'release crew', type: 'closed', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => t.close());

  /** The levels as the page's form would send them back unchanged, with some changed. */
  const levelsForm = (page: { body: string }, changes: Record<string, string> = {}): Record<string, string> =>
    Object.fromEntries(
      ACTIONS.map((action) => [`level_${action}`, changes[action] ?? dom(page).attr(`select[name="level_${action}"] option[selected]`, 'value')!]),
    );

  describe('the grid', () => {
    it('shows the levels, adds a group grant by name, and closes the forum to everyone else', async () => {
      const forum = await t.services.forum.createForum({ name: 'Crew room' });
      const url = `/admin/forums/${forum.id}/permissions/`;
      const page = await admin.browser.get(url);
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Permissions of “Crew room”');
      assert.equal(dom(page).attr('select[name="level_view"] option[selected]', 'value'), 'all');
      assert.equal(dom(page).attr('select[name="level_pin"] option[selected]', 'value'), 'moderators');
      assert.equal(dom(page).attr('form[method="post"] input[name="_csrf"]', 'value'), admin.browser.csrf);
      assert.ok(
        dom(await admin.browser.get(`/admin/forums/${forum.id}/`))
          .links()
          .some((link) => link.href === url),
        'linked from the forum’s edit page',
      );

      const saved = await admin.browser.post(url, {
        ...levelsForm(page, { view: 'private', read: 'private' }),
        new_kind: 'group',
        new_name: 'release CREW',
        new_actions: ['view', 'read', 'reply'],
      });
      assert.equal(saved.status, 303);
      const state = await t.services.forum.permissions.get(forum.id);
      assert.equal(state.levels.view, 'private');
      assert.deepEqual(state.grants, [{ group_id: teamGroupId, actions: ['view', 'read', 'reply'], moderate: false }]);
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}` })).statusCode, 404, 'a guest no longer finds it');

      const shown = await admin.browser.get(url);
      assert.match(notice(shown.body)?.text ?? '', /saved/);
      assert.equal(dom(shown).attr('input[name="grant_0_holder"]', 'value'), `g${teamGroupId}`);
      assert.equal(dom(shown).attr('input[name="grant_0_actions"][value="reply"]', 'checked'), '');

      // Moderates, then removed: the forum opens again.
      await admin.browser.post(url, { ...levelsForm(shown), grant_0_holder: `g${teamGroupId}`, grant_0_actions: ['view', 'read', 'moderate'] });
      assert.deepEqual((await t.services.forum.permissions.get(forum.id)).grants, [{ group_id: teamGroupId, actions: ['view', 'read'], moderate: true }]);
      await admin.browser.post(url, { ...levelsForm(shown, { view: 'all', read: 'all' }), grant_0_holder: `g${teamGroupId}`, grant_0_remove: '1' });
      assert.deepEqual(await t.services.forum.permissions.get(forum.id), {
        levels: { ...(await t.services.forum.permissions.get(forum.id)).levels, view: 'all', read: 'all' },
        grants: [],
      });
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/forums/${forum.id}` })).statusCode, 200);
    });

    it('names an unknown group or member and changes nothing (422)', async () => {
      const forum = await t.services.forum.createForum({ name: 'Nameless' });
      const url = `/admin/forums/${forum.id}/permissions/`;
      const page = await admin.browser.get(url);
      const before = await snapshotTables(t);
      const refused = await admin.browser.post(url, {
        ...levelsForm(page, { view: 'private' }),
        new_kind: 'member',
        new_name: 'Nobody Here',
        new_actions: ['view'],
      });
      assert.equal(refused.status, 422);
      assert.match(fieldError(refused.body, 'permissions', 'new_name') ?? '', /No member is named “Nobody Here”/);
      const badLevel = await admin.browser.post(url, { ...levelsForm(page, { read: 'friends' }) });
      assert.equal(badLevel.status, 422);
      assert.ok(fieldError(badLevel.body, 'permissions', 'levels.read') !== undefined || /friends/.test(badLevel.body));
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });

    it('is for admins only, behind the CSRF token', async () => {
      const forum = await t.services.forum.createForum({ name: 'Guarded grid' });
      const url = `/admin/forums/${forum.id}/permissions/`;
      const moderator = await signedInBrowser(t, 'moderator');
      assert.equal((await moderator.browser.get(url)).status, 403);
      assert.notEqual((await new Browser(t).get(url)).status, 200);
      const before = await snapshotTables(t);
      const page = await admin.browser.get(url);
      assert.equal((await admin.browser.post(url, { ...levelsForm(page, { view: 'admins' }), _csrf: 'forged' })).status, 403);
      assert.equal((await moderator.browser.post(url, { ...levelsForm(page, { view: 'admins' }) })).status, 403);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });

    it('speaks Russian', async () => {
      const forum = await t.services.forum.createForum({ name: 'Русский' });
      const russian = await signedInBrowser(t, 'admin');
      await t.services.users.update(russian.user.id, { locale: 'ru' });
      const page = await russian.browser.get(`/admin/forums/${forum.id}/permissions/`);
      assert.equal(page.status, 200);
      assert.match(page.body, /Права форума «Русский»/);
      assert.match(page.body, /Только с правом/);
    });
  });
});
