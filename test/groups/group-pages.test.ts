// The groups' pages (docs/access.md, "Groups"): /groups/ and
// /group/{slug}.{id}/ with plain forms (no JavaScript): joining each type,
// asking and withdrawing, leaving, a leader accepting, refusing and
// removing; hidden groups a 404 page to outsiders; the member's groups on
// their profile; CSRF on every form; addresses (slug, legacy); Russian.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GroupRow } from '../../src/groups/service.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { groupPath } from '../../src/urls/paths.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom, textOf } from '../helpers/dom.ts';
import { asAuthUser, loggedIn, mainText, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('group pages', (db) => {
  let t: TestApp;
  let adminRow: UserRow;
  let leader: Member;
  let member: Member;
  let counter = 0;

  before(async () => {
    t = await db.start();
    adminRow = await createUser(t, { role: 'admin', name: 'Page Admin' });
    leader = await loggedIn(t, { name: 'Page Leader' });
    member = await loggedIn(t, { name: 'Page Member' });
    for (const who of [leader, member]) await who.browser.get('/groups/');
  });
  after(() => t.close());

  const admin = () => asAuthUser(adminRow);
  const path = (group: GroupRow) => groupPath(group);
  /** A group led by `leader` with `member` in it. */
  const staffed = async (type: GroupRow['type'], name = `Crew ${++counter}`, description = ''): Promise<GroupRow> => {
    const group = await t.services.groups.create({ name, type, description });
    await t.services.groups.setMember(group.id, admin(), leader.user.id, 'leader');
    await t.services.groups.setMember(group.id, admin(), member.user.id, 'member');
    return group;
  };
  const membership = (group: GroupRow, user: UserRow) => t.services.groups.membershipOfUser(group.id, user.id);
  /** A fresh member's browser, logged in, holding the session's CSRF token (the login page had the guest one). */
  const newcomer = async (name = `Newcomer ${++counter}`): Promise<Member> => {
    const fresh = await loggedIn(t, { name });
    await fresh.browser.get('/groups/');
    return fresh;
  };

  describe('/groups/', () => {
    it('lists the groups a guest may see, by name, each with its type, members, leader and a way to log in to join', async () => {
      const open = await staffed('open', 'Alpha Openers', 'Anyone is welcome.\nSecond line.');
      const hidden = await staffed('hidden', 'Alpha Hidden');
      const page = await new Browser(t).get('/groups/');
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Groups');
      const row = dom(dom(page).one(`tr#group-${open.id}`));
      assert.deepEqual(row.links('th'), [{ href: path(open), text: 'Alpha Openers' }]);
      assert.equal(row.text('th .muted'), 'Anyone is welcome.');
      assert.deepEqual(
        row.all('td').map((cell) => textOf(cell)),
        ['Open', '2', 'Page Leader', 'Log in to join'],
      );
      assert.equal(row.attr('td:last-child a', 'href'), `/login/?next=${encodeURIComponent('/groups/')}`);
      assert.ok(!dom(page).has(`tr#group-${hidden.id}`), 'a hidden group is not listed to guests');
      assert.ok(!page.body.includes('Alpha Hidden'));
      // In the site's navigation.
      assert.equal(dom(page).linkText('/groups/'), 'Groups');
    });

    it('joins an open group from the list without JavaScript: a plain form with the CSRF token, back to the list with a notice', async () => {
      const open = await staffed('open');
      const joiner = await newcomer();
      const list = await joiner.browser.get('/groups/');
      const form = dom(list).one(`tr#group-${open.id} form`);
      assert.equal(form.getAttribute('method'), 'post');
      assert.equal(form.getAttribute('action'), `${path(open)}join/`);
      assert.deepEqual(dom(list).fields(`tr#group-${open.id} form`), { _csrf: joiner.browser.csrf!, back: '/groups/' });
      assert.equal(dom(form).text('button'), `Join “${open.name}”`);
      const joined = await joiner.browser.post(`${path(open)}join/`, { back: '/groups/' });
      assert.equal(joined.status, 303);
      assert.equal(joined.location, `/groups/?done=joined&group=${open.id}`);
      const after = await joiner.browser.get(joined.location!);
      assert.equal(dom(after).text('p.notice.ok'), `You joined “${open.name}”.`);
      assert.equal(dom(after).text(`tr#group-${open.id} td:last-child .badge`), 'Member');
      assert.equal((await membership(open, joiner.user))?.status, 'accepted');
      // A forged notice says nothing that did not happen.
      const forged = await joiner.browser.get(`/groups/?done=requested&group=${open.id}`);
      assert.ok(!dom(forged).has('p.notice'));
    });

    it('asks to join a closed group, shows the request as pending, and withdraws it', async () => {
      const closed = await staffed('closed');
      const asker = await newcomer();
      const asked = await asker.browser.post(`${path(closed)}join/`, { back: '/groups/' });
      assert.equal(asked.location, `/groups/?done=requested&group=${closed.id}`);
      const list = await asker.browser.get(asked.location!);
      assert.equal(dom(list).text('p.notice.ok'), `You asked to join “${closed.name}”. A leader of the group will accept or refuse the request.`);
      const cell = dom(dom(list).one(`tr#group-${closed.id} td:last-child`));
      assert.equal(cell.text('.badge'), 'Request pending');
      assert.equal(cell.attr('form', 'action'), `${path(closed)}leave/`);
      assert.equal((await membership(closed, asker.user))?.status, 'pending');
      const withdrawn = await asker.browser.post(`${path(closed)}leave/`, { back: '/groups/' });
      assert.equal(withdrawn.location, `/groups/?done=withdrawn&group=${closed.id}`);
      assert.equal(dom(await asker.browser.get(withdrawn.location!)).text('p.notice.ok'), `You withdrew your request to join “${closed.name}”.`);
      assert.equal(await membership(closed, asker.user), undefined);
    });

    it('pages the list (50 a page) and answers a page past the last with the 404 page', async () => {
      const fresh = await db.start();
      try {
        for (let i = 0; i < 51; i++) await fresh.services.groups.create({ name: `Group ${String(i).padStart(2, '0')}`, type: 'open' });
        const guest = new Browser(fresh);
        const first = await guest.get('/groups/');
        assert.equal(dom(first).count('tbody tr'), 50);
        assert.equal(dom(first).text('main p.muted'), '51 groups');
        const second = await guest.get('/groups/?page=2');
        assert.deepEqual(dom(second).texts('tbody th a'), ['Group 50']);
        assert.equal((await guest.get('/groups/?page=3')).status, 404);
        assert.equal((await guest.get('/groups/?page=x')).status, 404);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('/group/{slug}.{id}/', () => {
    it('shows the description, leader and members, and to a member their state with a Leave button', async () => {
      const group = await staffed('open', 'Night Owls', 'We post late.\n\nVery late.');
      const page = await member.browser.get(path(group));
      assert.equal(page.status, 200);
      assert.equal(dom(page).text('h1'), 'Night Owls');
      assert.deepEqual(dom(page).texts('.description p'), ['We post late.', 'Very late.']);
      assert.match(mainText(page.body), /Leader Page Leader Members 2/);
      assert.deepEqual(
        dom(page)
          .all('table.members tbody tr')
          .map((row) => dom(row).texts('td').slice(0, 2)),
        [
          ['Page Leader', 'Leader'],
          ['Page Member', 'Member'],
        ],
      );
      assert.equal(dom(page).text('p.actions .badge'), 'Member');
      assert.equal(dom(page).attr('p.actions form', 'action'), `${path(group)}leave/`);
      assert.ok(!dom(page).has('section.moderation'), 'no requests section for a plain member');
      assert.ok(!dom(page).has('table.members form'), 'no Remove buttons for a plain member');
    });

    it('lets a leader accept and refuse requests and remove a member, each with a notice; plain members get the 403 page', async () => {
      const group = await staffed('closed');
      const first = await newcomer();
      const second = await newcomer();
      for (const asker of [first, second]) await asker.browser.post(`${path(group)}join/`, {});
      const page = await leader.browser.get(path(group));
      assert.equal(dom(page).text('#requests-heading'), 'Requests to join');
      assert.deepEqual(dom(page).texts('table.requests tbody td:first-child'), [first.user.username, second.user.username]);
      assert.equal(dom(page).attr(`tr#request-${first.user.id} form`, 'action'), `${path(group)}accept/`);
      assert.deepEqual(dom(page).fields(`tr#request-${first.user.id} form`), { _csrf: leader.browser.csrf!, user_id: String(first.user.id) });

      const before = await snapshotTables(t);
      const refused = await member.browser.post(`${path(group)}accept/`, { user_id: String(first.user.id) });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).text('h1'), 'Forbidden');
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);

      const accepted = await leader.browser.post(`${path(group)}accept/`, { user_id: String(first.user.id) });
      assert.equal(accepted.status, 303);
      assert.equal(accepted.location, `${path(group)}?done=accepted&user=${first.user.id}#requests-heading`);
      assert.equal(dom(await leader.browser.get(accepted.location!)).text('p.notice.ok'), `${first.user.username} is a member now.`);
      assert.equal((await membership(group, first.user))?.status, 'accepted');

      const refusedRequest = await leader.browser.post(`${path(group)}refuse/`, { user_id: String(second.user.id) });
      assert.equal(dom(await leader.browser.get(refusedRequest.location!)).text('p.notice.ok'), `The request of ${second.user.username} was refused.`);
      assert.equal(await membership(group, second.user), undefined);

      const removed = await leader.browser.post(`${path(group)}remove/`, { user_id: String(first.user.id) });
      const after = await leader.browser.get(removed.location!);
      assert.equal(dom(after).text('p.notice.ok'), `${first.user.username} is no longer a member.`);
      assert.equal(await membership(group, first.user), undefined);
      // A leader sees no Remove button beside a leader, and may not remove one.
      assert.ok(!dom(dom(after).one(`tr#member-${leader.user.id}`)).has('form'));
      assert.equal((await leader.browser.post(`${path(group)}remove/`, { user_id: String(leader.user.id) })).status, 303, 'leaving is theirs');
    });

    it('lets a member leave from the group page, and sends a member who leaves a hidden group back to the list', async () => {
      const group = await staffed('open');
      const leaver = await newcomer();
      await t.services.groups.setMember(group.id, admin(), leaver.user.id, 'member');
      const left = await leaver.browser.post(`${path(group)}leave/`, {});
      assert.equal(left.location, `${path(group)}?done=left`);
      assert.equal(dom(await leaver.browser.get(left.location!)).text('p.notice.ok'), `You left “${group.name}”.`);

      const hidden = await staffed('hidden');
      const insider = await newcomer();
      await t.services.groups.setMember(hidden.id, admin(), insider.user.id, 'member');
      assert.equal((await insider.browser.get(path(hidden))).status, 200);
      const out = await insider.browser.post(`${path(hidden)}leave/`, {});
      assert.equal(out.location, `/groups/?done=left&group=${hidden.id}`);
      assert.equal(dom(await insider.browser.get(out.location!)).text('p.notice.ok'), 'You left the group.');
      assert.equal((await insider.browser.get(path(hidden))).status, 404, 'the next request knows');
    });

    it('answers a hidden group with the 404 page to guests, outsiders and requesters, and shows it to members and admins', async () => {
      const hidden = await staffed('hidden', 'Secret Circle');
      const outsider = await newcomer();
      for (const browser of [new Browser(t), outsider.browser]) {
        const page = await browser.get(path(hidden));
        assert.equal(page.status, 404);
        assert.equal(dom(page).text('h1'), 'Not found');
        assert.ok(!page.body.includes('Secret Circle'));
        assert.equal((await browser.get(`/groupcp.php?g=${hidden.id}`)).status, 404);
      }
      const before = await snapshotTables(t);
      assert.equal((await outsider.browser.post(`${path(hidden)}join/`, {})).status, 404);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      assert.equal((await member.browser.get(path(hidden))).status, 200);
      const adminBrowser = new Browser(t);
      await adminBrowser.logIn('Page Admin', TEST_PASSWORD);
      const seen = await adminBrowser.get(path(hidden));
      assert.equal(seen.status, 200);
      assert.equal(dom(seen).text('p.actions'), 'By invitation only');
    });

    it('sends guests to log in before a form does anything, and refuses a form without the CSRF token', async () => {
      const group = await staffed('open');
      // A guest holding a form token (any page with a form gives one) is sent to log in; nothing is joined.
      const guestBrowser = new Browser(t);
      await guestBrowser.get('/login/');
      const guest = await guestBrowser.post(`${path(group)}join/`, {});
      assert.equal(guest.status, 303);
      assert.match(guest.location ?? '', /^\/login\/\?next=/);
      const joiner = await newcomer();
      await joiner.browser.get(path(group));
      const before = await snapshotTables(t);
      const forged = await joiner.browser.post(`${path(group)}join/`, { _csrf: 'not-the-token' });
      assert.equal(forged.status, 403);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
      // A tampered member id is shown back (422), changing nothing.
      const bad = await leader.browser.post(`${path(group)}remove/`, { user_id: 'everyone' });
      assert.equal(bad.status, 422);
      assert.match(dom(bad).text('.notice.error'), /user id/);
      // A back address elsewhere is not followed.
      const away = await joiner.browser.post(`${path(group)}join/`, { back: 'https://evil.example/' });
      assert.equal(away.location, `${path(group)}?done=joined`);
    });

    it('answers a stale slug and TorrentPier’s groupcp.php with a 301 to the canonical address', async () => {
      const group = await staffed('open', 'Renamed Later');
      assert.equal((await new Browser(t).get(`/group/old-name.${group.id}/`)).location, path(group));
      assert.equal((await new Browser(t).get(`/group/renamed-later.${group.id}`)).location, path(group));
      assert.equal((await new Browser(t).get(`/groupcp.php?g=${group.id}`)).location, path(group));
      assert.equal((await new Browser(t).get('/groupcp.php')).location, '/groups/');
      assert.equal((await new Browser(t).get('/group/renamed-later.999999/')).status, 404);
    });
  });

  describe('profiles', () => {
    it('list the member’s groups the viewer may see, leaders marked', async () => {
      const open = await staffed('open', 'Visible Club');
      const hidden = await staffed('hidden', 'Invisible Club');
      const profile = `/profile/page-leader.${leader.user.id}/`;
      const asGuest = await new Browser(t).get(profile);
      const links = dom(asGuest).links('section[aria-labelledby="groups-heading"]');
      assert.ok(links.some((link) => link.href === path(open) && link.text === 'Visible Club'));
      assert.ok(!links.some((link) => link.text === 'Invisible Club'), 'a hidden group stays hidden');
      assert.match(dom(asGuest).text('section[aria-labelledby="groups-heading"]'), /Visible Club Leader/);
      const asMember = await member.browser.get(profile);
      assert.ok(
        dom(asMember)
          .links('section[aria-labelledby="groups-heading"]')
          .some((link) => link.href === path(hidden)),
      );
      // Nothing to list: no section.
      const loner = await createUser(t, { name: `Loner ${++counter}` });
      assert.ok(!dom(await new Browser(t).get(`/profile/loner-${counter}.${loner.id}/`)).has('#groups-heading'));
    });
  });

  it('speaks Russian to a Russian reader', async () => {
    const group = await staffed('closed', 'Русская группа');
    const reader = await newcomer();
    await t.services.users.update(reader.user.id, { locale: 'ru' });
    const list = await reader.browser.get('/groups/');
    assert.equal(dom(list).text('h1'), 'Группы');
    assert.equal(textOf(dom(list).all(`tr#group-${group.id} td`)[0]!), 'Закрытая');
    assert.equal(dom(list).text(`tr#group-${group.id} button`), 'Подать заявку «Русская группа»');
    const asked = await reader.browser.post(`${path(group)}join/`, {});
    const page = await reader.browser.get(asked.location!);
    assert.equal(dom(page).text('p.notice.ok'), 'Вы подали заявку в группу «Русская группа». Руководитель группы примет или отклонит её.');
    assert.equal(dom(page).text('p.actions .badge'), 'Заявка на рассмотрении');
    assert.equal(dom(page).text('#members-heading'), 'Участники');
  });
});
