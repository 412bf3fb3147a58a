import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow } from '../../src/forum/repository.ts';
import { PROFILE_MAILS_PER_HOUR } from '../../src/forum/profile-mail.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, createForum, createRule, createTopic, lastMailTo, loggedIn, mailsTo, mainText, reply, type Member } from '../helpers/forum.ts';
import { dom, textOf } from '../helpers/dom.ts';

describeEachDatabase('profile pages', (db) => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let forum: ForumRow;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'Alice Profile' });
    bob = await loggedIn(t, { name: 'Bob Profile' });
    forum = await createForum(t, 'Profiles');
  });
  after(() => t.close());

  describe('/profile/{slug}.{id}/', () => {
    it('shows name, join date, published posts, tracker figures, bonus points and the signature', async () => {
      await createRule(t, 'grumble', 'replace', ['signatures'], 'mumble');
      await t.services.users.update(alice.user.id, { signature: 'Alice <says> grumble' });
      const topic = await createTopic(t, alice.user, forum, 'Alice writes');
      await reply(t, alice.user, topic, 'And again');
      await createRule(t, 'heldprofile', 'moderate', ['posts']);
      await reply(t, alice.user, topic, 'This heldprofile one waits');

      const page = await new Browser(t).get(`/profile/alice-profile.${alice.user.id}/`);
      assert.equal(page.status, 200);
      assert.equal(canonicalOf(page.body), `http://localhost/profile/alice-profile.${alice.user.id}/`);
      const joined = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(alice.user.created_at));
      assert.match(
        mainText(page.body),
        new RegExp(
          `^Alice Profile Joined ${joined} Posts 2 Uploaded 0 bytes Downloaded 0 bytes Bonus points 0 Seeding now 0 Leeching now 0 Signature Alice <says> mumble`,
        ),
      );
      const signature = dom(page).one('div.signature');
      assert.equal(signature.childNodes.length, 1, 'one paragraph');
      assert.equal(dom(signature).text('p'), 'Alice <says> mumble');
      assert.equal(dom(signature).count('p *'), 0, 'the signature as text, not markup');
      assert.equal(dom(page).linkText(`/profile/alice-profile.${alice.user.id}/email/`), 'Send Alice Profile an e-mail');
    });

    it('offers the owner the settings instead of an e-mail link', async () => {
      const page = await alice.browser.get(`/profile/alice-profile.${alice.user.id}/`);
      assert.ok(
        dom(page)
          .links()
          .some((link) => link.href === '/settings/' && link.text === 'Change your settings and signature'),
      );
      assert.doesNotMatch(page.body, /Send Alice Profile an e-mail/);
    });

    it('marks moderators and banned accounts', async () => {
      const mod = await createUser(t, { name: 'Mod Profile', role: 'moderator' });
      assert.ok(
        dom(await new Browser(t).get(`/profile/mod-profile.${mod.id}/`))
          .texts('p.badge')
          .includes('Moderator'),
      );
      const banned = await createUser(t, { name: 'Banned Profile', status: 'banned' });
      assert.match(dom(await new Browser(t).get(`/profile/banned-profile.${banned.id}/`)).textContent, /This account has been banned./);
    });
  });

  describe('/profile/{slug}.{id}/email/', () => {
    const path = () => `/profile/bob-profile.${bob.user.id}/email/`;

    it('sends guests to log in, and back here afterwards', async () => {
      const visitor = new Browser(t);
      const response = await visitor.get(path());
      assert.equal(response.status, 303);
      assert.equal(response.location, `/login/?next=${encodeURIComponent(path())}`);
      const carol = await createUser(t, { name: 'Carol Profile' });
      const login = await visitor.logIn(carol.username, 'correct horse battery', path());
      assert.equal(login.location, path());
      assert.equal((await visitor.get(path())).status, 200);
    });

    it('mails the member through the outbox without showing either address', async () => {
      const page = await alice.browser.get(path());
      assert.equal(canonicalOf(page.body), `http://localhost${path()}`);
      assert.equal(dom(page).text('label[for="subject"]'), 'Subject');
      assert.equal(dom(page).text('label[for="message"]'), 'Message');
      const response = await alice.browser.post(path(), { subject: 'Hello Bob', message: 'Shall we meet?' });
      assert.equal(response.status, 303);
      assert.equal(response.location, `${path()}?sent=1`);
      assert.match(dom(await alice.browser.get(response.location!)).textContent, /Your message to Bob Profile was sent./);

      const mail = await lastMailTo(t, bob.user.email);
      assert.equal(mail.subject, 'Message from Alice Profile: Hello Bob');
      assert.match(mail.body, /Shall we meet\?/);
      assert.match(mail.body, new RegExp(`/profile/alice-profile.${alice.user.id}/email/`));
      assert.doesNotMatch(mail.body, new RegExp(alice.user.email.replace(/\./g, '\\.')));
      assert.doesNotMatch(page.body, new RegExp(bob.user.email.replace(/\./g, '\\.')));
    });

    it('applies the private_messages word filters: block → field error, moderate → refused, replace → applied', async () => {
      await createRule(t, 'blockpm', 'block', ['private_messages']);
      await createRule(t, 'reviewpm', 'moderate', ['private_messages']);
      await createRule(t, 'rudepm', 'replace', ['private_messages'], 'nicepm');
      await alice.browser.get(path());
      const before = (await mailsTo(t, bob.user.email)).length;

      const blocked = await alice.browser.post(path(), { subject: 'Hi', message: 'This blockpm word' });
      assert.equal(blocked.status, 422);
      assert.equal(dom(blocked).text('p.field-error#message-error'), 'The message contains words that are not allowed here.');
      assert.equal(dom(blocked).one('textarea[name="message"]').text, 'This blockpm word');

      const held = await alice.browser.post(path(), { subject: 'Hi', message: 'Please reviewpm this' });
      assert.equal(held.status, 422);
      const alert = dom(held).one('div.notice.error[role="alert"]');
      assert.equal(alert.firstElementChild?.tagName, 'P');
      assert.match(textOf(alert.firstElementChild!), /^Your message was not sent: it contains words that a moderator would have to review first/);
      assert.equal((await mailsTo(t, bob.user.email)).length, before);

      const replaced = await alice.browser.post(path(), { subject: 'Hi rudepm', message: 'You rudepm person' });
      assert.equal(replaced.status, 303);
      const mail = await lastMailTo(t, bob.user.email);
      assert.equal(mail.subject, 'Message from Alice Profile: Hi nicepm');
      assert.match(mail.body, /You nicepm person/);
      assert.doesNotMatch(mail.body, /rudepm/);
    });

    it('shows the API’s messages for missing or too long fields (422) and sends nothing', async () => {
      await alice.browser.get(path());
      const before = (await mailsTo(t, bob.user.email)).length;
      const response = await alice.browser.post(path(), { subject: 'x'.repeat(201), message: ' ' });
      assert.equal(response.status, 422);
      assert.match(dom(response).textContent, /The subject field must not be greater than 200 characters./);
      assert.match(dom(response).textContent, /The message field is required./);
      assert.equal((await mailsTo(t, bob.user.email)).length, before);
    });

    it(`sends at most ${PROFILE_MAILS_PER_HOUR} messages an hour per member (429 after)`, async () => {
      const sender = await loggedIn(t, { name: 'Chatty Profile' });
      await sender.browser.get(path());
      for (let i = 0; i < PROFILE_MAILS_PER_HOUR; i++) {
        assert.equal((await sender.browser.post(path(), { subject: `No. ${i}`, message: 'Hi' })).status, 303);
      }
      const refused = await sender.browser.post(path(), { subject: 'One more', message: 'Hi' });
      assert.equal(refused.status, 429);
      assert.match(dom(refused).textContent, /you can send 10 messages an hour/);
      assert.notEqual((await lastMailTo(t, bob.user.email)).subject, 'Message from Chatty Profile: One more');
    });

    it('is a 404 for an unknown or unactivated member', async () => {
      const pending = await createUser(t, { name: 'Pending Profile', status: 'pending' });
      assert.equal((await alice.browser.get(`/profile/pending-profile.${pending.id}/email/`)).status, 404);
      assert.equal((await alice.browser.get('/profile/nobody.99999999/email/')).status, 404);
    });
  });

  describe('/profile/watchlist/', () => {
    it('sends guests to log in', async () => {
      assert.equal((await new Browser(t).get('/profile/watchlist/')).location, '/login/?next=%2Fprofile%2Fwatchlist%2F');
    });

    it('lists your watched topics, each with a labelled button to stop watching', async () => {
      const watcher = await loggedIn(t, { name: 'Watching Profile' });
      const topic = await createTopic(t, alice.user, forum, 'Watched here');
      const empty = await watcher.browser.get('/profile/watchlist/');
      assert.match(dom(empty).textContent, /You are not watching any topic./);
      await t.services.forum.watch({ id: watcher.user.id, name: watcher.user.username, email: watcher.user.email, role: 'user' }, topic.id);

      const page = await watcher.browser.get('/profile/watchlist/');
      assert.equal(canonicalOf(page.body), 'http://localhost/profile/watchlist/');
      assert.equal(dom(page).linkText(`/topic/watched-here.${topic.id}/`), 'Watched here');
      const stop = dom(page).one('button[type="submit"].secondary:has(span.visually-hidden)');
      assert.equal(textOf(stop), 'Stop watching Watched here');
      assert.equal(dom(stop).text('span.visually-hidden'), 'Watched here');

      const response = await watcher.browser.post('/profile/watchlist/unwatch/', { topic_id: String(topic.id) });
      assert.equal(response.status, 303);
      assert.equal(response.location, '/profile/watchlist/');
      assert.doesNotMatch((await watcher.browser.get('/profile/watchlist/')).body, /Watched here/);
      const invalid = await watcher.browser.post('/profile/watchlist/unwatch/', { topic_id: 'x' });
      assert.equal(invalid.status, 422);
      assert.match(dom(invalid).text('.notice.error'), /The topic id field must be an integer\./);
    });

    it('does not list a watched topic that was held for moderation later', async () => {
      const watcher = await loggedIn(t, { name: 'Held Watcher' });
      const topic = await createTopic(t, alice.user, forum, 'Soon held');
      await t.services.forum.watch({ id: watcher.user.id, name: watcher.user.username, email: watcher.user.email, role: 'user' }, topic.id);
      await createRule(t, 'heldwatch', 'moderate', ['topics']);
      await t.services.forum.renameTopic(topic.id, { id: alice.user.id, name: alice.user.username, email: alice.user.email, role: 'user' }, 'Now heldwatch');
      const page = await watcher.browser.get('/profile/watchlist/');
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.body, /heldwatch|Soon held/);
    });
  });
});
