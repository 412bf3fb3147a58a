// Banning members (docs/moderation.md): who may ban whom, a ban's effect on
// the member's logins, new logins (its reason and end in the refusal) and
// passkey, its end lifting it at the next login, the moderation log, and the
// profile page's ban panel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser, signIn, type SignedIn } from '../helpers/auth.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { loggedIn, type Member } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { announceUrl, field, peerId, registerTorrent, textOf, trackerGet, trackerUser } from '../helpers/tracker.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase('bans', (db) => {
  let t: TestApp;
  let clock: TestClock;
  let moderator: SignedIn;
  let admin: SignedIn;

  before(async () => {
    clock = new TestClock('2026-11-20T12:00:00.000Z');
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    moderator = await signIn(t, 'moderator', 'Ban Moderator');
    admin = await signIn(t, 'admin', 'Ban Admin');
  });
  after(() => t.close());

  const ban = (as: SignedIn, userId: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/users/${userId}/ban`, headers: as.headers, payload });
  const login = (username: string) => t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password: TEST_PASSWORD } });

  describe('the API', () => {
    it('ends every login of the member, refuses new ones with the reason and the end, and is logged', async () => {
      const member = await signIn(t, 'user', 'Banned Bert');
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/messages', headers: member.headers })).statusCode, 200);
      const response = await ban(moderator, member.user.id, { reason: 'Spam in every forum', until: '2026-12-01' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().data, { user_id: member.user.id, status: 'banned', reason: 'Spam in every forum', until: '2026-12-01T00:00:00Z' });
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/messages', headers: member.headers })).statusCode, 401, 'the token stopped working');
      const refused = await login('Banned Bert');
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.message, 'This account has been banned until 1 Dec 2026: Spam in every forum.');

      const entry = (await t.app.inject({ method: 'GET', url: '/api/moderation-log?action=ban', headers: admin.headers })).json().data[0];
      assert.equal(entry.member.id, member.user.id);
      assert.equal(entry.moderator.id, moderator.user.id);
      assert.equal(entry.subject, 'Banned Bert: Spam in every forum');

      const lifted = await t.app.inject({ method: 'POST', url: `/api/users/${member.user.id}/unban`, headers: moderator.headers });
      assert.deepEqual(lifted.json().data, { user_id: member.user.id, status: 'active', reason: null, until: null });
      assert.equal((await login('Banned Bert')).statusCode, 200);
    });

    it('lifts a ban at the first login after its end', async () => {
      const member = await signIn(t, 'user', 'Timed Tina');
      await ban(moderator, member.user.id, { reason: 'Cool down', until: '2026-11-22' });
      assert.equal((await login('Timed Tina')).statusCode, 403);
      clock.advance(2 * DAY_MS);
      assert.equal((await login('Timed Tina')).statusCode, 200);
      const row = await t.services.users.get(member.user.id);
      assert.deepEqual([row.status, row.ban_reason, row.banned_until], ['active', null, null]);
      clock.set('2026-11-20T12:00:00.000Z');
    });

    it('refuses the passkey of a banned member, and not once the ban has ended', async () => {
      const seeder = await trackerUser(t);
      const torrent = await registerTorrent(t);
      const announce = () => trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0 }));
      await ban(moderator, seeder.user.id, { reason: 'Cheating' });
      t.services.tracker.directory.invalidateUsers();
      assert.equal(textOf(field((await announce()).body, 'failure reason')), 'Your account is banned.');
      await t.database.db.updateTable('users').set({ banned_until: '2020-01-01T00:00:00.000Z' }).where('id', '=', seeder.user.id).execute();
      t.services.tracker.directory.invalidateUsers();
      assert.equal(field((await announce()).body, 'failure reason'), undefined);
      // The announce is accounted in the background; written now, not in the middle of the next test's look at every table.
      await t.services.tracker.accounting.flush();
    });

    it('lets moderators ban members, admins also moderators; never admins, oneself, or without the right (nothing changes)', async () => {
      const member = await createUser(t, { name: 'Plain Paul' });
      const otherModerator = await createUser(t, { name: 'Other Mod', role: 'moderator' });
      const state = await snapshotTables(t);
      const plain = await signIn(t, 'user', 'Plain Petra');
      const cases: Array<[SignedIn | null, number, number]> = [
        [plain, member.id, 403],
        [null, member.id, 401],
        [moderator, otherModerator.id, 403],
        [moderator, admin.user.id, 403],
        [moderator, moderator.user.id, 403],
        [admin, admin.user.id, 403],
        [moderator, 999_999, 404],
      ];
      for (const [as, userId, status] of cases) {
        const response =
          as === null
            ? await t.app.inject({ method: 'POST', url: `/api/users/${userId}/ban`, payload: { reason: 'x' } })
            : await ban(as, userId, { reason: 'Because' });
        assert.equal(response.statusCode, status, `${as?.user.name ?? 'guest'} → ${userId}`);
      }
      assert.equal((await ban(moderator, member.id, { reason: ' ' })).statusCode, 422);
      const past = await ban(moderator, member.id, { reason: 'Late', until: '2026-11-20' });
      assert.equal(past.statusCode, 422);
      assert.deepEqual(past.json().errors, { until: ['The end of the ban must be a day after today.'] });
      assert.equal((await ban(moderator, member.id, { reason: 'Bad date', until: '20261201' })).statusCode, 422);
      const after = await snapshotTables(t);
      const changed = snapshotDifferences(state, after).filter((line) => !/^(users|api_tokens)\b/.test(line));
      assert.deepEqual(changed, [], 'only the new caller accounts were written');
      assert.equal((await t.services.users.get(member.id)).status, 'active');
      assert.equal((await ban(admin, otherModerator.id, { reason: 'Admins may' })).statusCode, 200);
    });
  });

  describe('the profile page', () => {
    let mod: Member;

    before(async () => {
      mod = await loggedIn(t, { name: 'Panel Moderator', role: 'moderator' });
    });

    it('offers moderators the ban panel, bans with it and lifts the ban; members see only the notice', async () => {
      const target = await loggedIn(t, { name: 'Panel Target' });
      const path = `/profile/panel-target.${target.user.id}/`;
      assert.equal(dom(await target.browser.get(path)).count('form[action$="/ban/"]'), 0);
      const page = await mod.browser.get(path);
      assert.ok(dom(page).has(`form[action="${path}ban/"] input[name="until"][type="date"]`));

      const banned = await mod.browser.post(`${path}ban/`, { reason: 'Rude replies', until: '' });
      assert.equal(banned.status, 303);
      assert.equal(banned.location, `${path}?ban=saved`);
      const shown = await mod.browser.get(banned.location!);
      assert.match(dom(shown).textContent, /Panel Target is banned\./);
      assert.match(dom(shown).textContent, /Reason: Rude replies\. Until lifted\./);
      assert.equal((await target.browser.get('/settings/')).status, 303, 'the member was logged out');
      const visitor = await loggedIn(t, { name: 'Panel Visitor' });
      const seen = dom(await visitor.browser.get(path)).textContent;
      assert.match(seen, /This account has been banned\./);
      assert.doesNotMatch(seen, /Rude replies/, 'the reason is for moderators and the member');

      const lifted = await mod.browser.post(`${path}unban/`, {});
      assert.equal(lifted.location, `${path}?ban=lifted`);
      assert.equal((await t.services.users.get(target.user.id)).status, 'active');

      // A ban with an end names its day as the reader writes dates, not as stored.
      await mod.browser.post(`${path}ban/`, { reason: 'Cool off', until: '2030-03-05' });
      assert.match(dom(await mod.browser.get(path)).textContent, /Ends on 5 Mar 2030\./);
      await t.database.db.updateTable('users').set({ locale: 'ru' }).where('id', '=', visitor.user.id).execute();
      assert.match(dom(await visitor.browser.get(path)).textContent, /заблокирована до 5 мар\. 2030 г\./);
      await mod.browser.post(`${path}unban/`, {});
    });

    it('shows a refused ban again (422), and refuses members and a missing CSRF token (403) without a change', async () => {
      const target = await createUser(t, { name: 'Form Target' });
      const path = `/profile/form-target.${target.id}/`;
      await mod.browser.get(path);
      const refused = await mod.browser.post(`${path}ban/`, { reason: '', until: 'soon' });
      assert.equal(refused.status, 422);
      assert.equal(dom(refused).one('details.moderation').hasAttribute('open'), true);
      const member = await loggedIn(t, { name: 'Form Member' });
      await member.browser.get(path);
      const state = await snapshotTables(t);
      assert.equal((await member.browser.post(`${path}ban/`, { reason: 'I want to' })).status, 403);
      assert.equal((await mod.browser.post(`${path}ban/`, { reason: 'No token', _csrf: '' })).status, 403);
      assert.deepEqual(snapshotDifferences(state, await snapshotTables(t)), []);
    });
  });
});
