// Unread tracking (docs/unread.md): what a member has not read, shown on the
// topic lists, the forum index and the watchlist, with a link to the first
// unread post; marked read by viewing a topic page or by the mark-read forms
// and endpoints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { Browser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/clock.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createRule, createTopic, loggedIn, reply, type Member } from '../helpers/forum.ts';

interface Reader extends Member {
  headers: Record<string, string>;
}

interface TopicItem {
  id: number;
  title: string;
  unread: boolean | null;
  unread_posts: number | null;
  first_unread_url: string | null;
}

describeEachDatabase('unread tracking', (db) => {
  let t: TestApp;
  let alice: Reader;
  let bob: Reader;
  const clock = new TestClock('2026-05-01T12:00:00.000Z');

  /** A member with a browser session (pages) and an API token. */
  async function reader(name: string, role: 'user' | 'moderator' = 'user'): Promise<Reader> {
    const member = await loggedIn(t, { name, role });
    const issued = await t.services.auth.issueToken(member.user);
    return { ...member, headers: { authorization: `Bearer ${issued.token}` } };
  }

  async function api(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) {
    const response = await t.app.inject({ method, url, headers });
    return { status: response.statusCode, body: response.body === '' ? null : (response.json() as Record<string, unknown>) };
  }

  async function topicsOf(forum: ForumRow, who: Reader | null): Promise<Map<number, TopicItem>> {
    const response = await api('GET', `/api/forums/${forum.id}/topics`, who?.headers ?? {});
    assert.equal(response.status, 200);
    const items = (response.body as { data: TopicItem[] }).data;
    return new Map(items.map((item) => [item.id, item]));
  }

  async function topicPath(topic: { id: number }): Promise<string> {
    return (await t.services.presenter.heading(await t.services.forum.getTopic(topic.id, null))).path;
  }

  /** Posts spaced a second apart, so "newer than" never ties. */
  async function replies(author: Member, topic: TopicWithAuthor, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let n = 1; n <= count; n++) {
      clock.advance(1000);
      ids.push((await reply(t, author.user, topic, `Reply number ${n}.`)).id);
    }
    return ids;
  }

  before(async () => {
    t = await db.start({ clock });
    alice = await reader('Alice Unread');
    bob = await reader('Bob Unread');
  });
  after(() => t.close());

  describe('topic lists in the API', () => {
    it('give guests null unread fields, and members the unread posts of others with the first one', async () => {
      const forum = await createForum(t, 'Lists');
      const topic = await createTopic(t, alice.user, forum, 'Read me');
      const [first, second] = await replies(bob, topic, 2);

      const guest = (await topicsOf(forum, null)).get(topic.id)!;
      assert.deepEqual([guest.unread, guest.unread_posts, guest.first_unread_url], [null, null, null]);

      const forAlice = (await topicsOf(forum, alice)).get(topic.id)!;
      assert.equal(forAlice.unread, true);
      assert.equal(forAlice.unread_posts, 2, "her own opening post is not unread to her, Bob's two replies are");
      assert.equal(forAlice.first_unread_url, `/topic/read-me.${topic.id}/?post=${first}#post-${first}`);

      const forBob = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(forBob.unread_posts, 1, 'only the opening post is unread to Bob');

      clock.advance(1000);
      await reply(t, alice.user, topic, 'My own answer.');
      assert.equal((await topicsOf(forum, alice)).get(topic.id)!.unread_posts, 2, 'her own reply does not count');
      assert.ok(second !== undefined);
    });

    it('count the unread topics of each forum on GET /api/forums', async () => {
      const forum = await createForum(t, 'Counted');
      await createTopic(t, alice.user, forum, 'One');
      clock.advance(1000);
      await createTopic(t, alice.user, forum, 'Two');
      const list = async (who: Reader | null) => {
        const response = await api('GET', '/api/forums?per_page=100', who?.headers ?? {});
        return (response.body as { data: Array<{ id: number; unread_topics: number | null }> }).data.find((item) => item.id === forum.id)!;
      };
      assert.equal((await list(null)).unread_topics, null);
      assert.equal((await list(bob)).unread_topics, 2);
      assert.equal((await list(alice)).unread_topics, 0);
    });

    it('never count posts held for moderation for members, and do for moderators who see them', async () => {
      const forum = await createForum(t, 'Held');
      await createRule(t, 'unreadheld', 'moderate', ['posts']);
      const topic = await createTopic(t, alice.user, forum, 'Holding');
      await t.services.forum.unread.markAllRead(asAuthUser(bob.user));
      const moderator = await reader('Mo Unread', 'moderator');
      await t.services.forum.unread.markAllRead(asAuthUser(moderator.user));
      clock.advance(1000);
      await reply(t, alice.user, topic, 'This is unreadheld for now.');
      assert.equal((await topicsOf(forum, bob)).get(topic.id)!.unread, false);
      assert.equal((await topicsOf(forum, moderator)).get(topic.id)!.unread_posts, 1);
    });

    it('treat posts older than 30 days as read', async () => {
      const forum = await createForum(t, 'Old');
      const topic = await createTopic(t, alice.user, forum, 'Ancient');
      // Written 31 days ago (moving the clock instead would expire every token and session of the suite).
      const longAgo = new Date(clock.now().getTime() - 31 * 24 * 60 * 60 * 1000).toISOString();
      await t.database.db.updateTable('posts').set({ created_at: longAgo }).where('topic_id', '=', topic.id).execute();
      assert.equal((await topicsOf(forum, bob)).get(topic.id)!.unread, false);
      clock.advance(1000);
      await reply(t, alice.user, topic, 'Fresh.');
      assert.equal((await topicsOf(forum, bob)).get(topic.id)!.unread_posts, 1);
    });
  });

  describe('viewing a topic page', () => {
    it('marks it read up to the last post shown, never lowers the mark, and a new reply is unread again', async () => {
      const forum = await createForum(t, 'Paged');
      const topic = await createTopic(t, alice.user, forum, 'Long one');
      const ids = await replies(alice, topic, 55);
      const path = await topicPath(topic);

      const first = await bob.browser.get(path);
      assert.equal(first.status, 200);
      let item = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(item.unread_posts, 6, 'page one showed the first fifty posts');
      const firstOnPage2 = ids[49]!;
      assert.equal(item.first_unread_url, `${path}?post=${firstOnPage2}#post-${firstOnPage2}`);

      const jump = await bob.browser.get(`${path}unread/`);
      assert.equal(jump.status, 303);
      assert.equal(jump.location, `${path}?post=${firstOnPage2}#post-${firstOnPage2}`);

      await bob.browser.get(`${path}?page=2`);
      await bob.browser.get(path);
      item = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(item.unread, false, 'reading page 1 again does not lower the mark');
      assert.equal(item.first_unread_url, null);

      const allRead = await bob.browser.get(`${path}unread/`);
      assert.equal(allRead.location, `${path}?post=${ids.at(-1)}#post-${ids.at(-1)}`, 'all read: the last post');

      clock.advance(1000);
      const fresh = await reply(t, alice.user, topic, 'Newest.');
      item = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(item.unread_posts, 1);
      assert.equal(item.first_unread_url, `${path}?post=${fresh.id}#post-${fresh.id}`);
    });
  });

  describe('/topic/{slug}.{id}/unread/', () => {
    it('sends guests to the topic, answers stale slugs with 301 and unknown topics with 404', async () => {
      const forum = await createForum(t, 'Jumps');
      const topic = await createTopic(t, alice.user, forum, 'Jump here');
      const path = await topicPath(topic);
      const guest = new Browser(t);
      const response = await guest.get(`${path}unread/`);
      assert.equal(response.status, 303);
      assert.equal(response.location, path);
      const stale = await guest.get(`/topic/old.${topic.id}/unread/`);
      assert.equal(stale.status, 301);
      assert.equal(stale.location, `${path}unread/`);
      assert.equal((await guest.get(`${path}unread`)).status, 301, 'the trailing slash is added');
      for (const url of ['/topic/x.999999/unread/', '/topic/x.abc/unread/', '/topic/x.2147483648/unread/', '/topic/x.0/unread/']) {
        assert.equal((await bob.browser.get(url)).status, 404, url);
      }
    });

    it('sends a member to their first unread post past every mark (topic, forum, everywhere), never their own or a held one', async () => {
      const forum = await createForum(t, 'Jump marks');
      const topic = await createTopic(t, alice.user, forum, 'Jump past marks');
      const path = await topicPath(topic);
      const jump = async () => (await bob.browser.get(`${path}unread/`)).location;
      const opening = (await t.services.forum.listPosts(topic.id, null, { page: 1, perPage: 1, offset: 0 })).rows[0]!.id;
      const [first, second] = await replies(alice, topic, 2);
      assert.equal(await jump(), `${path}?post=${opening}#post-${opening}`, 'nothing read: the opening post');

      assert.equal((await api('POST', `/api/topics/${topic.id}/read?post_id=${first}`, bob.headers)).status, 204);
      assert.equal(await jump(), `${path}?post=${second}#post-${second}`, 'past the topic mark');

      assert.equal((await api('POST', `/api/forums/${forum.id}/read`, bob.headers)).status, 204);
      const [third] = await replies(alice, topic, 1);
      await replies(bob, topic, 1);
      assert.equal(await jump(), `${path}?post=${third}#post-${third}`, 'past the forum mark');

      assert.equal((await api('POST', '/api/forums/read', bob.headers)).status, 204);
      await replies(bob, topic, 1);
      await createRule(t, 'heldjump', 'moderate', ['posts']);
      clock.advance(1000);
      await reply(t, alice.user, topic, 'A heldjump reply');
      const last = await t.services.forum.listPosts(topic.id, asAuthUser(bob.user), { page: 1, perPage: 100, offset: 0 });
      const lastId = last.rows.at(-1)!.id;
      assert.equal(await jump(), `${path}?post=${lastId}#post-${lastId}`, 'past the mark everywhere, only their own and a held post: the last post');
    });
  });

  describe('POST /api/topics/{id}/read', () => {
    it('marks a topic read up to its last post or up to post_id', async () => {
      const forum = await createForum(t, 'Marked');
      const topic = await createTopic(t, alice.user, forum, 'Mark me');
      const [first, second] = await replies(alice, topic, 2);
      assert.equal((await api('POST', `/api/topics/${topic.id}/read?post_id=${first}`, bob.headers)).status, 204);
      let item = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(item.unread_posts, 1);
      assert.equal(item.first_unread_url, `/topic/mark-me.${topic.id}/?post=${second}#post-${second}`);
      assert.equal((await api('POST', `/api/topics/${topic.id}/read`, bob.headers)).status, 204);
      item = (await topicsOf(forum, bob)).get(topic.id)!;
      assert.equal(item.unread, false);
      assert.equal((await api('POST', `/api/topics/${topic.id}/read?post_id=${first}`, bob.headers)).status, 204);
      assert.equal((await topicsOf(forum, bob)).get(topic.id)!.unread, false, 'a lower post_id does not lower the mark');
    });

    it('refuses hostile input with a clear 4xx', async () => {
      const forum = await createForum(t, 'Hostile');
      const topic = await createTopic(t, alice.user, forum, 'Target');
      const elsewhere = await createTopic(t, alice.user, forum, 'Elsewhere');
      await createRule(t, 'unreadhidden', 'moderate', ['topics']);
      const hidden = await createTopic(t, alice.user, forum, 'Secret unreadhidden');
      const cases: Array<[string, Record<string, string>, number]> = [
        [`/api/topics/${topic.id}/read`, {}, 401],
        [`/api/topics/${topic.id}/read`, { authorization: 'Bearer nonsense' }, 401],
        [`/api/topics/999999/read`, bob.headers, 404],
        [`/api/topics/abc/read`, bob.headers, 404],
        [`/api/topics/2147483648/read`, bob.headers, 404],
        [`/api/topics/${hidden.id}/read`, bob.headers, 404],
        [`/api/topics/${topic.id}/read?post_id=${elsewhere.id + 1000}`, bob.headers, 422],
        [`/api/topics/${topic.id}/read?post_id=abc`, bob.headers, 422],
        [`/api/topics/${topic.id}/read?post_id=0`, bob.headers, 422],
        [`/api/topics/${topic.id}/read?post_id=-1`, bob.headers, 422],
        [`/api/topics/${topic.id}/read?post_id=99999999999`, bob.headers, 422],
      ];
      for (const [url, headers, status] of cases) {
        const response = await api('POST', url, headers);
        assert.equal(response.status, status, url);
      }
      const otherTopicsPost = (await t.services.forum.listPosts(elsewhere.id, null, { page: 1, perPage: 1, offset: 0 })).rows[0]!.id;
      const wrong = await api('POST', `/api/topics/${topic.id}/read?post_id=${otherTopicsPost}`, bob.headers);
      assert.equal(wrong.status, 422);
      assert.deepEqual(Object.keys((wrong.body as { errors: object }).errors), ['post_id']);
      assert.equal((await api('GET', `/api/topics/${topic.id}/read`, bob.headers)).status, 405);
    });
  });

  describe('POST /api/forums/{id}/read and /api/forums/read', () => {
    it('mark one forum, or every forum, read with one row each; later posts are unread again', async () => {
      const one = await createForum(t, 'Forum One');
      const two = await createForum(t, 'Forum Two');
      const a = await createTopic(t, alice.user, one, 'In one');
      const b = await createTopic(t, alice.user, two, 'In two');
      assert.equal((await api('POST', `/api/forums/${one.id}/read`, bob.headers)).status, 204);
      assert.equal((await topicsOf(one, bob)).get(a.id)!.unread, false);
      assert.equal((await topicsOf(two, bob)).get(b.id)!.unread, true, 'the other forum is untouched');

      assert.equal((await api('POST', '/api/forums/read', bob.headers)).status, 204);
      assert.equal((await topicsOf(two, bob)).get(b.id)!.unread, false);
      const rows = await t.database.db.selectFrom('read_marks').selectAll().where('user_id', '=', bob.user.id).execute();
      assert.equal(rows.length, 1);

      clock.advance(1000);
      await reply(t, alice.user, a, 'After the mark.');
      assert.equal((await topicsOf(one, bob)).get(a.id)!.unread_posts, 1);
    });

    it('refuses guests, unknown and malformed forums', async () => {
      const cases: Array<[string, Record<string, string>, number]> = [
        ['/api/forums/read', {}, 401],
        ['/api/forums/1/read', {}, 401],
        ['/api/forums/999999/read', bob.headers, 404],
        ['/api/forums/abc/read', bob.headers, 404],
        ['/api/forums/1e3/read', bob.headers, 404],
        ['/api/v1/forums/999999/read', bob.headers, 404],
      ];
      for (const [url, headers, status] of cases) assert.equal((await api('POST', url, headers)).status, status, url);
    });
  });

  describe('pages', () => {
    it('mark unread topics on the forum page, per member even when the list is cached', async () => {
      const forum = await createForum(t, 'Marked Page');
      const topic = await createTopic(t, alice.user, forum, 'Marked topic');
      await replies(alice, topic, 2);
      const forumPath = `/forum/marked-page.${forum.id}/`;
      const carol = await reader('Carol Unread', 'moderator');
      const dave = await reader('Dave Unread', 'moderator');
      // Two moderators share the cached list (same viewer kind); their markers must not.
      await carol.browser.get(await topicPath(topic));
      const carolPage = dom((await carol.browser.get(forumPath)).body);
      const davePage = dom((await dave.browser.get(forumPath)).body);
      assert.equal(carolPage.has('a.unread'), false);
      const marker = davePage.one('a.unread');
      assert.equal(marker.getAttribute('href'), `/topic/marked-topic.${topic.id}/unread/`);
      assert.match(marker.text, /^3 new posts/);
      assert.equal(dom((await new Browser(t).get(forumPath)).body).has('a.unread'), false, 'guests see no markers');

      assert.equal(davePage.one('form[action$="/mark-read/"] button').text, 'Mark this forum read');
      const marked = await dave.browser.post(`${forumPath}mark-read/`, {});
      assert.equal(marked.status, 303);
      assert.equal(marked.location, forumPath);
      assert.equal(dom((await dave.browser.get(forumPath)).body).has('a.unread'), false);
    });

    it('mark forums with unread topics on the index, and "Mark all forums read" clears them', async () => {
      const forum = await createForum(t, 'Index Marked');
      await createTopic(t, alice.user, forum, 'Index topic');
      const erin = await reader('Erin Unread');
      const index = dom((await erin.browser.get('/?page=1')).body);
      const link = index.one(`a[href="/forum/index-marked.${forum.id}/"]`);
      assert.equal(link.nextElementSibling?.getAttribute('class'), 'badge unread');
      assert.equal(link.nextElementSibling?.text, '1 topic with new posts');

      assert.equal(index.one('form[action="/mark-read/"] button').text, 'Mark all forums read');
      const marked = await erin.browser.post('/mark-read/', {});
      assert.equal(marked.status, 303);
      assert.equal(marked.location, '/');
      assert.equal(dom((await erin.browser.get('/')).body).has('.badge.unread'), false);

      // A POST to the index itself is a form of an older page: refused, nothing marked.
      assert.equal((await erin.browser.post('/', { action: 'mark-read' })).status, 400);
      const guest = new Browser(t);
      await guest.get('/login/');
      const guestPost = await guest.post('/mark-read/', {});
      assert.equal(guestPost.status, 303);
      assert.match(guestPost.location ?? '', /^\/login\//);
    });

    it('show unread counts on the watchlist', async () => {
      const forum = await createForum(t, 'Watched');
      const topic = await createTopic(t, alice.user, forum, 'Watch me');
      const frank = await reader('Frank Unread');
      await t.services.forum.watch(asAuthUser(frank.user), topic.id);
      await frank.browser.get(await topicPath(topic));
      await replies(alice, topic, 3);
      const page = dom((await frank.browser.get('/profile/watchlist/')).body);
      const marker = page.one('a.unread');
      assert.match(marker.text, /^3 new posts/);
      assert.equal(marker.getAttribute('href'), `/topic/watch-me.${topic.id}/unread/`);
    });
  });
});
