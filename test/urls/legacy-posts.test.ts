import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { createForum, createTopic, loggedIn, type Member } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('POST to a legacy URL whose CSRF token is refused', (db) => {
  let t: TestApp;
  let alice: Member;
  let forum: ForumRow;
  let topic: TopicWithAuthor;
  let bob: UserRow;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'Alice Legacy' });
    bob = await createUser(t, { name: 'Bob Legacy' });
    forum = await createForum(t, 'Old Links');
    topic = await createTopic(t, alice.user, forum, 'Legacy Topic');
    await alice.browser.get('/');
  });
  after(() => t.close());

  const FORGED = 'forged-token-value-123';

  it('still carries the canonical Link header, for every legacy path (403)', async () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      [`/viewtopic.php?t=${topic.id}`, `/topic/legacy-topic.${topic.id}/`, { body: 'A reply' }],
      [`/viewtopic?t=${topic.id}&start=0`, `/topic/legacy-topic.${topic.id}/`, { action: 'watch' }],
      [`/viewforum.php?f=${forum.id}`, `/forum/old-links.${forum.id}/`, { title: 'T', body: 'B' }],
      [`/profile.php?mode=viewprofile&u=${bob.id}`, `/profile/bob-legacy.${bob.id}/`, {}],
      [`/profile.php?mode=email&u=${bob.id}`, `/profile/bob-legacy.${bob.id}/email/`, { subject: 'S', message: 'M' }],
      ['/profile.php?mode=editprofile', '/settings/', { action: 'signature', signature: 'Sig' }],
      ['/profile.php?mode=watch', '/profile/watchlist/', { action: 'unwatch', topic_id: String(topic.id) }],
      ['/profile.php?mode=bonus', '/profile/bonus/', {}],
    ];
    // The guests' pages, by a guest who has a token (another one than the form sends).
    const guest = new Browser(t);
    await guest.get('/login/');
    const guestCases: Array<[string, string, Record<string, string>]> = [
      ['/profile.php?mode=register', '/register/', { username: 'Nobody', email: 'nobody@example.test' }],
      ['/profile.php?mode=sendpassword', '/password-recovery/', { email: 'nobody@example.test' }],
    ];
    for (const [browser, list] of [
      [alice.browser, cases],
      [guest, guestCases],
    ] as const) {
      for (const [legacy, canonical, form] of list) {
        const response = await browser.post(legacy, { ...form, _csrf: FORGED });
        assert.equal(response.status, 403, legacy);
        assert.equal(response.headers['link'], `<http://localhost${canonical}>; rel="canonical"`, legacy);
      }
    }
  });

  it('keeps the typed reply in the form shown again at the legacy address', async () => {
    const response = await alice.browser.post(`/viewtopic.php?t=${topic.id}`, { body: 'Typed at an old address', _csrf: FORGED });
    assert.equal(response.status, 403);
    const form = dom(response).one('form.stacked:has(textarea#body)');
    assert.equal(form.getAttribute('method'), 'post');
    assert.equal(form.getAttribute('action'), `/topic/legacy-topic.${topic.id}/reply/`);
    assert.equal(dom(response).fields('form.stacked:has(textarea#body)')['body'], 'Typed at an old address');
  });

  it('also for a guest without any token, and at a stale slug', async () => {
    const guest = new Browser(t);
    const response = await guest.post(`/viewtopic.php?t=${topic.id}`, { body: 'Guest reply' });
    assert.equal(response.status, 403);
    assert.equal(response.headers['link'], `<http://localhost/topic/legacy-topic.${topic.id}/>; rel="canonical"`);
    const stale = await alice.browser.post(`/topic/old-slug.${topic.id}`, { body: 'Stale', _csrf: FORGED });
    assert.equal(stale.status, 403);
    assert.equal(stale.headers['link'], `<http://localhost/topic/legacy-topic.${topic.id}/>; rel="canonical"`);
  });
});
