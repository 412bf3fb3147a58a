import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { makeCategory, makeEmoji } from '../helpers/emoji.ts';
import { HTMX, fieldError, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom, textOf } from '../helpers/dom.ts';

describeEachDatabase('admin emoji category pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  const titles = async () => (await t.services.emoji.categories.list({ withCount: false, withEmojis: false })).map((listed) => listed.row.title);

  it('lists categories by position with their emoji counts, linking to their emojis', async () => {
    const people = await makeCategory(t, { title: 'People', display_order: 2 });
    const nature = await makeCategory(t, { title: 'Nature', display_order: 1 });
    await makeEmoji(t, { emoji_category_id: people.id });
    await makeEmoji(t, { emoji_category_id: people.id });
    const page = await admin.browser.get('/admin/emoji-categories/');
    assert.equal(page.status, 200);
    const rows = dom(page)
      .all('tr[id^="category-"]')
      .map((tr) => tr.id);
    assert.ok(rows.includes(`category-${people.id}`) && rows.indexOf(`category-${nature.id}`) < rows.indexOf(`category-${people.id}`), rows.join(', '));

    const count = dom(row(page.body, `category-${people.id}`)!).one(`a[href="/admin/emojis/?category_id=${people.id}"]`);
    assert.equal(textOf(count), '2 emojis in category “People”');
    assert.equal(dom(count).text('span.visually-hidden'), 'emojis in category “People”');
  });

  it('creates a category, with the API’s messages when the form is wrong (422)', async () => {
    const refused = await admin.browser.post('/admin/emoji-categories/', { title: '', display_order: '-2' });
    assert.equal(refused.status, 422);
    assert.equal(fieldError(refused.body, 'new-category', 'title'), 'The title field is required.');
    assert.equal(fieldError(refused.body, 'new-category', 'display_order'), 'The display order field must be at least 0.');
    assert.ok(!(await titles()).includes(''));
    const created = await admin.browser.post('/admin/emoji-categories/', { title: 'Flags', display_order: '9' });
    assert.equal(created.status, 303);
    assert.ok((await titles()).includes('Flags'));
    assert.deepEqual(notice((await admin.browser.get('/admin/emoji-categories/')).body), { kind: 'ok', text: 'Category “Flags” created.' });
  });

  it('renames and reorders from the table; a refused change shows its message in that row (422)', async () => {
    const category = await makeCategory(t, { title: 'Objectz', display_order: 5 });
    const saved = await admin.browser.post(`/admin/emoji-categories/${category.id}/`, { title: 'Objects', display_order: '0' });
    assert.equal(saved.status, 303);
    const stored = await t.services.emoji.categories.find(category.id);
    assert.deepEqual([stored.title, stored.display_order], ['Objects', 0]);

    const refused = await admin.browser.post(`/admin/emoji-categories/${category.id}/`, { title: 'x'.repeat(256), display_order: 'first' }, HTMX);
    assert.equal(refused.status, 422);
    assert.equal(fieldError(refused.body, `category-${category.id}`, 'title'), 'The title field must not be greater than 255 characters.');
    assert.equal(fieldError(refused.body, `category-${category.id}`, 'display_order'), 'The display order field must be an integer.');
    assert.equal((await t.services.emoji.categories.find(category.id)).title, 'Objects');
  });

  it('deletes after asking; its emojis stay, without a category', async () => {
    const category = await makeCategory(t, { title: 'Short-lived' });
    const emoji = await makeEmoji(t, { emoji_category_id: category.id });
    const asked = await admin.browser.post(`/admin/emoji-categories/${category.id}/delete/`, {});
    assert.equal(asked.status, 200);
    assert.match(dom(asked).text('main'), /Delete the category “Short-lived”\? Its 1 emoji stay, without a category\./);
    const done = await admin.browser.post(`/admin/emoji-categories/${category.id}/delete/`, { confirmed: '1' });
    assert.equal(done.status, 303);
    assert.ok(!(await titles()).includes('Short-lived'));
    assert.equal((await t.services.emoji.emojis.find(emoji.id)).emoji_category_id, null);
    const page = await admin.browser.get('/admin/emoji-categories/');
    assert.match(dom(page).linkText('/admin/emojis/?category_id=none') ?? '', /^\d+ emojis? without a category$/);
  });

  it('is for admins only', async () => {
    const moderator = await signedInBrowser(t, 'moderator');
    assert.equal((await moderator.browser.get('/admin/emoji-categories/')).status, 403);
    assert.equal((await moderator.browser.post('/admin/emoji-categories/', { title: 'Sneaky', display_order: '0' })).status, 403);
    assert.ok(!(await titles()).includes('Sneaky'));
  });
});
