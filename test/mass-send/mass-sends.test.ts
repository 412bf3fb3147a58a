// Mass sends through the API (docs/mass-mail.md): a private message to one
// group's members and to no one else, a mail to every member who takes it
// with a link that unsubscribes without logging in (GET asks, POST does),
// the next mail skipping who unsubscribed, the member's own setting, and
// every refusal changing no row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { linkIn, loggedInWithToken, mailsTo, type MemberWithToken } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

interface SendJson {
  id: number;
  kind: 'message' | 'mail';
  audience: { kind: string; group_id: number | null; group_name: string | null; role: string | null };
  subject: string;
  body: string;
  sender: { id: number | null; name: string; url: string | null };
  recipients: number;
  sent: number;
  status: 'sending' | 'done';
  created_at: string;
  finished_at: string | null;
  url: string;
}

describeEachDatabase('mass sends', (db) => {
  let t: TestApp;
  let admin: MemberWithToken;
  let member: MemberWithToken;
  let groupId: number;
  /** In the group: two active members, one banned, one not activated, one whose ban has ended; outside it: one active member. */
  let inGroup: UserRow[];
  let banned: UserRow;
  let inactive: UserRow;
  let banOver: UserRow;
  let outsider: UserRow;

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, who: MemberWithToken | null, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
  /** Sends and waits for the background sending to finish; the send as the API then shows it. */
  const send = async (body: object): Promise<SendJson> => {
    const made = await api('POST', '/api/mass-sends', admin, body);
    assert.equal(made.statusCode, 202, made.body);
    const created = made.json<{ data: SendJson }>().data;
    assert.equal(made.headers['location'], `/api/mass-sends/${created.id}`);
    await t.services.massSender.settled();
    const shown = await api('GET', `/api/mass-sends/${created.id}`, admin);
    assert.equal(shown.statusCode, 200, shown.body);
    return shown.json<{ data: SendJson }>().data;
  };
  const messagesOf = (sendId: number) =>
    t.database.db
      .selectFrom('private_messages')
      .select(['recipient_id', 'sender_id', 'subject'])
      .where('mass_send_id', '=', sendId)
      .orderBy('recipient_id')
      .execute();

  before(async () => {
    t = await db.start();
    admin = await loggedInWithToken(t, { name: 'Mass Admin', role: 'admin' });
    member = await loggedInWithToken(t, { name: 'Mass Member' });
    const group = await t.services.groups.create({ name: 'Seeders', type: 'closed' });
    groupId = group.id;
    const reader = { id: admin.user.id, role: admin.user.role };
    inGroup = [await createUser(t, { name: 'Seeder One' }), await createUser(t, { name: 'Seeder Two' })];
    banned = await createUser(t, { name: 'Seeder Banned' });
    inactive = await createUser(t, { name: 'Seeder Inactive', status: 'pending' });
    banOver = await createUser(t, { name: 'Seeder Ban Over' });
    outsider = await createUser(t, { name: 'Not A Seeder' });
    for (const user of [...inGroup, banned, inactive, banOver]) await t.services.groups.setMember(groupId, reader, user.id, 'member');
    await t.services.users.update(banned.id, { status: 'banned' });
    // A ban whose end has passed counts as over, as at login.
    await t.database.db.updateTable('users').set({ status: 'banned', banned_until: '2020-01-01T00:00:00.000Z' }).where('id', '=', banOver.id).execute();
    // The outsider asked to join; a request is not a membership.
    await t.database.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: outsider.id, role: 'member', status: 'pending', created_at: '2026-01-01T00:00:00.000Z' })
      .execute();
  });
  after(() => t.close());

  describe('a private message', () => {
    it('reaches every member of the group, once, and no one else: not the banned, the inactive or those who only asked to join', async () => {
      const unreadBefore = await t.database.db.selectFrom('users').select(['id', 'unread_messages']).execute();
      const sent = await send({
        kind: 'message',
        audience: { kind: 'group', group_id: groupId },
        subject: 'Seeding rules',
        body: 'Please [b]seed[/b] for a week.',
      });
      const expected = [...inGroup, banOver].map((user) => user.id).sort((a, b) => a - b);
      assert.equal(sent.status, 'done');
      assert.equal(sent.recipients, expected.length);
      assert.equal(sent.sent, expected.length);
      assert.deepEqual(sent.audience, { kind: 'group', group_id: groupId, group_name: 'Seeders', role: null });
      assert.deepEqual(sent.sender, { id: admin.user.id, name: 'Mass Admin', url: `/profile/mass-admin.${admin.user.id}/` });
      assert.notEqual(sent.finished_at, null);
      const messages = await messagesOf(sent.id);
      assert.deepEqual(
        messages.map((message) => message.recipient_id),
        expected,
      );
      assert.ok(messages.every((message) => message.sender_id === admin.user.id && message.subject === 'Seeding rules'));
      const unreadAfter = new Map(
        (await t.database.db.selectFrom('users').select(['id', 'unread_messages']).execute()).map((row) => [row.id, row.unread_messages]),
      );
      for (const row of unreadBefore)
        assert.equal(unreadAfter.get(row.id), row.unread_messages + (expected.includes(row.id) ? 1 : 0), `unread count of user ${row.id}`);
      // No mail about it, not even to members who asked for one about each new message.
      assert.deepEqual(await mailsTo(t, inGroup[0]!.email), []);
    });

    it("is in each member's inbox, not in the administrator's Sent folder, and reaches every role's members", async () => {
      const token = (await t.services.auth.issueToken(inGroup[0]!)).token;
      const inbox = await t.app.inject({ method: 'GET', url: '/api/messages', headers: { authorization: `Bearer ${token}` } });
      assert.ok(
        inbox
          .json<{ data: Array<{ subject: string; sender: { name: string } }> }>()
          .data.some((message) => message.subject === 'Seeding rules' && message.sender.name === 'Mass Admin'),
      );
      const sentFolder = await api('GET', '/api/messages?folder=sent', admin);
      assert.equal(sentFolder.json<{ meta: { total: number } }>().meta.total, 0);

      const admins = await send({ kind: 'message', audience: { kind: 'role', role: 'admin' }, subject: 'Admins only', body: 'Hello, admins.' });
      assert.equal(admins.recipients, 0, 'the only admin is the sender, who does not write to themselves');
      assert.equal(admins.status, 'done');
      const users = await send({ kind: 'message', audience: { kind: 'role', role: 'user' }, subject: 'All users', body: 'Hello.' });
      const activeUsers = [member.user, ...inGroup, banOver, outsider].map((user) => user.id).sort((a, b) => a - b);
      assert.deepEqual(
        (await messagesOf(users.id)).map((message) => message.recipient_id),
        activeUsers,
      );
    });
  });

  describe('a mail', () => {
    it('puts one mail per member who takes mass mail into the outbox, with an unsubscribe link and the List-Unsubscribe headers', async () => {
      const sent = await send({
        kind: 'mail',
        audience: { kind: 'all' },
        subject: 'Forum news',
        body: 'We moved to [url=https://example.org/new]a new server[/url].',
      });
      const everyone = [admin.user, member.user, ...inGroup, banOver, outsider];
      assert.equal(sent.recipients, everyone.length, 'the sender gets the mail too');
      assert.equal(sent.sent, everyone.length);
      for (const user of everyone) {
        const mails = (await mailsTo(t, user.email)).filter((mail) => mail.subject === 'Forum news');
        assert.equal(mails.length, 1, user.username);
        assert.match(mails[0]!.body, /^We moved to a new server \(https:\/\/example\.org\/new\)\./);
        assert.match(linkIn(mails[0]!, '/unsubscribe/'), /^\/unsubscribe\/[\w-]{32}\/$/);
      }
      for (const user of [banned, inactive]) assert.deepEqual(await mailsTo(t, user.email), [], user.username);
      const stored = await t.database.db.selectFrom('outbox').select(['body', 'headers']).where('to_address', '=', outsider.email).executeTakeFirstOrThrow();
      const headers = JSON.parse(stored.headers ?? 'null') as Record<string, string>;
      const link = /https?:\/\/\S+\/unsubscribe\/[\w-]{32}\//.exec(stored.body)![0];
      assert.deepEqual(headers, { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    });

    it('unsubscribes with the link: opening it changes nothing, posting to it does, without a login or a redirect', async () => {
      const mail = (await mailsTo(t, outsider.email)).find((found) => found.subject === 'Forum news')!;
      const path = linkIn(mail, '/unsubscribe/');
      const guest = new Browser(t);
      const before = await snapshotTables(t);
      const asked = await guest.get(path);
      assert.equal(asked.status, 200);
      assert.match(asked.headers['cache-control'] as string, /no-store/);
      assert.ok(dom(asked).has('meta[name="robots"][content="noindex"]'));
      assert.match(dom(asked).text('main'), /Stop the mail that the administrators of .+ send to all members, for the account Not A Seeder\?/);
      assert.equal(dom(asked).attr('main form', 'action'), path);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), [], 'opening the link changes nothing');

      // A mail program's one-click button: a POST without cookies or token.
      const clicked = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(clicked.statusCode, 200, clicked.body);
      assert.equal(clicked.headers['location'], undefined);
      assert.match(dom(clicked.body).text('main'), /Not A Seeder gets no more mail sent to all members/);
      const row = await t.database.db.selectFrom('users').select('mass_mails').where('id', '=', outsider.id).executeTakeFirstOrThrow();
      assert.equal(Boolean(row.mass_mails), false);
      assert.match(dom((await guest.get(path)).body).text('main'), /already gets no mail/);

      // Some mail programs post the same as multipart/form-data: the body is not read, so that works too.
      const boundary = 'x-boundary';
      const multipart = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      });
      assert.equal(multipart.statusCode, 200, multipart.body);
    });

    it('skips who unsubscribed in the next mail, but still gives them a private message', async () => {
      const next = await send({ kind: 'mail', audience: { kind: 'role', role: 'user' }, subject: 'More news', body: 'Another one.' });
      assert.equal(next.recipients, 4, 'Mass Member, the two seeders and the member whose ban is over');
      assert.deepEqual(
        (await mailsTo(t, outsider.email)).map((mail) => mail.subject),
        ['Forum news'],
      );
      for (const user of [member.user, ...inGroup, banOver])
        assert.equal((await mailsTo(t, user.email)).filter((mail) => mail.subject === 'More news').length, 1);
      const message = await send({ kind: 'message', audience: { kind: 'all' }, subject: 'A message to all', body: 'Hi.' });
      assert.ok((await messagesOf(message.id)).some((found) => found.recipient_id === outsider.id));
    });

    it('answers an unknown or malformed link with the 404 page, changing nothing', async () => {
      const before = await snapshotTables(t);
      for (const path of ['/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/', '/unsubscribe/short/', `/unsubscribe/${'%00'.repeat(3)}/`]) {
        assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 404, path);
        assert.equal((await t.app.inject({ method: 'POST', url: path })).statusCode, 404, path);
      }
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });
  });

  describe("the member's own choice", () => {
    it('is a setting on /settings/ and in the API, on unless turned off', async () => {
      const settings = dom(await member.browser.get('/settings/'));
      assert.equal(settings.attr('#mass_mails', 'checked'), '', 'on by default');
      const saved = await member.browser.post('/settings/mass-mail/', {});
      assert.equal(saved.status, 303);
      assert.equal(saved.location, '/settings/?saved=mass-mail');
      assert.equal(dom(await member.browser.get('/settings/')).attr('#mass_mails', 'checked'), undefined);
      const read = await api('GET', '/api/mass-mail/subscription', member);
      assert.deepEqual(read.json(), { data: { subscribed: false } });
      const turned = await api('PUT', '/api/mass-mail/subscription', member, { subscribed: true });
      assert.deepEqual(turned.json(), { data: { subscribed: true } });
      assert.equal((await member.browser.post('/settings/mass-mail/', { mass_mails: '1' })).status, 303);
      assert.deepEqual((await api('GET', '/api/mass-mail/subscription', member)).json(), { data: { subscribed: true } });
      assert.equal((await api('GET', '/api/mass-mail/subscription', null)).statusCode, 401);
    });
  });

  describe('refusals', () => {
    it('refuses members, guests, unknown groups, blank subjects, unstorable text and mixed-up audiences, changing no row', async () => {
      const good = { kind: 'message', audience: { kind: 'group', group_id: groupId }, subject: 'Hello', body: 'Text.' };
      const cases: Array<[MemberWithToken | null, object, number, string?]> = [
        [member, good, 403],
        [null, good, 401],
        [admin, { ...good, audience: { kind: 'group', group_id: 99_999_999 } }, 422, 'audience.group_id'],
        [admin, { ...good, audience: { kind: 'group' } }, 422, 'audience.group_id'],
        [admin, { ...good, audience: { kind: 'all', group_id: groupId } }, 422, 'audience.group_id'],
        [admin, { ...good, audience: { kind: 'role' } }, 422, 'audience.role'],
        [admin, { ...good, audience: { kind: 'role', role: 'owner' } }, 422, 'audience.role'],
        [admin, { ...good, audience: { kind: 'everyone' } }, 422, 'audience.kind'],
        [admin, { ...good, kind: 'sms' }, 422, 'kind'],
        [admin, { ...good, subject: '   ' }, 422, 'subject'],
        [admin, { ...good, subject: '\u200b' }, 422, 'subject'],
        [admin, { ...good, body: 'Nul \u0000 here' }, 422, 'body'],
        [admin, { ...good, subject: 'Lone \ud800 surrogate' }, 422, 'subject'],
        [admin, { ...good, body: 'x'.repeat(60_001) }, 422, 'body'],
      ];
      for (const [who, body, status, field] of cases) {
        const before = await snapshotTables(t);
        const response = await api('POST', '/api/mass-sends', who, body);
        assert.equal(response.statusCode, status, `${JSON.stringify(body).slice(0, 120)}: ${response.body.slice(0, 300)}`);
        if (field !== undefined) assert.ok(Object.hasOwn(response.json<{ errors: object }>().errors, field), `${field} in ${response.body}`);
        await t.services.massSender.settled();
        assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), [], JSON.stringify(body).slice(0, 120));
      }
      assert.equal((await api('GET', '/api/mass-sends', member)).statusCode, 403);
      assert.equal((await api('GET', '/api/mass-sends/1', null)).statusCode, 401);
      const unknown = await api('GET', '/api/mass-sends/99999999', admin);
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json<{ message: string }>().message, 'No query results for model [MassSend] 99999999.');
      assert.equal((await api('GET', '/api/mass-sends/abc', admin)).statusCode, 404);
    });
  });

  describe('a retried request', () => {
    it('makes one send per Idempotency-Key, and refuses a key that cannot be one', async () => {
      const body = { kind: 'message', audience: { kind: 'group', group_id: groupId }, subject: 'Retried', body: 'Once.' };
      const headers = { ...admin.headers, 'idempotency-key': 'retry-1' };
      const first = await t.app.inject({ method: 'POST', url: '/api/mass-sends', headers, payload: body });
      const again = await t.app.inject({ method: 'POST', url: '/api/mass-sends', headers, payload: { ...body, subject: 'Something else' } });
      assert.equal(first.statusCode, 202);
      assert.equal(again.statusCode, 202);
      assert.equal(again.json<{ data: SendJson }>().data.id, first.json<{ data: SendJson }>().data.id);
      assert.equal(again.json<{ data: SendJson }>().data.subject, 'Retried', 'the first request made it');
      await t.services.massSender.settled();
      assert.equal((await messagesOf(first.json<{ data: SendJson }>().data.id)).length, 3);
      const before = await snapshotTables(t);
      const spaced = await t.app.inject({
        method: 'POST',
        url: '/api/mass-sends',
        headers: { ...admin.headers, 'idempotency-key': 'two words' },
        payload: body,
      });
      assert.equal(spaced.statusCode, 422, spaced.body);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });
  });

  describe('the list and the preview', () => {
    it('lists every send newest first, paginated, and counts an audience without sending', async () => {
      const listed = await api('GET', '/api/mass-sends?per_page=2', admin);
      assert.equal(listed.statusCode, 200);
      const page = listed.json<{ data: SendJson[]; meta: { total: number; last_page: number }; links: { next: string | null } }>();
      assert.equal(page.data.length, 2);
      assert.ok(page.data[0]!.id > page.data[1]!.id, 'newest first');
      assert.ok(page.meta.total >= 7);
      assert.notEqual(page.links.next, null);
      const before = await snapshotTables(t);
      const preview = await api('POST', '/api/mass-sends/preview', admin, { kind: 'message', audience: { kind: 'group', group_id: groupId } });
      assert.deepEqual(preview.json(), { data: { recipients: 3 } });
      assert.equal((await api('POST', '/api/mass-sends/preview', admin, { kind: 'mail', audience: { kind: 'group', group_id: 0 } })).statusCode, 422);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });
  });
});
