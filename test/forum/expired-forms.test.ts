import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { createForum, createTopic, loggedIn, mailsTo, mainText, type Member } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

/** The value of the form's hidden _csrf field (the one a browser would send). */
/** The CSRF token the first post form (`form.stacked`) inside the scope carries. */
function formToken(page: { body: string }, scope = 'body'): string | undefined {
  const form = dom(page).find(`${scope} form.stacked[method="post"]`);
  const token = form?.querySelector('input[type="hidden"][name="_csrf"]')?.getAttribute('value');
  return token === '' ? undefined : token;
}

describeEachDatabase('forms whose CSRF token expired', (db) => {
  let t: TestApp;
  let forum: ForumRow;
  let topic: TopicWithAuthor;

  before(async () => {
    t = await db.start();
    const opener = await createUser(t, { name: 'Opener' });
    forum = await createForum(t, 'Drafts');
    topic = await createTopic(t, opener, forum, 'Keep my text');
  });
  after(() => t.close());

  /**
   * A member who opened `path`, then logged out and in again elsewhere in the
   * same browser: the page's token belongs to a session that is gone.
   */
  async function withStaleToken(path: string): Promise<{ member: Member; stale: string }> {
    const member = await loggedIn(t);
    await member.browser.get(path);
    const stale = member.browser.csrf!;
    await member.browser.post('/logout/', {});
    assert.equal((await member.browser.logIn(member.user.username, TEST_PASSWORD)).status, 303);
    return { member, stale };
  }

  const topicPath = () => `/topic/keep-my-text.${topic.id}/`;
  const postsWith = async (body: string) => (await t.database.db.selectFrom('posts').select('id').where('body', '=', body).execute()).length;

  describe('topic reply', () => {
    it('shows the form again with the text kept and a fresh token (403), and nothing is posted', async () => {
      const { member, stale } = await withStaleToken(topicPath());
      const refused = await member.browser.post(`${topicPath()}reply/`, { _csrf: stale, body: 'A long reply <I typed>' });
      assert.equal(refused.status, 403);
      assert.match(mainText(refused.body), /This form had expired .* so nothing was saved\. What you wrote is kept below/);
      assert.equal(dom(refused).one('textarea#body[name="body"]').text, 'A long reply <I typed>');
      const fresh = formToken(refused, 'section[aria-labelledby="reply-heading"]');
      assert.ok(fresh !== undefined && fresh !== stale, 'the form carries the current session token');
      assert.equal(await postsWith('A long reply <I typed>'), 0);

      const resent = await member.browser.post(`${topicPath()}reply/`, { _csrf: fresh, body: 'A long reply <I typed>' });
      assert.equal(resent.status, 303);
      assert.equal(await postsWith('A long reply <I typed>'), 1);
    });

    it('keeps a new title typed into the rename form', async () => {
      const author = await loggedIn(t);
      const own = await createTopic(t, author.user, forum, 'Old name');
      const path = `/topic/old-name.${own.id}/`;
      await author.browser.get(path);
      const refused = await author.browser.post(`${path}rename/`, { _csrf: 'stale-token-from-yesterday', title: 'New name I typed' });
      assert.equal(refused.status, 403);
      assert.ok(dom(refused).one('details.edit-title').hasAttribute('open'));
      assert.equal(dom(refused).attr('input#rename-title[name="title"][type="text"]', 'value'), 'New name I typed');
    });

    it('for a member whose login ended meanwhile: a page with what they wrote and a way to log in (403)', async () => {
      const { member, stale } = await withStaleToken(topicPath());
      member.browser.cookies.delete('forum_session');
      const refused = await member.browser.post(`${topicPath()}reply/`, { _csrf: stale, body: 'Written before the session ended' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).text('h1'), 'Not saved: you are logged out');
      const draft = dom(refused).one('textarea#draft-body');
      assert.deepEqual(draft.attributes, { id: 'draft-body', name: 'body', rows: '8', readonly: '' });
      assert.equal(draft.text, 'Written before the session ended');
      assert.ok(
        dom(refused)
          .hrefs()
          .includes(`/login/?next=${encodeURIComponent(topicPath())}`),
      );

      assert.equal(await postsWith('Written before the session ended'), 0);
    });

    it('does not keep the watch buttons: a forged watch is the plain 403 page', async () => {
      const member = await loggedIn(t);
      await member.browser.get(topicPath());
      const refused = await member.browser.post(`${topicPath()}watch/`, { _csrf: 'forged-token-value-123' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).text('h1'), 'Forbidden');
      assert.equal(
        await t.services.forum.isWatching({ id: member.user.id, name: member.user.username, email: member.user.email, role: 'user' }, topic.id),
        false,
      );
    });
  });

  describe('new topic', () => {
    it('shows the form again with title and text kept (403), and the fresh token posts it', async () => {
      const path = `/forum/drafts.${forum.id}/`;
      const { member, stale } = await withStaleToken(path);
      const refused = await member.browser.post(path, { _csrf: stale, title: 'My careful title', body: 'My careful text' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).attr('input#title[name="title"][type="text"]', 'value'), 'My careful title');
      assert.equal(dom(refused).one('textarea#body[name="body"]').text, 'My careful text');
      const resent = await member.browser.post(path, { _csrf: formToken(refused)!, title: 'My careful title', body: 'My careful text' });
      assert.equal(resent.status, 303);
      assert.match(resent.location!, /^\/topic\/my-careful-title\.\d+\/$/);
    });
  });

  describe('profile mail', () => {
    it('shows the form again with subject and message kept (403), and the fresh token sends it', async () => {
      const reader = await createUser(t, { name: 'Reader' });
      const path = `/profile/reader.${reader.id}/email/`;
      const { member, stale } = await withStaleToken(path);
      const refused = await member.browser.post(path, { _csrf: stale, subject: 'Kept subject', message: 'Kept message' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).attr('input#subject[name="subject"][type="text"]', 'value'), 'Kept subject');
      assert.equal(dom(refused).one('textarea#message[name="message"]').text, 'Kept message');
      assert.equal((await mailsTo(t, reader.email)).length, 0);
      const resent = await member.browser.post(path, { _csrf: formToken(refused)!, subject: 'Kept subject', message: 'Kept message' });
      assert.equal(resent.status, 303);
      assert.equal((await mailsTo(t, reader.email)).length, 1);
    });
  });

  describe('settings', () => {
    it('shows the signature form again with the signature kept (403), and the fresh token saves it', async () => {
      const { member, stale } = await withStaleToken('/settings/');
      const refused = await member.browser.post('/settings/signature/', { _csrf: stale, signature: 'My new signature' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).one('textarea#signature[name="signature"]').text, 'My new signature');
      assert.equal((await t.services.users.get(member.user.id)).signature, '');
      const token = dom(refused).fields('form[action="/settings/signature/"]')['_csrf'] as string | undefined;
      assert.ok(token !== undefined && token !== stale, 'the form carries the current session token');

      const resent = await member.browser.post('/settings/signature/', { _csrf: token!, signature: 'My new signature' });
      assert.equal(resent.status, 303);
      assert.equal((await t.services.users.get(member.user.id)).signature, 'My new signature');
    });

    it('never echoes passwords', async () => {
      const member = await loggedIn(t);
      await member.browser.get('/settings/');
      const refused = await member.browser.post('/settings/password/', {
        _csrf: 'forged-token-value-123',
        current_password: 'secret-one-1',
        password: 'secret-two-2',
        password_confirmation: 'secret-two-2',
      });
      assert.equal(refused.status, 403);
      assert.doesNotMatch(refused.body, /secret-one-1|secret-two-2/);
    });
  });

  describe('guest forms', () => {
    it('registration comes back with name and address kept, passwords not echoed (403)', async () => {
      const guest = new Browser(t);
      await guest.get('/register/');
      const fields = { username: 'Kept Kim', email: 'kept.kim@example.test', password: 'long enough pw', password_confirmation: 'long enough pw' };
      const refused = await guest.post('/register/', { ...fields, _csrf: 'forged-token-value-123' });
      assert.equal(refused.status, 403);
      assert.equal(dom(refused).attr('input#username[name="username"][type="text"]', 'value'), 'Kept Kim');
      assert.equal(dom(refused).attr('input#email[name="email"][type="email"]', 'value'), 'kept.kim@example.test');
      assert.doesNotMatch(refused.body, /long enough pw/);
      const resent = await guest.post('/register/', fields);
      assert.equal(resent.status, 200);
      assert.match(dom(resent).textContent, /Check your mail/);
    });
  });
});
