// The member list (docs/members.md): post counts that follow every change of a
// post's standing, GET /api/members and the /members/ page, and TorrentPier's
// memberlist.php links.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { ForumRow } from '../../src/forum/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { createUser, signIn, type SignedIn } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { dom } from '../helpers/dom.ts';
import { asAuthUser, createForum, createRule, createTopic, reply } from '../helpers/forum.ts';
import { snapshotDifferences, snapshotTables } from '../helpers/table-snapshot.ts';
import { TestClock } from '../helpers/clock.ts';

describeEachDatabase('members', (db) => {
  let t: TestApp;
  let moderator: SignedIn;
  let forum: ForumRow;
  const clock = new TestClock();

  before(async () => {
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    moderator = await signIn(t, 'moderator', 'Members Moderator');
    forum = await createForum(t, 'Members forum');
  });
  after(() => t.close());

  const postCount = async (userId: number) => (await t.services.users.get(userId)).post_count;
  /** What the count must be: the member's published posts that are not hidden, counted from the posts. */
  const recounted = async (userId: number) => {
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from posts where author_id = ${userId} and status = 'published' and hidden_at is null`.execute(t.database.db);
    return Number(rows[0]!.n);
  };

  describe('post counts', () => {
    it('follow replies, held posts, approval, rejection, hiding, restoring and deletion', async () => {
      const author = await createUser(t, { name: 'Counted Author' });
      const counts: number[] = [];
      const check = async (expected: number) => {
        counts.push(await postCount(author.id));
        assert.equal(counts.at(-1), expected);
        assert.equal(await recounted(author.id), expected);
      };
      const topic = await createTopic(t, author, forum, 'Counted topic');
      await check(1);
      const second = await reply(t, author, topic, 'A second post');
      await check(2);

      await createRule(t, 'holdmecount', 'moderate', ['posts']);
      const held = await reply(t, author, topic, 'This holdmecount one waits');
      const rejected = await reply(t, author, topic, 'And this holdmecount one too');
      await check(2);
      await t.services.forum.approvePost(held.id, moderator.user);
      await check(3);
      await t.services.forum.rejectPost(rejected.id, moderator.user);
      await check(3);

      assert.equal((await t.app.inject({ method: 'POST', url: `/api/posts/${second.id}/hide`, headers: moderator.headers })).statusCode, 200);
      await check(2);
      assert.equal((await t.app.inject({ method: 'POST', url: `/api/posts/${second.id}/restore`, headers: moderator.headers })).statusCode, 200);
      await check(3);
      await t.services.forum.deletePost(second.id, moderator.user);
      await check(2);
      await t.services.forum.deleteTopic(topic.id, moderator.user);
      await check(0);
    });

    it('leave other members alone and survive the author’s deletion', async () => {
      const author = await createUser(t, { name: 'Leaving Author' });
      const other = await createUser(t, { name: 'Staying Author' });
      const topic = await createTopic(t, author, forum, 'Left behind');
      await reply(t, other, topic, 'A reply by another');
      await t.services.users.delete(author.id, asAuthUser(await t.services.users.get((await createUser(t, { role: 'admin' })).id)));
      assert.equal(await postCount(other.id), 1);
      const page = await t.services.forum.postsOf(await t.services.forum.getTopic(topic.id, null), null, { page: 1, perPage: 10, offset: 0 });
      assert.equal(page.total, 2, 'the posts stay, without author');
    });
  });

  describe('GET /api/members', () => {
    let names: string[];
    before(async () => {
      // Three members with distinct join times and post counts (2, 3 and 4; the topic's author has 1), and one account not yet activated.
      names = ['Zeta Lister', 'alpha lister', 'Мира Lister'];
      const topicAuthor = await createUser(t, { name: 'Lister Topics' });
      const topic = await createTopic(t, topicAuthor, forum, 'Lister posts');
      for (const [index, name] of names.entries()) {
        clock.advance(60_000);
        const member = await createUser(t, { name });
        for (let n = 0; n < index + 2; n += 1) await reply(t, member, topic, `Post ${n} by ${name}`);
      }
      await createUser(t, { name: 'Pending Lister', status: 'pending' });
    });

    const list = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/members?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { data: Array<Record<string, unknown>>; meta: { total: number; last_page: number }; links: { next: string | null } };
    };

    it('lists members to guests, oldest first, with post counts and no private fields', async () => {
      const body = await list('search=lister');
      assert.deepEqual(
        body.data.map((member) => member['name']),
        ['Lister Topics', ...names],
      );
      const mira = body.data.find((member) => member['name'] === 'Мира Lister')!;
      assert.deepEqual(Object.keys(mira).sort(), ['avatar_url', 'banned', 'id', 'joined_at', 'name', 'posts', 'url']);
      assert.equal(mira['posts'], 4);
      assert.equal(mira['url'], `/profile/mira-lister.${mira['id']}/`);
      assert.equal(body.meta.total, 4, 'the account waiting for activation is not listed');
    });

    it('sorts by name, join date or posts, each in its usual direction unless told', async () => {
      const names_ = async (query: string) => (await list(`search=lister&${query}`)).data.map((member) => member['name']);
      assert.deepEqual(await names_('sort=name'), ['alpha lister', 'Lister Topics', 'Zeta Lister', 'Мира Lister']);
      assert.deepEqual(await names_('sort=name&order=desc'), ['Мира Lister', 'Zeta Lister', 'Lister Topics', 'alpha lister']);
      assert.deepEqual(await names_('sort=posts'), ['Мира Lister', 'alpha lister', 'Zeta Lister', 'Lister Topics']);
      assert.deepEqual(await names_('sort=joined&order=desc'), [...names].reverse().concat('Lister Topics'));
    });

    it('finds names in any case and any script, and pages the list', async () => {
      assert.deepEqual(
        (await list('search=МИРА')).data.map((member) => member['name']),
        ['Мира Lister'],
      );
      assert.deepEqual((await list('search=100%25')).data, [], 'a % in the search is a character, not a wildcard');
      const first = await list('search=lister&per_page=3');
      assert.equal(first.data.length, 3);
      assert.equal(first.meta.last_page, 2);
      assert.match(first.links.next!, /page=2/);
      assert.equal((await list('search=lister&per_page=3&page=2')).data.length, 1);
    });

    it('refuses an unknown sort, a bad order or page and an overlong search with 422', async () => {
      for (const query of ['sort=email', 'order=up', 'page=0', 'per_page=1000', `search=${'x'.repeat(33)}`]) {
        const response = await t.app.inject({ method: 'GET', url: `/api/members?${query}` });
        assert.equal(response.statusCode, 422, query);
        assert.ok(Object.keys(response.json().errors).length > 0, query);
      }
    });
  });

  describe('/members/', () => {
    it('shows the members in a table with search and sort kept in the form and the page links', async () => {
      const page = await new Browser(t).get('/members/?search=lister&sort=posts');
      assert.equal(page.status, 200);
      const rows = dom(page)
        .all('table.members tbody tr')
        .map((row) => dom(row).texts('td'));
      assert.equal(rows.length, 4);
      assert.equal(rows[0]![0], 'Мира Lister');
      assert.equal(rows[0]![2], '4');
      assert.equal(dom(page).one('input[name=search]').getAttribute('value'), 'lister');
      assert.equal(dom(page).one('select[name=sort] option[selected]').getAttribute('value'), 'posts');
      assert.match(dom(page).one('p[role=status]').textContent, /^4 members$/);
      assert.ok(
        dom(page)
          .links()
          .some((link) => link.href === '/members/' && link.text === 'Members'),
        'linked from the main navigation',
      );
    });

    it('explains a bad sort with 422, says when nobody matches, and has no page past the last', async () => {
      const bad = await new Browser(t).get('/members/?sort=email');
      assert.equal(bad.status, 422);
      assert.match(dom(bad).one('main').textContent, /The list cannot be shown so/);
      const none = await new Browser(t).get('/members/?search=nobody-by-that-name');
      assert.match(dom(none).one('main').textContent, /No member’s name contains that/);
      assert.equal((await new Browser(t).get('/members/?page=9')).status, 404);
    });

    it('answers TorrentPier’s memberlist.php with a 301 to the same list', async () => {
      const response = await new Browser(t).get('/memberlist.php?mode=posts&order=DESC&username=mira&start=50');
      assert.equal(response.status, 301);
      assert.equal(response.location, '/members/?search=mira&sort=posts&order=desc');
      assert.equal((await new Browser(t).get('/memberlist.php')).location, '/members/');
    });

    it('changes no row when read', async () => {
      const before = await snapshotTables(t);
      await new Browser(t).get('/members/?search=lister');
      await t.app.inject({ method: 'GET', url: '/api/members' });
      assert.deepEqual(snapshotDifferences(before, await snapshotTables(t)), []);
    });
  });
});
