import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import type { UserRow } from '../../src/users/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { canonicalOf, createForum, createRule, createTopic, loggedIn, mailsTo, type Member } from '../helpers/forum.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('semantic URL routing', (db) => {
  let t: TestApp;
  let alice: Member;
  let forum: ForumRow;
  let topic: TopicWithAuthor;
  let bob: UserRow;

  before(async () => {
    t = await db.start();
    alice = await loggedIn(t, { name: 'Alice Routes' });
    bob = await createUser(t, { name: 'Bob Routes' });
    forum = await createForum(t, 'General Talk');
    topic = await createTopic(t, alice.user, forum, 'Hello World');
  });
  after(() => t.close());

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });

  describe('canonical addresses', () => {
    it('serve topic, forum and profile pages with an absolute canonical link (200)', async () => {
      for (const path of [`/topic/hello-world.${topic.id}/`, `/forum/general-talk.${forum.id}/`, `/profile/bob-routes.${bob.id}/`]) {
        const response = await get(path);
        assert.equal(response.statusCode, 200, path);
        assert.match(response.headers['content-type'] as string, /^text\/html/);
        assert.equal(canonicalOf(response.body), `http://localhost${path}`, path);
      }
    });

    it('use the configured BASE_URL in the canonical link', async () => {
      const other = await db.start({ env: { BASE_URL: 'https://forum.example.org' } });
      try {
        const f = await createForum(other, 'Based');
        const response = await other.app.inject({ url: `/forum/based.${f.id}/` });
        assert.equal(canonicalOf(response.body), `https://forum.example.org/forum/based.${f.id}/`);
      } finally {
        await other.close();
      }
    });

    it('answer HEAD like GET, without a body', async () => {
      const response = await get(`/topic/hello-world.${topic.id}/`, 'HEAD');
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
    });
  });

  describe('redirects (301, query kept)', () => {
    it('a stale or wrong slug goes to the current one: the id alone selects the topic', async () => {
      for (const slug of ['old-title', 'anything-at-all', 'Hello-World']) {
        const response = await get(`/topic/${slug}.${topic.id}/?page=1&highlight=a%20b`);
        assert.equal(response.statusCode, 301, slug);
        assert.equal(response.headers.location, `/topic/hello-world.${topic.id}/?page=1&highlight=a%20b`, slug);
      }
    });

    it('a missing trailing slash goes to the address with the slash', async () => {
      assert.equal((await get(`/topic/hello-world.${topic.id}`)).headers.location, `/topic/hello-world.${topic.id}/`);
      assert.equal((await get(`/topic/hello-world.${topic.id}?start=20`)).headers.location, `/topic/hello-world.${topic.id}/?start=20`);
      assert.equal((await get(`/forum/general-talk.${forum.id}`)).headers.location, `/forum/general-talk.${forum.id}/`);
      assert.equal((await get(`/profile/bob-routes.${bob.id}`)).headers.location, `/profile/bob-routes.${bob.id}/`);
      assert.equal((await get('/register')).headers.location, '/register/');
      assert.equal((await get('/password-recovery?x=1')).headers.location, '/password-recovery/?x=1');
      for (const path of [`/topic/hello-world.${topic.id}`, '/register']) assert.equal((await get(path)).statusCode, 301, path);
    });

    it('a missing slash and a stale slug together take one redirect', async () => {
      const response = await get(`/topic/stale.${topic.id}`);
      assert.equal(response.statusCode, 301);
      assert.equal(response.headers.location, `/topic/hello-world.${topic.id}/`);
    });

    it('the empty-slug form /topic/.{id}/ resolves: 301 to the real slug', async () => {
      const response = await get(`/topic/.${topic.id}/`);
      assert.equal(response.statusCode, 301);
      assert.equal(response.headers.location, `/topic/hello-world.${topic.id}/`);
    });

    it('a title without letters or digits has the empty slug, and /topic/.{id}/ is its canonical page', async () => {
      const party = await createTopic(t, alice.user, forum, '🎉 !!! 🎉');
      const response = await get(`/topic/.${party.id}/`);
      assert.equal(response.statusCode, 200);
      assert.equal(canonicalOf(response.body), `http://localhost/topic/.${party.id}/`);
      assert.equal((await get(`/topic/party.${party.id}/`)).headers.location, `/topic/.${party.id}/`);
    });

    it('a renamed topic moves: the old address answers 301 to the new one', async () => {
      const renamed = await createTopic(t, alice.user, forum, 'First Name');
      await t.services.forum.renameTopic(renamed.id, { id: alice.user.id, name: alice.user.username, email: alice.user.email, role: 'user' }, 'Second Name');
      const response = await get(`/topic/first-name.${renamed.id}/?post=1`);
      assert.equal(response.statusCode, 301);
      assert.equal(response.headers.location, `/topic/second-name.${renamed.id}/?post=1`);
    });

    it('slugs come from the displayed title: replacement rules apply, as in the JSON API url', async () => {
      await createRule(t, 'heckroute', 'replace', ['topics'], 'goshroute');
      const replaced = await createTopic(t, alice.user, forum, 'What the heckroute');
      const api = await t.app.inject({ url: `/api/topics/${replaced.id}` });
      assert.equal(api.json().data.url, `/topic/what-the-goshroute.${replaced.id}/`);
      const page = await get(`/topic/what-the-goshroute.${replaced.id}/`);
      assert.equal(page.statusCode, 200);
      assert.equal(dom(page).text('h1'), 'What the goshroute');
      assert.equal((await get(`/topic/what-the-heckroute.${replaced.id}/`)).headers.location, `/topic/what-the-goshroute.${replaced.id}/`);
    });

    it('titles in other scripts get transliterated slugs', async () => {
      const russian = await createTopic(t, alice.user, forum, 'Привет, мир');
      assert.equal((await get(`/topic/.${russian.id}/`)).headers.location, `/topic/privet-mir.${russian.id}/`);
      assert.equal((await get(`/topic/privet-mir.${russian.id}/`)).statusCode, 200);
    });
  });

  describe('unknown addresses (404 page)', () => {
    it('unknown ids, malformed segments and ids out of range', async () => {
      for (const path of [
        '/topic/hello.999999/',
        '/forum/x.999999/',
        '/profile/x.999999/',
        '/profile/x.999999/email/',
        `/topic/hello-world/`,
        `/topic/hello-world.0${topic.id}/`,
        '/topic/x.0/',
        '/topic/x.2147483648/',
        '/topic/x.-1/',
        '/topic/x.1e3/',
      ]) {
        const response = await get(path);
        assert.equal(response.statusCode, 404, path);
        assert.match(response.headers['content-type'] as string, /^text\/html/, path);
        assert.equal(dom(response).text('h1'), 'Not found', path);
      }
    });

    it('a pending (unactivated) account has no profile', async () => {
      const pending = await createUser(t, { name: 'Not Yet', status: 'pending' });
      assert.equal((await get(`/profile/not-yet.${pending.id}/`)).statusCode, 404);
    });

    it('a topic waiting for moderation is a 404 for guests', async () => {
      await createRule(t, 'holdroute', 'moderate', ['topics']);
      const held = await createTopic(t, alice.user, forum, 'Please holdroute');
      assert.equal((await get(`/topic/please-holdroute.${held.id}/`)).statusCode, 404);
      assert.equal((await alice.browser.get(`/topic/please-holdroute.${held.id}/`)).status, 200);
    });
  });

  describe('methods', () => {
    it('pages without a form render for any method, like GET', async () => {
      const path = `/profile/bob-routes.${bob.id}/`;
      await alice.browser.get(path);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const response = await alice.browser.request(method, path, { _csrf: alice.browser.csrf! });
        assert.equal(response.status, 200, method);
        assert.equal(dom(response).text('h1'), 'Bob Routes', method);
      }
      assert.equal((await t.app.inject({ method: 'OPTIONS', url: path })).statusCode, 200);
    });

    it('a state-changing method without the CSRF token is refused (403)', async () => {
      const response = await alice.browser.request('POST', `/topic/hello-world.${topic.id}/`, { _csrf: 'forged-token-value-123', body: 'Sneaky' });
      assert.equal(response.status, 403);
    });

    it('a form posted to a stale slug is processed there, not redirected, with a canonical Link header', async () => {
      await alice.browser.get(`/topic/hello-world.${topic.id}/`);
      const response = await alice.browser.post(`/topic/stale-slug.${topic.id}/reply`, { body: 'Posted to a stale address' });
      assert.equal(response.status, 303);
      assert.match(response.location!, new RegExp(`^/topic/hello-world\\.${topic.id}/\\?post=\\d+#post-\\d+$`));
      assert.equal(response.headers['link'], `<http://localhost/topic/hello-world.${topic.id}/reply/>; rel="canonical"`);
    });
  });

  describe('legacy URLs', () => {
    it('viewtopic, viewforum and viewprofile answer 301 to the semantic URL, keeping the other parameters', async () => {
      const cases: Array<[string, string]> = [
        [`/viewtopic?t=${topic.id}&start=20`, `/topic/hello-world.${topic.id}/?start=20`],
        [`/viewtopic.php?t=${topic.id}`, `/topic/hello-world.${topic.id}/`],
        [`/viewtopic.php?start=50&t=${topic.id}&hilit=x`, `/topic/hello-world.${topic.id}/?start=50&hilit=x`],
        [`/viewforum?f=${forum.id}`, `/forum/general-talk.${forum.id}/`],
        [`/viewforum.php?f=${forum.id}&page=2`, `/forum/general-talk.${forum.id}/?page=2`],
        [`/profile?mode=viewprofile&u=${bob.id}`, `/profile/bob-routes.${bob.id}/`],
        [`/profile.php?mode=viewprofile&u=${bob.id}&tab=posts`, `/profile/bob-routes.${bob.id}/?tab=posts`],
        [`/profile.php?mode=email&u=${bob.id}`, `/profile/bob-routes.${bob.id}/email/`],
      ];
      for (const [legacy, target] of cases) {
        const response = await get(legacy);
        assert.equal(response.statusCode, 301, legacy);
        assert.equal(response.headers.location, target, legacy);
      }
      assert.equal((await get(`/viewtopic?t=${topic.id}`, 'HEAD')).statusCode, 301);
    });

    it('the account modes of /profile go to their new pages', async () => {
      const cases: Array<[string, string]> = [
        ['/profile?mode=register', '/register/'],
        ['/profile.php?mode=register&ref=home', '/register/?ref=home'],
        ['/profile?mode=editprofile', '/settings/'],
        ['/profile?mode=sendpassword', '/password-recovery/'],
        ['/profile?mode=bonus', '/profile/bonus/'],
        ['/profile?mode=watch', '/profile/watchlist/'],
        [`/profile?mode=activate&u=${bob.id}&k=abc123`, `/activate/${bob.id}/abc123/`],
      ];
      for (const [legacy, target] of cases) {
        const response = await get(legacy);
        assert.equal(response.statusCode, 301, legacy);
        assert.equal(response.headers.location, target, legacy);
      }
    });

    it('a legacy URL naming nothing is a 404 page', async () => {
      for (const path of [
        '/viewtopic',
        '/viewtopic?t=abc',
        '/viewtopic.php?t=999999',
        '/viewforum?f=999999',
        '/profile?mode=viewprofile&u=999999',
        '/profile?mode=nope',
        '/profile.php',
        '/profile?mode=activate&u=1',
      ]) {
        const response = await get(path);
        assert.equal(response.statusCode, 404, path);
        assert.equal(dom(response).text('h1'), 'Not found', path);
      }
    });

    it('a reply POSTed to /viewtopic.php?t= is not saved: the page shows it again in the reply form (400), with a canonical Link header', async () => {
      await alice.browser.get(`/topic/hello-world.${topic.id}/`);
      const before = (await t.services.forum.getTopic(topic.id, null)).posts_count;
      const response = await alice.browser.post(`/viewtopic.php?t=${topic.id}`, { body: 'Replying through the old address' });
      assert.equal(response.status, 400);
      assert.equal(response.headers['link'], `<http://localhost/topic/hello-world.${topic.id}/>; rel="canonical"`);
      assert.match(dom(response).textContent, /This form came from an older version of this page, so nothing was saved/);
      assert.equal(dom(response).fields(`form[action="/topic/hello-world.${topic.id}/reply/"]`)['body'], 'Replying through the old address');
      assert.equal((await t.services.forum.getTopic(topic.id, null)).posts_count, before);
    });

    it('a registration POSTed to /profile.php?mode=register is processed like /register/', async () => {
      const guest = new Browser(t);
      await guest.get('/register/');
      const response = await guest.post('/profile.php?mode=register', {
        username: 'Legacy Lou',
        email: 'legacy.lou@example.test',
        password: 'long enough',
        password_confirmation: 'long enough',
      });
      assert.equal(response.status, 200);
      assert.match(dom(response).text('main'), /Check your mail/);

      assert.equal(response.headers['link'], '<http://localhost/register/>; rel="canonical"');
      assert.equal((await mailsTo(t, 'legacy.lou@example.test')).length, 1);
    });

    it('a POST to a legacy page without a form renders it with the Link header', async () => {
      const viewer = await signIn(t);
      const response = await t.app.inject({ method: 'POST', url: `/profile?mode=viewprofile&u=${bob.id}`, headers: viewer.headers });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['link'], `<http://localhost/profile/bob-routes.${bob.id}/>; rel="canonical"`);
    });
  });
});
