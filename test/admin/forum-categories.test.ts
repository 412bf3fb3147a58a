// /admin/categories/ and the category field of /admin/forums/ (docs/access.md,
// "Categories"): list, create, rename, reorder, delete (an empty one; the 409
// explained with the forums in it), refusals changing nothing, for admins only
// and behind the CSRF token; in English and Russian; without JavaScript.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CategoryRow } from '../../src/forum/categories.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { dom, textOf } from '../helpers/dom.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { HTMX, fieldError, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';

describeEachDatabase('admin forum category pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  const categories = () => t.services.forum.categories.rows();
  const named = async (title: string): Promise<CategoryRow | undefined> => (await categories()).find((row) => row.title === title);
  const categoryIn = async (forumId: number) => (await t.services.forum.getForum(forumId)).category_id;

  describe('the categories page', () => {
    it('lists categories by position with the forums in each, linking to their edit pages', async () => {
      const music = await t.services.forum.categories.create({ title: 'Music', display_order: 2 });
      const films = await t.services.forum.categories.create({ title: 'Films', display_order: 1 });
      const jazz = await t.services.forum.createForum({ name: 'Jazz', category_id: music.id });
      await t.services.forum.createForum({ name: 'Bebop', parent_id: jazz.id });
      const page = await admin.browser.get('/admin/categories/');
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Forum categories');
      const ids = dom(page)
        .all('tr[id^="category-"]')
        .map((tr) => tr.id);
      assert.ok(ids.indexOf(`category-${films.id}`) < ids.indexOf(`category-${music.id}`), ids.join(', '));
      const musicRow = dom(row(page.body, `category-${music.id}`)!);
      assert.deepEqual(musicRow.links('ul'), [{ href: `/admin/forums/${jazz.id}/`, text: 'Jazz' }], 'top-level forums only; subforums go with them');
      assert.equal(musicRow.attr('input[name="title"]', 'value'), 'Music');
      assert.equal(musicRow.attr('input[name="display_order"]', 'value'), '2');
      assert.equal(dom(row(page.body, `category-${films.id}`)!).text('td:nth-child(2)'), 'No forums');
      // Every form carries the session's CSRF token.
      const forms = dom(page).all('main form[method="post"]');
      assert.ok(forms.length >= 3);
      for (const form of forms) assert.equal(dom(form).attr('input[name="_csrf"]', 'value'), admin.browser.csrf);
      // In the navigation and on the dashboard.
      assert.equal(dom(page).linkText('/admin/categories/'), 'Forum categories');
      assert.ok(
        dom(await admin.browser.get('/admin/'))
          .links()
          .some((link) => link.href === '/admin/categories/'),
      );
    });

    it('creates a category; a wrong form shows the API’s messages and creates nothing (422)', async () => {
      const before = await snapshotTables(t);
      const refused = await admin.browser.post('/admin/categories/', { title: '  ', display_order: '-2' });
      assert.equal(refused.status, 422);
      assert.equal(fieldError(refused.body, 'new-category', 'title'), 'The title field is required.');
      assert.equal(fieldError(refused.body, 'new-category', 'display_order'), 'The display order field must be at least 0.');
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      const created = await admin.browser.post('/admin/categories/', { title: 'Software', display_order: '5' });
      assert.equal(created.status, 303);
      assert.equal(created.location, '/admin/categories/');
      const stored = await named('Software');
      assert.equal(stored?.display_order, 5);
      assert.deepEqual(notice((await admin.browser.get('/admin/categories/')).body), { kind: 'ok', text: 'Category “Software” created.' });
    });

    it('renames and reorders from the table; a refused change shows its message in that row (422)', async () => {
      const category = await t.services.forum.categories.create({ title: 'Gamez', display_order: 7 });
      const saved = await admin.browser.post(`/admin/categories/${category.id}/`, { title: 'Games', display_order: '0' });
      assert.equal(saved.status, 303);
      const stored = await t.services.forum.categories.find(category.id);
      assert.deepEqual([stored.title, stored.display_order], ['Games', 0]);
      const list = await admin.browser.get('/admin/categories/');
      assert.deepEqual(notice(list.body), { kind: 'ok', text: 'Category “Games” saved (position 0).' });
      assert.equal(dom(list).all('tr[id^="category-"]')[0]!.id, `category-${category.id}`, 'position 0 comes first');

      const before = await snapshotTables(t);
      const refused = await admin.browser.post(`/admin/categories/${category.id}/`, { title: 'x'.repeat(256), display_order: 'first' }, HTMX);
      assert.equal(refused.status, 422);
      assert.equal(fieldError(refused.body, `category-${category.id}`, 'title'), 'The title field must not be greater than 255 characters.');
      assert.equal(fieldError(refused.body, `category-${category.id}`, 'display_order'), 'The display order field must be an integer.');
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      assert.equal((await admin.browser.post('/admin/categories/999999/', { title: 'Nope', display_order: '1' })).status, 404);
    });

    it('deletes an empty category after asking', async () => {
      const category = await t.services.forum.categories.create({ title: 'Short-lived', display_order: 3 });
      const asked = await admin.browser.post(`/admin/categories/${category.id}/delete/`, {});
      assert.equal(asked.status, 200);
      assert.equal(dom(asked).text('main p'), 'Delete the category “Short-lived”? Only a category without forums can be deleted.');
      assert.ok(await named('Short-lived'), 'asking deletes nothing');
      const done = await admin.browser.post(`/admin/categories/${category.id}/delete/`, { confirmed: '1' });
      assert.equal(done.status, 303);
      assert.equal(await named('Short-lived'), undefined);
      assert.deepEqual(notice((await admin.browser.get('/admin/categories/')).body), { kind: 'ok', text: 'Category “Short-lived” deleted.' });
    });

    it('refuses to delete a category with forums, saying why and which forums, and keeps it', async () => {
      const category = await t.services.forum.categories.create({ title: 'Occupied', display_order: 4 });
      await t.services.forum.createForum({ name: 'Tenant One', category_id: category.id });
      await t.services.forum.createForum({ name: 'Tenant Two', category_id: category.id });
      const before = await snapshotTables(t);
      const refused = await admin.browser.post(`/admin/categories/${category.id}/delete/`, { confirmed: '1' });
      assert.equal(refused.status, 303);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      assert.deepEqual(notice((await admin.browser.get('/admin/categories/')).body), {
        kind: 'error',
        text: '“Occupied” was not deleted: The category still has forums. Move them to another category, or to none, first. In it: “Tenant One”, “Tenant Two”.',
      });
      // With htmx: the notice only, the table stays.
      const htmx = await admin.browser.post(`/admin/categories/${category.id}/delete/`, { confirmed: '1' }, HTMX);
      assert.equal(htmx.headers['hx-reswap'], 'none');
      assert.match(dom(htmx).textContent, /was not deleted: The category still has forums/);
      assert.ok(await named('Occupied'));
    });

    it('speaks Russian to a Russian reader', async () => {
      const russian = await signedInBrowser(t, 'admin');
      await t.services.users.update(russian.user.id, { locale: 'ru' });
      const page = await russian.browser.get('/admin/categories/');
      assert.equal(dom(page).text('h1'), 'Категории форумов');
      const refused = await russian.browser.post('/admin/categories/', { title: '', display_order: '0' });
      assert.equal(refused.status, 422);
      assert.match(fieldError(refused.body, 'new-category', 'title') ?? '', /обязательно/);
      const category = await t.services.forum.categories.create({ title: 'Занята', display_order: 9 });
      await t.services.forum.createForum({ name: 'Жилец', category_id: category.id });
      await russian.browser.post(`/admin/categories/${category.id}/delete/`, { confirmed: '1' });
      assert.deepEqual(notice((await russian.browser.get('/admin/categories/')).body), {
        kind: 'error',
        text: '«Занята» не удалена: В категории ещё есть форумы. Сначала перенесите их в другую категорию или уберите из категории. В ней: «Жилец».',
      });
    });

    it('is for admins only, and every change needs the session’s CSRF token', async () => {
      const moderator = await signedInBrowser(t, 'moderator');
      assert.equal((await moderator.browser.get('/admin/categories/')).status, 403);
      assert.equal((await moderator.browser.post('/admin/categories/', { title: 'Sneaky', display_order: '0' })).status, 403);
      assert.equal((await new Browser(t).get('/admin/categories/')).status, 303, 'a guest is sent to the login');
      const category = await t.services.forum.categories.create({ title: 'Guarded', display_order: 1 });
      const before = await snapshotTables(t);
      for (const [url, form] of [
        ['/admin/categories/', { title: 'Forged', display_order: '0' }],
        [`/admin/categories/${category.id}/`, { title: 'Forged', display_order: '0' }],
        [`/admin/categories/${category.id}/delete/`, { confirmed: '1' }],
      ] as const) {
        const forged = await admin.browser.post(url, { ...form, _csrf: 'not-the-token-of-this-session' });
        assert.equal(forged.status, 403, url);
      }
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });
  });

  describe('the category field of a forum', () => {
    it('offers the categories and “No category” on the new-forum form, and files the new forum', async () => {
      const category = await t.services.forum.categories.create({ title: 'For new forums', display_order: 1 });
      const list = await admin.browser.get('/admin/forums/');
      const options = dom(list).all('#new-forum-category_id option');
      assert.equal(textOf(options[0]!), 'No category');
      assert.equal(options[0]!.getAttribute('value'), '');
      assert.ok(options.some((option) => option.getAttribute('value') === String(category.id) && textOf(option) === 'For new forums'));
      assert.equal(dom(list).text('label[for="new-forum-category_id"]'), 'Category');

      const created = await admin.browser.post('/admin/forums/', {
        name: 'Filed',
        description: '',
        display_order: '0',
        category_id: String(category.id),
        parent_id: '',
      });
      assert.equal(created.status, 303);
      const forum = (await t.services.forum.listForums({ page: 1, perPage: 100, offset: 0 }, null)).rows.find((row) => row.name === 'Filed')!;
      assert.equal(forum.category_id, category.id);
      const row_ = row((await admin.browser.get('/admin/forums/')).body, `forum-${forum.id}`)!;
      assert.equal(dom(row_).text('.category'), 'Category: For new forums');

      const unknown = await admin.browser.post('/admin/forums/', {
        name: 'Nowhere',
        description: '',
        display_order: '0',
        category_id: '999999',
        parent_id: '',
      });
      assert.equal(unknown.status, 422);
      assert.equal(fieldError(unknown.body, 'new-forum', 'category_id'), 'The selected category id is invalid.');
    });

    it('moves a forum between categories and out of any on its edit page; a form without the field leaves it', async () => {
      const one = await t.services.forum.categories.create({ title: 'Edit one', display_order: 1 });
      const two = await t.services.forum.categories.create({ title: 'Edit two', display_order: 2 });
      const forum = await t.services.forum.createForum({ name: 'Mover', category_id: one.id });
      const page = await admin.browser.get(`/admin/forums/${forum.id}/`);
      assert.equal(dom(page).attr('#forum-category_id option[selected]', 'value'), String(one.id));
      const fields = { name: 'Mover', description: '', display_order: '0', parent_id: '' };
      assert.equal((await admin.browser.post(`/admin/forums/${forum.id}/`, { ...fields, category_id: String(two.id) })).status, 303);
      assert.equal(await categoryIn(forum.id), two.id);
      assert.equal((await admin.browser.post(`/admin/forums/${forum.id}/`, fields)).status, 303);
      assert.equal(await categoryIn(forum.id), two.id, 'a form from before the field changes nothing');
      assert.equal((await admin.browser.post(`/admin/forums/${forum.id}/`, { ...fields, category_id: '' })).status, 303);
      assert.equal(await categoryIn(forum.id), null);
    });

    it('puts a forum chosen to sit inside another in its parent’s category (its own field is for top-level forums)', async () => {
      const category = await t.services.forum.categories.create({ title: 'Parent’s category', display_order: 1 });
      const other = await t.services.forum.categories.create({ title: 'Another', display_order: 2 });
      const parent = await t.services.forum.createForum({ name: 'Parent forum', category_id: category.id });
      const forum = await t.services.forum.createForum({ name: 'Becomes a subforum', category_id: other.id });
      const saved = await admin.browser.post(`/admin/forums/${forum.id}/`, {
        name: 'Becomes a subforum',
        description: '',
        display_order: '0',
        parent_id: String(parent.id),
        category_id: String(other.id),
      });
      assert.equal(saved.status, 303);
      const stored = await t.services.forum.getForum(forum.id);
      assert.deepEqual([stored.parent_id, stored.category_id], [parent.id, null]);
      const categoryPage = await admin.browser.get('/admin/categories/');
      assert.deepEqual(
        dom(row(categoryPage.body, `category-${other.id}`)!).text('td:nth-child(2)'),
        'No forums',
        'it left the category it had, so that category may go',
      );
      // A refused save shows the category as it was chosen.
      const refused = await admin.browser.post(`/admin/forums/${forum.id}/`, {
        name: '',
        description: '',
        display_order: '0',
        parent_id: String(parent.id),
        category_id: String(other.id),
      });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).attr('#forum-category_id option[selected]', 'value'), String(other.id));
    });
  });
});
