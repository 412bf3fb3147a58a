// /admin/groups/ (docs/access.md, "Groups"): list, create, edit, delete
// after asking; members added by name, leaders appointed and demoted,
// requests accepted and refused, members removed; refusals showing the
// API's messages and changing nothing; admins only, CSRF on every form;
// English and Russian; no JavaScript needed.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { GroupRow } from '../../src/groups/service.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { asAuthUser } from '../helpers/forum.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { fieldError, notice, row, signedInBrowser, type SignedInBrowser } from '../admin/helpers.ts';

describeEachDatabase('admin group pages', (db) => {
  let t: TestApp;
  let admin: SignedInBrowser;
  let counter = 0;

  before(async () => {
    t = await db.start();
    admin = await signedInBrowser(t, 'admin', 'Groups Admin');
  });
  after(() => t.close());

  const reader = () => asAuthUser(admin.user);
  const newGroup = (type: GroupRow['type'] = 'closed', name = `Admin group ${++counter}`) => t.services.groups.create({ name, type });
  const named = async (name: string) =>
    (await t.services.groups.list(reader(), { page: 1, perPage: 100, offset: 0 })).rows.find((group) => group.name === name);
  const membership = (group: GroupRow, userId: number) => t.services.groups.membershipOfUser(group.id, userId);

  it('lists every group (hidden ones too) with members, requests and leader, and is in the admin navigation', async () => {
    const hidden = await newGroup('hidden', 'Admin Hidden');
    const leader = await createUser(t, { name: 'Admin Listed Leader' });
    await t.services.groups.setMember(hidden.id, reader(), leader.id, 'leader');
    const closed = await newGroup('closed', 'Admin Closed');
    const asker = await createUser(t, { name: 'Admin Asker' });
    await t.services.groups.join(closed.id, asAuthUser(asker));
    const page = await admin.browser.get('/admin/groups/');
    assert.equal(page.status, 200);
    assert.equal(dom(page).text('h1'), 'Groups');
    const hiddenRow = dom(row(page.body, `group-${hidden.id}`)!);
    assert.deepEqual(hiddenRow.texts('td').slice(0, 4), ['Hidden', '1', '0', 'Admin Listed Leader']);
    assert.deepEqual(
      dom(row(page.body, `group-${closed.id}`)!)
        .texts('td')
        .slice(0, 4),
      ['Closed', '0', '1', 'No leader'],
    );
    assert.equal(dom(page).linkText('/admin/groups/'), 'Groups');
    for (const form of dom(page).all('main form[method="post"]')) assert.equal(dom(form).attr('input[name="_csrf"]', 'value'), admin.browser.csrf);
    assert.ok(
      dom(await admin.browser.get('/admin/'))
        .links()
        .some((link) => link.href === '/admin/groups/'),
    );
  });

  it('creates a group and opens its page; a wrong form shows the API’s messages and creates nothing (422)', async () => {
    await newGroup('open', 'Existing Name');
    const before = await snapshotTables(t);
    const refused = await admin.browser.post('/admin/groups/', { name: '  ', type: 'public', description: 'x'.repeat(2001) });
    assert.equal(refused.status, 422);
    assert.equal(fieldError(refused.body, 'new-group', 'name'), 'The name field is required.');
    assert.equal(fieldError(refused.body, 'new-group', 'type'), 'The selected type is invalid.');
    assert.equal(fieldError(refused.body, 'new-group', 'description'), 'The description field must not be greater than 2000 characters.');
    const taken = await admin.browser.post('/admin/groups/', { name: 'EXISTING name', type: 'open', description: '' });
    assert.equal(taken.status, 422);
    assert.equal(fieldError(taken.body, 'new-group', 'name'), 'The name has already been taken.');
    assert.equal(dom(taken).attr('#new-group-name', 'value'), 'EXISTING name', 'what was typed is kept');
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);

    const created = await admin.browser.post('/admin/groups/', { name: 'Translators', type: 'open', description: 'We translate.' });
    assert.equal(created.status, 303);
    const group = (await named('Translators'))!;
    assert.deepEqual([group.type, group.description], ['open', 'We translate.']);
    assert.equal(created.location, `/admin/groups/${group.id}/`);
    const page = await admin.browser.get(created.location!);
    assert.deepEqual(notice(page.body), { kind: 'ok', text: 'Group “Translators” created. Add its members and leaders below.' });
    assert.equal(dom(page).attr('#group-name', 'value'), 'Translators');
    assert.equal(dom(page).attr('#group-type option[selected]', 'value'), 'open');
  });

  it('renames, describes and retypes a group; another group’s name is refused on the form (422)', async () => {
    const group = await newGroup('open');
    const other = await newGroup('open', 'Other Admin Group');
    const saved = await admin.browser.post(`/admin/groups/${group.id}/`, { name: 'Retyped', type: 'hidden', description: 'Now hidden.' });
    assert.equal(saved.status, 303);
    const stored = (await t.services.groups.find(group.id, reader()))!;
    assert.deepEqual([stored.name, stored.type, stored.description], ['Retyped', 'hidden', 'Now hidden.']);
    assert.deepEqual(notice((await admin.browser.get(saved.location!)).body), { kind: 'ok', text: 'Group “Retyped” saved.' });
    const refused = await admin.browser.post(`/admin/groups/${group.id}/`, { name: other.name.toLowerCase(), type: 'open', description: '' });
    assert.equal(refused.status, 422);
    assert.equal(fieldError(refused.body, 'group', 'name'), 'The name has already been taken.');
    assert.equal((await admin.browser.post('/admin/groups/999999/', { name: 'Nobody', type: 'open' })).status, 404);
  });

  it('adds members by name, appoints and demotes leaders, accepts and refuses requests, removes members', async () => {
    const group = await newGroup('closed');
    const base = `/admin/groups/${group.id}/`;
    const ann = await createUser(t, { name: 'Ann Added' });
    const unknown = await admin.browser.post(`${base}members/`, { name: 'Nobody Here', role: 'member' });
    assert.equal(unknown.status, 422);
    assert.equal(fieldError(unknown.body, 'add-member', 'name'), 'There is no member called “Nobody Here”.');
    const badRole = await admin.browser.post(`${base}members/`, { name: 'Ann Added', role: 'king' });
    assert.equal(fieldError(badRole.body, 'add-member', 'role'), 'The selected role is invalid.');

    const added = await admin.browser.post(`${base}members/`, { name: 'ann added', role: 'leader' });
    assert.equal(added.status, 303);
    assert.deepEqual(notice((await admin.browser.get(base)).body), { kind: 'ok', text: `Ann Added is a leader of “${group.name}”.` });
    assert.equal((await membership(group, ann.id))?.role, 'leader');

    const demoted = await admin.browser.post(`${base}members/${ann.id}/`, { role: 'member' });
    assert.equal(demoted.status, 303);
    assert.equal((await membership(group, ann.id))?.role, 'member');
    const page = await admin.browser.get(base);
    assert.equal(dom(page).text(`tr#member-${ann.id} td:nth-child(2)`), 'Member');
    assert.equal(dom(page).attr(`tr#member-${ann.id} form input[name="role"]`, 'value'), 'leader', 'offers to make them leader again');

    const asker = await createUser(t, { name: 'Bob Asker' });
    const refusedAsker = await createUser(t, { name: 'Cid Asker' });
    await t.services.groups.join(group.id, asAuthUser(asker));
    await t.services.groups.join(group.id, asAuthUser(refusedAsker));
    const withRequests = await admin.browser.get(base);
    assert.deepEqual(dom(withRequests).texts('tr[id^="request-"] th'), ['Bob Asker', 'Cid Asker']);
    assert.equal((await admin.browser.post(`${base}members/${asker.id}/`, { role: 'member' })).status, 303);
    assert.equal((await membership(group, asker.id))?.status, 'accepted');
    assert.equal((await admin.browser.post(`${base}members/${refusedAsker.id}/delete/`, {})).status, 303);
    assert.deepEqual(notice((await admin.browser.get(base)).body), { kind: 'ok', text: `The request of Cid Asker to join “${group.name}” was refused.` });
    assert.equal(await membership(group, refusedAsker.id), undefined);

    assert.equal((await admin.browser.post(`${base}members/${ann.id}/delete/`, {})).status, 303);
    assert.deepEqual(notice((await admin.browser.get(base)).body), { kind: 'ok', text: `Ann Added is no longer a member of “${group.name}”.` });
    assert.equal((await admin.browser.post(`${base}members/${ann.id}/delete/`, {})).status, 404, 'not a member any more');
    assert.equal((await admin.browser.post(`${base}members/999999/`, { role: 'member' })).status, 404);
  });

  it('deletes a group after asking, with its memberships', async () => {
    const group = await newGroup('open', 'Short-lived Group');
    const someone = await createUser(t, { name: 'Short-lived Member' });
    await t.services.groups.join(group.id, asAuthUser(someone));
    const asked = await admin.browser.post(`/admin/groups/${group.id}/delete/`, {});
    assert.equal(asked.status, 200);
    assert.equal(dom(asked).text('main p'), 'Delete the group “Short-lived Group”? Its memberships, requests and the forum rights granted to it go with it.');
    assert.ok(await named('Short-lived Group'), 'asking deletes nothing');
    const done = await admin.browser.post(`/admin/groups/${group.id}/delete/`, { confirmed: '1' });
    assert.equal(done.status, 303);
    assert.equal(done.location, '/admin/groups/');
    assert.equal(await named('Short-lived Group'), undefined);
    assert.equal(await membership(group, someone.id), undefined);
    assert.deepEqual(notice((await admin.browser.get('/admin/groups/')).body), { kind: 'ok', text: 'Group “Short-lived Group” deleted.' });
  });

  it('is for admins only, and every form needs the session’s CSRF token', async () => {
    const group = await newGroup('closed');
    const moderator = await signedInBrowser(t, 'moderator');
    assert.equal((await moderator.browser.get('/admin/groups/')).status, 403);
    assert.equal((await moderator.browser.get(`/admin/groups/${group.id}/`)).status, 403);
    assert.equal((await moderator.browser.post('/admin/groups/', { name: 'Sneaky', type: 'open' })).status, 403);
    assert.equal((await new Browser(t).get('/admin/groups/')).status, 303, 'a guest is sent to the login');
    const someone = await createUser(t, { name: `Forged target ${++counter}` });
    const before = await snapshotTables(t);
    for (const [url, form] of [
      ['/admin/groups/', { name: 'Forged', type: 'open' }],
      [`/admin/groups/${group.id}/`, { name: 'Forged', type: 'open' }],
      [`/admin/groups/${group.id}/members/`, { name: someone.username, role: 'leader' }],
      [`/admin/groups/${group.id}/members/${someone.id}/`, { role: 'leader' }],
      [`/admin/groups/${group.id}/delete/`, { confirmed: '1' }],
    ] as const) {
      const forged = await admin.browser.post(url, { ...form, _csrf: 'not-the-token-of-this-session' });
      assert.equal(forged.status, 403, url);
    }
    assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
  });

  it('speaks Russian to a Russian reader', async () => {
    const russian = await signedInBrowser(t, 'admin');
    await t.services.users.update(russian.user.id, { locale: 'ru' });
    const page = await russian.browser.get('/admin/groups/');
    assert.equal(dom(page).text('h1'), 'Группы');
    assert.equal(dom(page).text('#new-group-title'), 'Новая группа');
    const refused = await russian.browser.post('/admin/groups/', { name: '', type: 'open' });
    assert.equal(refused.status, 422);
    assert.match(fieldError(refused.body, 'new-group', 'name') ?? '', /обязательно/);
    const group = await newGroup('hidden', 'Скрытые');
    const edit = await russian.browser.get(`/admin/groups/${group.id}/`);
    assert.equal(dom(edit).text('h1'), 'Группа «Скрытые»');
    assert.equal(dom(edit).text('#add-member-title'), 'Добавить участника');
  });
});
