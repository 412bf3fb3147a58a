// The private message pages as a member uses them without JavaScript: the
// header's count, the Inbox and Sent folders, writing from a profile, reading,
// replying, deleting, "mark all read", the e-mail setting, and what every form
// does with bad input (422 and nothing written), a missing CSRF token (403)
// and guests (sent to log in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { asAuthUser, loggedIn, type Member } from '../helpers/forum.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';

describeEachDatabase('private message pages', (db) => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'Alice Pages' });
    bob = await loggedIn(t, { name: 'Bob Pages' });
  });
  after(() => t.close());

  const headerLink = async (member: Member) => dom(await member.browser.get('/')).linkText('/messages/');
  const sendByService = (from: Member, to: Member, subject: string, body = 'Some text') =>
    t.services.messages.send(asAuthUser(from.user), to.user.username, { subject, body });

  describe('writing and reading', () => {
    it('goes from a profile to the compose form with the recipient filled in, and sends', async () => {
      const profile = await alice.browser.get(`/profile/bob-pages.${bob.user.id}/`);
      const compose = `/messages/new/?to=${encodeURIComponent('Bob Pages')}`;
      assert.equal(dom(profile).linkText(compose), 'Send Bob Pages a private message');
      const form = await alice.browser.get(compose);
      assert.equal(form.status, 200);
      assert.equal(dom(form).one('input[name="to"]').getAttribute('value'), 'Bob Pages');
      assert.equal(dom(form).one('a[aria-current="page"]').textContent, 'Write a message');

      const sent = await alice.browser.post('/messages/new/send/', { to: 'Bob Pages', subject: 'From the form', body: 'Hello [i]Bob[/i]' });
      assert.equal(sent.status, 303);
      assert.match(sent.location!, /^\/messages\/\d+\/\?sent=1$/);
      const shown = await alice.browser.get(sent.location!);
      assert.match(dom(shown).textContent, /Your message was sent\./);
      assert.equal(dom(shown).text('article.message h1'), 'From the form');
      assert.equal(dom(shown).one('article.message .body em').textContent, 'Bob');
    });

    it('shows the unread count in the header until the message is opened, then marks it read', async () => {
      const carol = await loggedIn(t, { name: 'Carol Pages' });
      assert.equal(await headerLink(carol), 'Messages');
      const message = await sendByService(alice, carol, 'Count me');
      assert.equal(await headerLink(carol), 'Messages 1 unread');

      const inbox = await carol.browser.get('/messages/');
      assert.equal(inbox.status, 200);
      const row = dom(inbox).one('table.messages tbody tr');
      assert.equal(row.getAttribute('class'), 'unread');
      assert.equal(dom(row).linkText(`/messages/${message.id}/`), 'Count me');

      const opened = await carol.browser.get(`/messages/${message.id}/`);
      assert.equal(opened.status, 200);
      assert.equal(dom(opened).linkText('/messages/'), 'Messages', 'the header counts this opening already');
      assert.equal(dom(opened).one('meta[name="robots"]').getAttribute('content'), 'noindex');
      assert.equal(await headerLink(carol), 'Messages');
      assert.equal(
        dom(await carol.browser.get('/messages/'))
          .one('table.messages tbody tr')
          .hasAttribute('class'),
        false,
      );
    });

    it('lists sent messages with whether they were read, and replies with "Re:" once', async () => {
      const message = await sendByService(alice, bob, 'Re: Re: Lunch?');
      const sentFolder = await alice.browser.get('/messages/sent/');
      const row = dom(sentFolder)
        .all('table.messages tbody tr')
        .find((tr) => dom(tr).has(`a[href="/messages/${message.id}/"]`));
      assert.ok(row);
      assert.match(dom(row).textContent, /Bob Pages.*Not yet/s);

      const page = await bob.browser.get(`/messages/${message.id}/`);
      assert.equal(dom(page).one('input[name="subject"]').getAttribute('value'), 'Re: Lunch?');
      const answered = await bob.browser.post(`/messages/${message.id}/reply/`, { subject: 'Re: Lunch?', body: 'Yes, at noon' });
      assert.equal(answered.status, 303);
      const answerId = Number(/^\/messages\/(\d+)\//.exec(answered.location!)![1]);
      const answer = await t.services.messages.get(asAuthUser(alice.user), answerId);
      assert.equal(answer.reply_to_id, message.id);
      assert.equal(answer.recipient_id, alice.user.id);
      assert.doesNotMatch(dom(await alice.browser.get('/messages/sent/')).textContent, new RegExp(`Not yet[^]*href="/messages/${message.id}/"`));
    });

    it('deletes from the own folder only, back to that folder', async () => {
      const message = await sendByService(alice, bob, 'Delete from inbox');
      await bob.browser.get(`/messages/${message.id}/`);
      const deleted = await bob.browser.post(`/messages/${message.id}/delete/`, {});
      assert.equal(deleted.status, 303);
      assert.equal(deleted.location, '/messages/?deleted=1');
      assert.equal((await bob.browser.get(`/messages/${message.id}/`)).status, 404);
      assert.equal((await alice.browser.get(`/messages/${message.id}/`)).status, 200);
    });

    it('marks all read and saves the e-mail setting from the Inbox', async () => {
      const dave = await loggedIn(t, { name: 'Dave Pages' });
      await sendByService(alice, dave, 'One');
      await sendByService(alice, dave, 'Two');
      await dave.browser.get('/messages/');
      const read = await dave.browser.post('/messages/read/', {});
      assert.equal(read.location, '/messages/?saved=read');
      assert.equal(await headerLink(dave), 'Messages');

      const saved = await dave.browser.post('/messages/settings/', { email_notifications: '1' });
      assert.equal(saved.location, '/messages/?saved=settings');
      const inbox = await dave.browser.get(saved.location!);
      assert.equal(dom(inbox).one('input[name="email_notifications"]').hasAttribute('checked'), true);
      await dave.browser.post('/messages/settings/', {});
      assert.equal((await t.services.messages.preferences(asAuthUser(dave.user))).message_mails, false);
    });

    it('shows another member’s message as the 404 page, and bad ids too', async () => {
      const message = await sendByService(alice, bob, 'Not for Erin');
      const erin = await loggedIn(t, { name: 'Erin Pages' });
      for (const path of [`/messages/${message.id}/`, '/messages/0/', '/messages/99999999999/', '/messages/abc/']) {
        const response = await erin.browser.get(path);
        assert.equal(response.status, 404, path);
        assert.match(response.headers['content-type'] as string, /^text\/html/);
      }
    });

    it('redirects TorrentPier’s privmsg.php links', async () => {
      const message = await sendByService(alice, bob, 'Old link');
      const cases: Array<[string, string]> = [
        ['/privmsg.php?folder=inbox', '/messages/'],
        ['/privmsg.php', '/messages/'],
        ['/privmsg.php?folder=sentbox', '/messages/sent/'],
        ['/privmsg.php?folder=outbox', '/messages/sent/'],
        [`/privmsg.php?mode=read&p=${message.id}`, `/messages/${message.id}/`],
        ['/privmsg.php?mode=post&u=2', '/messages/new/'],
      ];
      for (const [from, to] of cases) {
        const response = await bob.browser.get(from);
        assert.equal(response.status, 301, from);
        assert.equal(response.location, to, from);
      }
      assert.equal((await bob.browser.get('/privmsg.php?mode=read&p=x')).status, 404);
      assert.equal((await bob.browser.get('/privmsg.php?folder=nowhere')).status, 404);
    });
  });

  describe('the forms', () => {
    it('show the compose form again with every error (422) and write nothing', async () => {
      await alice.browser.get('/messages/new/');
      const before = await snapshotTables(t);
      const response = await alice.browser.post('/messages/new/send/', { to: 'Nobody Pages', subject: 'Hi', body: '   ' });
      assert.equal(response.status, 422);
      const text = dom(response).textContent;
      assert.match(text, /The body field is required\./);
      assert.equal(dom(response).one('input[name="subject"]').getAttribute('value'), 'Hi', 'what was typed is kept');
      const unknown = await alice.browser.post('/messages/new/send/', { to: 'Nobody Pages', subject: 'Hi', body: 'Text' });
      assert.equal(unknown.status, 422);
      assert.match(dom(unknown).textContent, /There is no member called “Nobody Pages”\./);
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });

    it('refuse a missing CSRF token (403) and write nothing', async () => {
      const message = await sendByService(alice, bob, 'CSRF target');
      const before = await snapshotTables(t);
      for (const [path, form] of [
        ['/messages/new/send/', { to: 'Bob Pages', subject: 'x', body: 'y' }],
        [`/messages/${message.id}/reply/`, { subject: 'x', body: 'y' }],
        [`/messages/${message.id}/delete/`, {}],
        ['/messages/read/', {}],
        ['/messages/settings/', { email_notifications: '1' }],
      ] as const) {
        const response = await bob.browser.post(path, { ...form, _csrf: '' });
        assert.equal(response.status, 403, path);
      }
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });

    it('send guests to log in', async () => {
      const guest = new Browser(t);
      for (const path of ['/messages/', '/messages/sent/', '/messages/new/', '/messages/1/']) {
        const response = await guest.get(path);
        assert.equal(response.status, 303, path);
        assert.equal(response.location, `/login/?next=${encodeURIComponent(path)}`);
      }
    });

    it('never answer hostile input with a 5xx', async () => {
      const message = await sendByService(alice, bob, 'Hostile target');
      await bob.browser.get(`/messages/${message.id}/`);
      for (const value of ['a\u0000b', '\ud800', 'x'.repeat(70_000), '<script>alert(1)</script>']) {
        for (const [path, form] of [
          ['/messages/new/send/', { to: value, subject: value, body: value }],
          [`/messages/${message.id}/reply/`, { subject: value, body: value }],
          ['/messages/settings/', { email_notifications: value }],
        ] as const) {
          const response = await bob.browser.post(path, form);
          assert.ok(response.status < 500, `${path}: ${response.status}`);
        }
      }
      const page = await bob.browser.get(`/messages/new/?to=${encodeURIComponent('<script>x</script>')}`);
      assert.equal(page.status, 200);
      assert.equal(dom(page).count('main script'), 0);
    });
  });
});
