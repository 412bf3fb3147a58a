import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn, type SignedIn } from '../helpers/auth.ts';
import { createRule, linkIn, mailsTo } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('private messages API', (db) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;

  before(async () => {
    t = await db.start();
    alice = await signIn(t, 'user', 'Alice Pm');
    bob = await signIn(t, 'user', 'Bob Pm');
  });
  after(() => t.close());

  const send = (from: SignedIn, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/messages', headers: from.headers, payload });
  const get = (as: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: as.headers });
  const unread = async (as: SignedIn) => (await get(as, '/api/messages/settings')).json().data.unread as number;
  const sent = (response: LightMyRequestResponse) => {
    assert.equal(response.statusCode, 201, response.body);
    return response.json().data as { id: number; subject: string; body_html: string; read_at: string | null; url: string };
  };

  describe('sending and reading', () => {
    it('delivers a message to the Inbox by user name in any letter case, counted unread until opened', async () => {
      const before = await unread(bob);
      const message = sent(await send(alice, { to: 'bob pm', subject: 'Hello Bob', body: '[b]Hi[/b] there' }));
      assert.equal(message.subject, 'Hello Bob');
      assert.equal(message.body_html, '<div class="bb"><strong>Hi</strong> there</div>');
      assert.equal(message.read_at, null);
      assert.equal(message.url, `/messages/${message.id}/`);
      assert.equal(await unread(bob), before + 1);

      const inbox = (await get(bob, '/api/messages')).json();
      assert.equal(inbox.success, true);
      assert.equal(inbox.data[0].id, message.id);
      assert.deepEqual(inbox.data[0].sender, { id: alice.user.id, name: 'Alice Pm', url: `/profile/alice-pm.${alice.user.id}/` });
      assert.equal(inbox.data[0].recipient.id, bob.user.id);
      const sentFolder = (await get(alice, '/api/messages?folder=sent')).json();
      assert.equal(sentFolder.data[0].id, message.id);
      assert.equal(
        (await get(alice, '/api/messages')).json().data.some((row: { id: number }) => row.id === message.id),
        false,
        "not in the sender's Inbox",
      );

      const opened = await get(bob, `/api/messages/${message.id}`);
      assert.equal(opened.statusCode, 200);
      assert.notEqual(opened.json().data.read_at, null);
      assert.equal(await unread(bob), before);
      // Opening again counts nothing.
      await get(bob, `/api/messages/${message.id}`);
      assert.equal(await unread(bob), before);
      // The sender reading their copy does not mark it read for anyone.
      assert.equal((await get(alice, `/api/messages/${message.id}`)).statusCode, 200);
    });

    it('keeps every message private to its two members: anyone else gets 404, guests 401', async () => {
      const message = sent(await send(alice, { to: 'Bob Pm', subject: 'Private', body: 'Only for Bob' }));
      const carol = await signIn(t);
      const admin = await signIn(t, 'admin');
      for (const stranger of [carol, admin]) {
        const response = await get(stranger, `/api/messages/${message.id}`);
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().error.code, 'NOT_FOUND');
        assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/messages/${message.id}`, headers: stranger.headers })).statusCode, 404);
        assert.equal(
          (await t.app.inject({ method: 'POST', url: `/api/messages/${message.id}/reply`, headers: stranger.headers, payload: { subject: 'x', body: 'y' } }))
            .statusCode,
          404,
        );
      }
      for (const url of ['/api/messages', `/api/messages/${message.id}`, '/api/messages/settings']) {
        assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401, url);
      }
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/messages', payload: { to: 'Bob Pm', subject: 'a', body: 'b' } })).statusCode, 401);
    });

    it('answers a reply to the other side with a link to the message it answers', async () => {
      const first = sent(await send(alice, { to: 'Bob Pm', subject: 'Question', body: 'How are you?' }));
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/messages/${first.id}/reply`,
        headers: bob.headers,
        payload: { subject: 'Re: Question', body: 'Fine, thanks' },
      });
      const data = sent(answer) as unknown as { reply_to_id: number; recipient: { id: number }; sender: { id: number } };
      assert.equal(data.reply_to_id, first.id);
      assert.equal(data.recipient.id, alice.user.id);
      assert.equal(data.sender.id, bob.user.id);
      // The sender of the first message may answer their own message too: it goes to the same other side.
      const followUp = await t.app.inject({
        method: 'POST',
        url: `/api/messages/${first.id}/reply`,
        headers: alice.headers,
        payload: { subject: 'Also', body: 'And one more thing' },
      });
      assert.equal((sent(followUp) as unknown as { recipient: { id: number } }).recipient.id, bob.user.id);
    });

    it('pages the folders newest first in the general collection envelope', async () => {
      const dave = await signIn(t);
      const erin = await signIn(t);
      for (let i = 1; i <= 3; i += 1) sent(await send(dave, { to: erin.user.name, subject: `Number ${i}`, body: 'x' }));
      const page = (await get(erin, '/api/messages?per_page=2&page=2')).json();
      assert.deepEqual(page.meta, { current_page: 2, per_page: 2, total: 3, total_pages: 2 });
      assert.deepEqual(
        page.data.map((row: { subject: string }) => row.subject),
        ['Number 1'],
      );
    });
  });

  describe('refusals', () => {
    it('reports every failing field at once (422) and writes nothing', async () => {
      const before = await snapshotTables(t);
      const response = await send(alice, { to: '', subject: ' ', body: '' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), ['body', 'subject', 'to']);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });

    it('refuses unknown members, oneself and accounts that cannot receive', async () => {
      const banned = await createUser(t, { name: 'Banned Pm', status: 'banned' });
      const pending = await createUser(t, { name: 'Pending Pm', status: 'pending' });
      const cases: Array<[string, RegExp]> = [
        ['Nobody Here', /^There is no member called “Nobody Here”\.$/],
        ['Alice Pm', /^You cannot send a message to yourself\.$/],
        [banned.username, /^Banned Pm cannot receive messages\.$/],
        [pending.username, /^Pending Pm cannot receive messages\.$/],
      ];
      for (const [to, message] of cases) {
        const response = await send(alice, { to, subject: 'Hi', body: 'Hello' });
        assert.equal(response.statusCode, 422, to);
        assert.match(response.json().errors.to[0], message);
      }
    });

    it('applies the private-message word filters: block and moderate refuse the field, replace shows at display', async () => {
      await createRule(t, 'pmforbidden', 'block', ['private_messages']);
      await createRule(t, 'pmheld', 'moderate', ['private_messages']);
      await createRule(t, 'pmrude', 'replace', ['private_messages'], 'polite');
      const before = await snapshotTables(t);
      const blocked = await send(alice, { to: 'Bob Pm', subject: 'pmforbidden', body: 'pmheld text' });
      assert.equal(blocked.statusCode, 422);
      assert.deepEqual(blocked.json().errors, {
        subject: ['The subject contains words that are not allowed here.'],
        body: ['The body contains words that a moderator would have to review first. Please rephrase it.'],
      });
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);

      const replaced = sent(await send(alice, { to: 'Bob Pm', subject: 'pmrude subject', body: 'so pmrude' }));
      assert.equal(replaced.subject, 'polite subject');
      assert.equal(replaced.body_html, '<p>so polite</p>');
      assert.equal((await get(bob, `/api/messages/${replaced.id}`)).json().data.body, 'so pmrude', 'stored as written');
    });

    it('refuses ids out of range and hostile text without a 500', async () => {
      for (const id of ['0', '-1', '2147483648', '1e3', 'abc']) {
        const response = await get(alice, `/api/messages/${id}`);
        assert.ok([404, 422].includes(response.statusCode), `${id}: ${response.statusCode}`);
      }
      for (const body of ['a\u0000b', '\ud800', 'x'.repeat(60_001)]) {
        const response = await send(alice, { to: 'Bob Pm', subject: 'Hostile', body });
        assert.equal(response.statusCode, 422, JSON.stringify(body.slice(0, 10)));
      }
    });
  });

  describe('deleting', () => {
    it('removes a message from one folder only; the row goes when both sides deleted it', async () => {
      const message = sent(await send(alice, { to: 'Bob Pm', subject: 'Delete me', body: 'x' }));
      const before = await unread(bob);
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/messages/${message.id}`, headers: bob.headers });
      assert.equal(deleted.statusCode, 204);
      assert.equal(await unread(bob), before - 1, 'an unread message leaves the count with the inbox');
      assert.equal((await get(bob, `/api/messages/${message.id}`)).statusCode, 404);
      assert.equal((await get(alice, `/api/messages/${message.id}`)).statusCode, 200, 'the sender keeps theirs');
      const row = () => t.database.db.selectFrom('private_messages').select('id').where('id', '=', message.id).executeTakeFirst();
      assert.ok(await row());
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/messages/${message.id}`, headers: alice.headers })).statusCode, 204);
      assert.equal(await row(), undefined);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/messages/${message.id}`, headers: alice.headers })).statusCode, 404);
    });

    it('keeps a message for the other side when a member is deleted, shown from a deleted user', async () => {
      const leaver = await signIn(t);
      const message = sent(await send(leaver, { to: 'Bob Pm', subject: 'Goodbye', body: 'x' }));
      await t.services.users.delete(leaver.user.id);
      const read = (await get(bob, `/api/messages/${message.id}`)).json().data;
      assert.equal(read.sender, null);
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/messages/${message.id}/reply`,
        headers: bob.headers,
        payload: { subject: 'Re', body: 'y' },
      });
      assert.equal(answer.statusCode, 422);
      assert.match(answer.json().errors.body[0], /no longer has an account/);
    });
  });

  describe('mark all read and e-mail notifications', () => {
    it('marks every message read at once', async () => {
      sent(await send(alice, { to: 'Bob Pm', subject: 'One', body: 'x' }));
      sent(await send(alice, { to: 'Bob Pm', subject: 'Two', body: 'x' }));
      assert.ok((await unread(bob)) >= 2);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/messages/read', headers: bob.headers })).statusCode, 204);
      assert.equal(await unread(bob), 0);
      const inbox = (await get(bob, '/api/messages?per_page=100')).json().data as Array<{ read_at: string | null }>;
      assert.ok(inbox.every((row) => row.read_at !== null));
    });

    it('mails the recipient only after they opted in, with the subject and a link but not the text', async () => {
      const frank = await signIn(t, 'user', 'Frank Pm');
      sent(await send(alice, { to: 'Frank Pm', subject: 'Before opting in', body: 'secret text' }));
      assert.equal((await mailsTo(t, frank.user.email)).length, 0);

      const settings = await t.app.inject({ method: 'PUT', url: '/api/messages/settings', headers: frank.headers, payload: { email_notifications: true } });
      assert.equal(settings.statusCode, 200);
      assert.deepEqual(settings.json().data, { unread: 1, email_notifications: true });
      const message = sent(await send(alice, { to: 'Frank Pm', subject: 'After opting in', body: 'secret text' }));
      const mails = await mailsTo(t, frank.user.email);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.subject, 'New private message from Alice Pm: After opting in');
      assert.doesNotMatch(mails[0]!.body, /secret text/);
      assert.equal(linkIn(mails[0]!, '/messages/'), `/messages/${message.id}/`);

      const invalid = await t.app.inject({ method: 'PUT', url: '/api/messages/settings', headers: frank.headers, payload: { email_notifications: 'maybe' } });
      assert.equal(invalid.statusCode, 422);
    });
  });
});
