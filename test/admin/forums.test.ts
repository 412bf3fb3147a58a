import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { fieldError, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('admin forum pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin');
  });
  after(() => t.close());

  const forumNames = async () => (await t.services.forum.listForums({ page: 1, perPage: 100, offset: 0 }, null)).rows.map((forum) => forum.name);

  it('creates a forum from the list page', async () => {
    await admin.browser.get('/admin/forums/');
    const response = await admin.browser.post('/admin/forums/', { name: 'Announcements', description: 'News from the team', display_order: '1' });
    assert.equal(response.status, 303);
    const forum = (await t.services.forum.listForums({ page: 1, perPage: 100, offset: 0 }, null)).rows.find((f) => f.name === 'Announcements')!;
    assert.deepEqual([forum.description, forum.display_order], ['News from the team', 1]);
    const list = await admin.browser.get('/admin/forums/');
    assert.deepEqual(notice(list.body), { kind: 'ok', text: 'Forum “Announcements” created.' });
    assert.equal(dom(row(list.body, `forum-${forum.id}`)!).linkText(`/forum/announcements.${forum.id}/`), 'Announcements');
  });

  it('shows the API’s messages for a blank name and a negative position, and creates nothing (422)', async () => {
    const before = await forumNames();
    const response = await admin.browser.post('/admin/forums/', { name: '  ', description: 'kept', display_order: '-1' });
    assert.equal(response.status, 422);
    assert.equal(fieldError(response.body, 'new-forum', 'name'), 'The name field is required.');
    assert.equal(fieldError(response.body, 'new-forum', 'display_order'), 'The display order field must be at least 0.');
    assert.equal(dom(response).one('textarea#new-forum-description[name="description"]').text, 'kept');
    assert.deepEqual(await forumNames(), before);
  });

  it('renames and describes a forum on its edit page', async () => {
    const forum = await t.services.forum.createForum({ name: 'Old Name' });
    const form = await admin.browser.get(`/admin/forums/${forum.id}/`);
    assert.equal(dom(form).attr('input[name="name"][type="text"]', 'value'), 'Old Name');
    const response = await admin.browser.post(`/admin/forums/${forum.id}/`, { name: 'New Name', description: '', display_order: '7' });
    assert.equal(response.status, 303);
    const saved = await t.services.forum.getForum(forum.id);
    assert.deepEqual([saved.name, saved.description, saved.display_order], ['New Name', '', 7]);
    const invalid = await admin.browser.post(`/admin/forums/${forum.id}/`, { name: '', display_order: 'x' });
    assert.equal(invalid.status, 422);
    assert.equal(fieldError(invalid.body, 'forum', 'display_order'), 'The display order field must be an integer.');
    assert.equal((await t.services.forum.getForum(forum.id)).name, 'New Name');
  });

  it('reorders from the table: the list comes back in the new order', async () => {
    const first = await t.services.forum.createForum({ name: 'Reorder First', display_order: 10 });
    const second = await t.services.forum.createForum({ name: 'Reorder Second', display_order: 20 });
    const response = await admin.browser.post(`/admin/forums/${second.id}/order/`, { display_order: '5', return: '/admin/forums/' });
    assert.equal(response.status, 303);
    const list = await admin.browser.get('/admin/forums/');
    const names = dom(list).texts('tbody tr a');
    assert.ok(names.includes('Reorder First') && names.indexOf('Reorder Second') < names.indexOf('Reorder First'), names.join(', '));

    assert.deepEqual(notice(list.body), { kind: 'ok', text: 'Forum “Reorder Second” moved to position 5.' });
    const refused = await admin.browser.post(`/admin/forums/${first.id}/order/`, { display_order: '-3' });
    assert.equal(refused.status, 303);
    assert.deepEqual(notice((await admin.browser.get('/admin/forums/')).body), {
      kind: 'error',
      text: 'Reorder First: The display order field must be at least 0.',
    });
    assert.equal((await t.services.forum.getForum(first.id)).display_order, 10);
  });

  it('deletes an empty forum after asking, and refuses one with topics', async () => {
    const empty = await t.services.forum.createForum({ name: 'Empty Forum' });
    const asked = await admin.browser.post(`/admin/forums/${empty.id}/delete/`, {});
    assert.equal(asked.status, 200);
    assert.match(dom(asked).text('main'), /Delete the forum “Empty Forum”\?/);

    await t.services.forum.getForum(empty.id);
    assert.equal((await admin.browser.post(`/admin/forums/${empty.id}/delete/`, { confirmed: '1' })).status, 303);
    await assert.rejects(t.services.forum.getForum(empty.id));

    const busy = await t.services.forum.createForum({ name: 'Busy Forum' });
    const author = await createUser(t);
    await t.services.forum.createTopic(
      { id: author.id, name: author.username, email: author.email, role: 'user' },
      { forum_id: busy.id, title: 'Keeps it', body: 'Hello' },
    );
    const refused = await admin.browser.post(`/admin/forums/${busy.id}/delete/`, { confirmed: '1' });
    assert.equal(refused.status, 303);
    assert.deepEqual(notice((await admin.browser.get('/admin/forums/')).body), {
      kind: 'error',
      text: '“Busy Forum”: The forum still has topics. Move or delete them first.',
    });
    assert.equal((await t.services.forum.getForum(busy.id)).name, 'Busy Forum');
  });
});
