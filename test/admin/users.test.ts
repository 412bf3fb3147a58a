import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { HTMX, fieldError, notice, row, signedInBrowser, type SignedInBrowser } from './helpers.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('admin user pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin', 'Head Admin');
  });
  after(() => t.close());

  it('finds users by name or e-mail, role and status, and shows their bonus points', async () => {
    const zed = await createUser(t, { name: 'Zed Searchable' });
    await createUser(t, { name: 'Zed Banned', status: 'banned' });
    await t.database.db.insertInto('tracker_user_stats').values({ user_id: zed.id, bonus_points: 4250, updated_at: new Date().toISOString() }).execute();
    const page = await admin.browser.get('/admin/users/?search=zed+s&role=user');
    assert.equal(page.status, 200);
    const tr = row(page.body, `user-${zed.id}`)!;
    assert.ok(dom(tr).texts('td.num').includes('42.50'), 'the bonus points column');
    assert.equal(dom(tr).linkText(`/profile/zed-searchable.${zed.id}/`), 'Zed Searchable');
    assert.doesNotMatch(dom(page).text('body'), /Zed Banned/);
    const banned = await admin.browser.get('/admin/users/?search=zed&status=banned');
    assert.match(dom(banned).textContent, /Zed Banned/);
    assert.doesNotMatch(banned.body, /Zed Searchable/);
    assert.equal(dom(banned).text('option[value="banned"][selected]'), 'Banned');
  });

  it('bans a user: they are logged out at once and cannot log in', async () => {
    const victim = await createUser(t, { name: 'Soon Banned' });
    const session = new Browser(t);
    await session.logIn(victim.username, TEST_PASSWORD);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', cookies: Object.fromEntries(session.cookies) })).statusCode, 200);

    const response = await admin.browser.post(`/admin/users/${victim.id}/`, { role: 'user', status: 'banned', return: '/admin/users/?search=soon' });
    assert.equal(response.status, 303);
    assert.equal(response.location, '/admin/users/?search=soon');
    assert.equal((await t.services.users.get(victim.id)).status, 'banned');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/user', cookies: Object.fromEntries(session.cookies) })).statusCode, 401);
    assert.deepEqual(notice((await admin.browser.get('/admin/users/')).body), { kind: 'ok', text: 'Soon Banned is now a user (banned).' });

    const unban = await admin.browser.post(`/admin/users/${victim.id}/`, { role: 'user', status: 'active' });
    assert.equal(unban.status, 303);
    assert.equal((await new Browser(t).logIn(victim.username, TEST_PASSWORD)).status, 303, 'can log in again after the unban');
  });

  it('changes a role inline with htmx: the row comes back updated, with a notice', async () => {
    const helper = await createUser(t, { name: 'New Moderator' });
    const response = await admin.browser.post(`/admin/users/${helper.id}/`, { role: 'moderator', status: 'active' }, HTMX);
    assert.equal(response.status, 200);
    assert.ok(response.body.startsWith(`<tr id="user-${helper.id}">`));
    assert.equal(dom(response).text('option[value="moderator"][selected]'), 'Moderator');

    assert.match(dom(response).textContent, /New Moderator is now a moderator \(active\)\./);
    assert.equal((await t.services.users.get(helper.id)).role, 'moderator');
  });

  it('shows invalid choices next to the fields and changes nothing (422)', async () => {
    const target = await createUser(t, { name: 'Stays Same' });
    const page = await admin.browser.post(`/admin/users/${target.id}/`, { role: 'emperor', status: 'gone' });
    assert.equal(page.status, 422);
    assert.equal(fieldError(page.body, `user-${target.id}`, 'role'), 'The selected role is invalid.');
    assert.equal(fieldError(page.body, `user-${target.id}`, 'status'), 'The selected status is invalid.');
    const inline = await admin.browser.post(`/admin/users/${target.id}/`, { role: 'emperor', status: 'active' }, HTMX);
    assert.equal(inline.status, 422);
    assert.ok(inline.body.startsWith(`<tr id="user-${target.id}">`));
    assert.equal(fieldError(inline.body, `user-${target.id}`, 'role'), 'The selected role is invalid.');
    const stored = await t.services.users.get(target.id);
    assert.deepEqual([stored.role, stored.status], ['user', 'active']);
  });

  it('does not let admins demote or ban themselves (the service’s rule), and offers no form for their own row', async () => {
    const list = await admin.browser.get('/admin/users/?search=head');
    assert.equal(dom(row(list.body, `user-${admin.user.id}`)!).count('form'), 0);

    const response = await admin.browser.post(`/admin/users/${admin.user.id}/`, { role: 'user', status: 'banned' });
    assert.equal(response.status, 422);
    assert.match(dom(response).textContent, /You cannot change your own role\./);
    assert.match(dom(response).textContent, /You cannot ban or deactivate yourself\./);
    assert.equal((await t.services.users.get(admin.user.id)).role, 'admin');
  });

  it('pages through users', async () => {
    for (let i = 0; i < 3; i++) await createUser(t, { name: `Pager ${i}` });
    const second = await admin.browser.get('/admin/users/?search=pager&per_page=2&page=2');
    assert.match(dom(second).textContent, /Showing 3–3 of 3 users\./);
    assert.match(dom(second).textContent, /Pager 2/);
  });
});
