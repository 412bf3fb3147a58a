import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { asAuthUser, createForum, createTopic, loggedIn, mainText, type Member } from '../helpers/forum.ts';
import { makeTorrent } from '../helpers/torrents.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('tracker admin pages', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let admin: Member;
  let moderator: Member;
  let member: Member;

  before(async () => {
    t = await db.start();
    forum = await createForum(t, 'Admin releases');
    admin = await loggedIn(t, { role: 'admin' });
    moderator = await loggedIn(t, { role: 'moderator' });
    member = await loggedIn(t);
  });
  after(() => t.close());

  async function torrent(name: string) {
    const topic = await createTopic(t, member.user, forum, `Topic of ${name}`);
    return t.services.tracker.torrents.upload(asAuthUser(member.user), topic.id, makeTorrent({ name }), 'http://forum.test');
  }

  it('/admin/torrents/ lists torrents for moderators, who set status and freeleech there', async () => {
    const row = await torrent('Admin Listed One');
    const page = await moderator.browser.get('/admin/torrents/?search=listed');
    assert.equal(page.status, 200);
    assert.match(mainText(page.body), /Admin Listed One/);
    const response = await moderator.browser.post(`/tracker/torrents/${row.id}/moderate/`, {
      status: 'checked',
      freeleech: 'gold',
      return_to: '/admin/torrents/?search=listed',
    });
    assert.equal(response.status, 303);
    assert.equal(response.location, '/admin/torrents/?search=listed');
    const updated = await t.services.tracker.torrents.get(row.id, null);
    assert.deepEqual([updated.status, updated.freeleech], ['checked', 'gold']);
    const filtered = await moderator.browser.get('/admin/torrents/?status=checked');
    assert.match(mainText(filtered.body), /Admin Listed One/);
  });

  it('/admin/torrents/ is closed to members (403)', async () => {
    assert.equal((await member.browser.get('/admin/torrents/')).status, 403);
  });

  it("an admin revokes a user's passkey from the user's page; it stops working at once", async () => {
    const passkey = await t.services.tracker.passkeys.forUser(member.user.id);
    assert.equal(await t.services.tracker.passkeys.lookup(passkey), member.user.id);
    const page = await admin.browser.get(`/admin/users/${member.user.id}/`);
    assert.ok(dom(page).has(`form[method="post"][action="/admin/users/${member.user.id}/passkey/revoke/"]`));

    const response = await admin.browser.post(`/admin/users/${member.user.id}/passkey/revoke/`, {});
    assert.equal(response.status, 303);
    assert.equal(await t.services.tracker.passkeys.lookup(passkey), null);
    assert.equal(await t.services.tracker.passkeys.current(member.user.id), null);
    assert.match(mainText((await admin.browser.get(response.location!)).body), /passkey of .* is revoked/);
  });

  it('moderators may not revoke passkeys (403)', async () => {
    await t.services.tracker.passkeys.forUser(member.user.id);
    await moderator.browser.get('/admin/torrents/');
    assert.equal((await moderator.browser.post(`/admin/users/${member.user.id}/passkey/revoke/`, {})).status, 403);
    assert.notEqual(await t.services.tracker.passkeys.current(member.user.id), null);
  });
});
