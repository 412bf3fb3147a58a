// GET /api/search (docs/search.md) on each database: ranking, snippets,
// filters, paging, visibility of pending posts, the index kept in step with
// every write, Cyrillic, CJK and accented text, and refused queries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import { sql } from 'kysely';
import { parseQuery } from '../../src/forum/search/query.ts';
import { stem } from '../../src/forum/search/text.ts';
import { SEARCH_CANDIDATES, SearchRepository, type SearchFilters } from '../../src/forum/search/repository.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { TestClock } from '../helpers/clock.ts';
import { createForum, createRule } from '../helpers/forum.ts';
import { numberAllPositions } from '../../src/forum/post-positions.ts';

interface Result {
  post_id: number;
  url: string;
  topic: { id: number; title: string; url: string };
  forum: { id: number; name: string; url: string };
  author: { id: number; name: string } | null;
  status: string;
  snippet_html: string;
  score: number;
  created_at: string;
}

interface Answer {
  success: boolean;
  data: Result[];
  meta: { current_page: number; per_page: number; total: number; total_pages: number };
}

describeEachDatabase('search API', (db) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let moderator: SignedIn;
  let general: ForumRow;
  let trackers: ForumRow;
  const clock = new TestClock('2025-01-01T10:00:00.000Z');

  async function search(query: Record<string, string | number>, who: SignedIn | null = null) {
    const params = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
    const response = await t.app.inject({ method: 'GET', url: `/api/search?${params}`, headers: who?.headers ?? {} });
    return { status: response.statusCode, body: response.json() as Answer & { message?: string; errors?: Record<string, string[]> } };
  }

  async function found(query: Record<string, string | number>, who: SignedIn | null = null): Promise<number[]> {
    const answer = await search(query, who);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data.map((result) => result.post_id);
  }

  async function topic(author: SignedIn, forum: ForumRow, title: string, body: string): Promise<{ topic: TopicWithAuthor; postId: number }> {
    clock.advance(60_000);
    const created = await t.services.forum.createTopic(author.user, { forum_id: forum.id, title, body });
    const posts = await t.services.forum.listPosts(created.id, author.user, { page: 1, perPage: 1, offset: 0 });
    return { topic: created, postId: posts.rows[0]!.id };
  }

  async function replyTo(author: SignedIn, to: TopicWithAuthor, body: string): Promise<number> {
    clock.advance(60_000);
    return (await t.services.forum.reply(to.id, author.user, body)).id;
  }

  before(async () => {
    // Tokens outlive the dates the filter tests move the clock to.
    t = await db.start({ clock, env: { TOKEN_TTL_DAYS: '3650' } });
    alice = await signIn(t, 'user', 'alice');
    bob = await signIn(t, 'user', 'bob');
    moderator = await signIn(t, 'moderator', 'mod');
    general = await createForum(t, 'General');
    trackers = await createForum(t, 'Trackers');
  });
  after(() => t.close());

  describe('finding and ranking', () => {
    let titled: { topic: TopicWithAuthor; postId: number };
    let inText: number;

    before(async () => {
      titled = await topic(alice, general, 'Seeding tips for beginners', 'Keep the client open after the download finishes.');
      inText = await replyTo(bob, titled.topic, 'Good seeding needs an open port. [b]Forward[/b] it in the router.');
    });

    it('finds a word in titles and texts, a title match ranked first', async () => {
      const answer = await search({ search: 'seeding' });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.success, true);
      assert.deepEqual(
        answer.body.data.map((r) => r.post_id),
        [titled.postId, inText],
      );
      assert.ok(answer.body.data[0]!.score > answer.body.data[1]!.score);
      assert.deepEqual(answer.body.meta, { current_page: 1, per_page: 50, total: 2, total_pages: 1 });
    });

    it('answers each result with its topic, forum, author, link and a snippet with the words marked', async () => {
      const { body } = await search({ search: 'forward router' });
      assert.equal(body.data.length, 1);
      const [result] = body.data;
      assert.equal(result!.post_id, inText);
      assert.equal(result!.topic.id, titled.topic.id);
      assert.equal(result!.topic.title, 'Seeding tips for beginners');
      assert.match(result!.topic.url, /^\/topic\/seeding-tips-for-beginners\.\d+\/$/);
      assert.equal(result!.url, `${result!.topic.url}?post=${inText}#post-${inText}`);
      assert.deepEqual(result!.forum, { id: general.id, name: 'General', url: `/forum/general.${general.id}/` });
      assert.equal(result!.author?.name, 'bob');
      assert.equal(result!.snippet_html, 'Good seeding needs an open port. <mark>Forward</mark> it in the <mark>router</mark>.');
    });

    it('requires every word, matches phrases in order, prefixes and leaves out excluded words', async () => {
      assert.deepEqual(await found({ search: 'seeding router' }), [inText]);
      assert.deepEqual(await found({ search: '"open port"' }), [inText]);
      assert.deepEqual(await found({ search: '"port open"' }), []);
      assert.deepEqual(await found({ search: '"needs an open port"' }), [inText]);
      assert.deepEqual(await found({ search: 'needs-an-ope*' }), [inText]);
      assert.deepEqual(await found({ search: '"needs open port"' }), []);
      assert.deepEqual(await found({ search: '"an open port forward"' }), [inText]);
      assert.deepEqual(await found({ search: '"beginners keep"' }), []);
      assert.deepEqual(await found({ search: 'rout*' }), [inText]);
      assert.deepEqual(await found({ search: 'seeding -router' }), [titled.postId]);
      assert.deepEqual(await found({ search: 'nothing-like-this' }), []);
    });

    it('searches topic titles only when asked', async () => {
      assert.deepEqual(await found({ search: 'seeding', in: 'titles' }), [titled.postId]);
      assert.deepEqual(await found({ search: 'router', in: 'titles' }), []);
    });

    it('sorts by date, newest first or oldest first', async () => {
      assert.deepEqual(await found({ search: 'seeding', sort: 'date' }), [inText, titled.postId]);
      assert.deepEqual(await found({ search: 'seeding', sort: 'date', order: 'asc' }), [titled.postId, inText]);
    });
  });

  describe('languages', () => {
    it('finds Cyrillic text in any case, ё as е', async () => {
      const { postId } = await topic(alice, general, 'Раздача фильмов', 'Ёлка в Новогоднюю ночь: качайте быстрее!');
      assert.deepEqual(await found({ search: 'ЕЛКА' }), [postId]);
      assert.deepEqual(await found({ search: 'новогоднюю' }), [postId]);
      assert.deepEqual(await found({ search: 'раздача' }), [postId]);
      assert.deepEqual(await found({ search: 'быстр*' }), [postId]);
    });

    it('finds other forms of English and Russian words, in phrases too, and marks them', async () => {
      const english = await topic(alice, general, 'New release', 'Releasing the generation of zephyr gateways tonight.');
      const russian = await topic(alice, general, 'Шрифты', 'Раздачи шрифтов: кириллицы и латиница.');
      assert.deepEqual(await found({ search: 'releases' }), [english.postId]);
      assert.deepEqual(await found({ search: 'released generations' }), [english.postId]);
      assert.deepEqual(await found({ search: '"zephyr gateway"' }), [english.postId]);
      assert.deepEqual(await found({ search: 'кириллица' }), [russian.postId]);
      assert.deepEqual(await found({ search: '"раздача шрифта"' }), [russian.postId]);
      assert.deepEqual(await found({ search: '"gateway zephyr"' }), [], 'a phrase keeps its order');
      // A prefix is matched against the words as written: "generation" is stemmed to "generat" … and "gener*" too.
      assert.deepEqual(await found({ search: 'generati*' }), [english.postId]);
      assert.deepEqual(await found({ search: 'кирилл*' }), [russian.postId]);
      const { body } = await search({ search: 'release кириллица' });
      assert.deepEqual(body.data, []);
      const marked = await search({ search: 'releases' });
      assert.match(marked.body.data[0]!.snippet_html, /<mark>Releasing<\/mark>/);
    });

    it('stems as PostgreSQL’s own english and russian dictionaries do', async (context) => {
      if (db.kind !== 'postgres') return context.skip('PostgreSQL’s dictionaries');
      const words = {
        english_stem: 'releases generation generously connection dying skies news agreed happiness subtitles episodes seeding'.split(' '),
        russian_stem: 'кириллица кириллицей раздачами фильмов скачивание сидирование трекеров новогоднюю быстрее озвучка сезона обновления'.split(' '),
      };
      for (const [dictionary, list] of Object.entries(words)) {
        const { rows } = await sql<{
          word: string;
          stems: string[];
        }>`select word, ts_lexize(${dictionary}, word) as stems from unnest(${list}::text[]) as word`.execute(t.database.db);
        for (const row of rows) assert.equal(stem(row.word), row.stems[0], `${dictionary}: ${row.word}`);
      }
    });

    it('finds Chinese and Japanese words inside unbroken text', async () => {
      const { postId } = await topic(alice, general, 'アニメ', '東京タワーの写真を共有します。中文字幕也有。');
      assert.deepEqual(await found({ search: '東京' }), [postId]);
      assert.deepEqual(await found({ search: 'タワー' }), [postId]);
      assert.deepEqual(await found({ search: '字幕' }), [postId]);
      assert.deepEqual(await found({ search: '京東' }), []);
      const { body } = await search({ search: 'タワー' });
      assert.match(body.data[0]!.snippet_html, /<mark>タ<\/mark><mark>ワ<\/mark><mark>ー<\/mark>/);
    });

    it('finds accented words without their accents, and the other way round', async () => {
      const { postId } = await topic(alice, general, 'Café crème', 'Naïve résumé of the Zürich meetup.');
      assert.deepEqual(await found({ search: 'cafe' }), [postId]);
      assert.deepEqual(await found({ search: 'zurich resume' }), [postId]);
      assert.deepEqual(await found({ search: 'naïve' }), [postId]);
    });
  });

  describe('filters and paging', () => {
    let inTrackers: number;
    let old: number;

    before(async () => {
      clock.set('2025-01-10T08:00:00.000Z');
      old = (await topic(bob, general, 'Filterword in January', 'filterword')).postId;
      clock.set('2026-04-01T08:00:00.000Z');
      inTrackers = (await topic(alice, trackers, 'Filterword in April', 'filterword')).postId;
    });

    it('filters by forum, author and days', async () => {
      assert.deepEqual(await found({ search: 'filterword', forum_id: trackers.id }), [inTrackers]);
      assert.deepEqual(await found({ search: 'filterword', author: 'BOB' }), [old]);
      assert.deepEqual(await found({ search: 'filterword', from: '2026-01-01' }), [inTrackers]);
      assert.deepEqual(await found({ search: 'filterword', to: '2025-01-10' }), [old]);
      assert.deepEqual(await found({ search: 'filterword', from: '2025-01-11', to: '2026-03-31' }), []);
    });

    it('pages through many results with the collection envelope', async () => {
      const many = await topic(alice, general, 'Paging', 'pagingword 0');
      for (let n = 1; n < 7; n++) await replyTo(alice, many.topic, `pagingword ${n}`);
      const first = await search({ search: 'pagingword', sort: 'date', order: 'asc', per_page: 3 });
      assert.deepEqual(first.body.meta, { current_page: 1, per_page: 3, total: 7, total_pages: 3 });
      const third = await search({ search: 'pagingword', sort: 'date', order: 'asc', per_page: 3, page: 3 });
      assert.equal(third.body.data.length, 1);
      const beyond = await search({ search: 'pagingword', per_page: 3, page: 9 });
      assert.deepEqual(beyond.body.data, []);
      assert.equal(beyond.body.meta.total, 7);
    });
  });

  describe('what each reader sees', () => {
    let heldPost: number;
    let heldTopic: { topic: TopicWithAuthor; postId: number };

    before(async () => {
      await createRule(t, 'holdme', 'moderate', ['posts']);
      const open = await topic(alice, general, 'Visible topic', 'secretword in public');
      heldPost = await replyTo(bob, open.topic, 'secretword holdme');
      heldTopic = await topic(bob, general, 'Held topic secretword', 'holdme too');
    });

    it('shows pending posts and topics to their author and moderators only', async () => {
      assert.equal((await found({ search: 'secretword' })).length, 1);
      assert.equal((await found({ search: 'secretword' }, alice)).length, 1);
      assert.deepEqual(new Set(await found({ search: 'secretword' }, bob)), new Set([heldPost, heldTopic.postId, (await found({ search: 'secretword' }))[0]]));
      assert.equal((await found({ search: 'secretword' }, moderator)).length, 3);
      const answer = await search({ search: 'holdme' }, moderator);
      assert.ok(answer.body.data.every((r) => r.status === 'pending'));
    });
  });

  describe('the index follows every write', () => {
    it('finds an edited post by its new words only, a renamed topic by its new title, and nothing once deleted', async () => {
      const made = await topic(alice, general, 'Oldtitleword here', 'firstversionword');
      const replyId = await replyTo(alice, made.topic, 'replyversionword');
      await t.services.forum.editPost(replyId, alice.user, 'editedversionword');
      assert.deepEqual(await found({ search: 'replyversionword' }), []);
      assert.deepEqual(await found({ search: 'editedversionword' }), [replyId]);

      await t.services.forum.renameTopic(made.topic.id, alice.user, 'Newtitleword here');
      assert.deepEqual(await found({ search: 'oldtitleword' }), []);
      assert.deepEqual(await found({ search: 'newtitleword' }), [made.postId]);
      assert.deepEqual(await found({ search: 'firstversionword' }), [made.postId]);

      await t.services.forum.deletePost(replyId, alice.user);
      assert.deepEqual(await found({ search: 'editedversionword' }), []);
      await t.services.forum.deleteTopic(made.topic.id, moderator.user);
      assert.deepEqual(await found({ search: 'firstversionword' }), []);
      assert.deepEqual(await found({ search: 'newtitleword' }), []);
    });

    it('indexes posts written before the index existed, in the background after start-up', async () => {
      const made = await topic(alice, general, 'Backfilled', 'backfillword');
      // As if the post predated the index: its entry gone, the backfill range covering it.
      await t.database.db
        .deleteFrom('post_search')
        .where(db.kind === 'postgres' ? 'post_id' : 'rowid', '=', made.postId)
        .execute();
      assert.deepEqual(await found({ search: 'backfillword' }), []);
      await t.database.db.updateTable('search_backfill').set({ next_post_id: made.postId, last_post_id: made.postId }).execute();
      assert.equal(await t.services.searchBackfill.run(), 1);
      assert.deepEqual(await found({ search: 'backfillword' }), [made.postId]);
      assert.equal(await t.services.searchBackfill.run(), 0);
    });
  });

  describe('the candidate cap', () => {
    it('ranks at most the newest 1,000 matches: total says 1,000 and older matches are left out', async () => {
      const made = await topic(alice, general, 'Capped', 'capword first');
      const at = clock.now().toISOString();
      const rows = Array.from({ length: SEARCH_CANDIDATES + 4 }, (_, n) => ({
        topic_id: made.topic.id,
        author_id: alice.user.id,
        body: `capword ${n}`,
        status: 'published' as const,
        held_by_filter_id: null,
        created_at: at,
        updated_at: at,
      }));
      for (let start = 0; start < rows.length; start += 200)
        await t.database.db
          .insertInto('posts')
          .values(rows.slice(start, start + 200))
          .execute();
      await numberAllPositions(t.database.db);
      const { last } = await t.database.db
        .selectFrom('posts')
        .select((eb) => eb.fn.max<number>('id').as('last'))
        .executeTakeFirstOrThrow();
      await t.database.db
        .updateTable('search_backfill')
        .set({ next_post_id: made.postId + 1, last_post_id: last })
        .execute();
      await t.services.searchBackfill.run();

      const newest = await search({ search: 'capword', sort: 'date', per_page: 100, page: 10 });
      assert.deepEqual(newest.body.meta, { current_page: 10, per_page: 100, total: SEARCH_CANDIDATES, total_pages: 10 });
      assert.ok(!newest.body.data.some((result) => result.post_id === made.postId), 'the oldest match is past the newest 1,000');
      const oldest = await search({ search: 'capword', sort: 'date', order: 'asc', per_page: 1 });
      assert.equal(oldest.body.data[0]!.post_id, made.postId);
      const ranked = await search({ search: 'capword', per_page: 5 });
      assert.equal(ranked.body.meta.total, SEARCH_CANDIDATES);
      assert.ok(ranked.body.data.every((result) => result.post_id > made.postId + 4));
    });
  });

  describe('ranges of post ids (PostgreSQL)', () => {
    it('finds, filters and orders the same matches taken range by range as in one query', async () => {
      const made = await topic(alice, general, 'Windows', 'windowword opening');
      const elsewhere = await topic(bob, trackers, 'Elsewhere', 'windowword in another forum');
      for (let n = 0; n < 40; n++)
        await replyTo(n % 2 === 0 ? alice : bob, n % 5 === 0 ? elsewhere.topic : made.topic, n % 3 === 0 ? `windowword ${n}` : `otherword ${n}`);
      const held = await createRule(t, 'windowhold', 'moderate', ['posts']);
      const pending = await replyTo(bob, made.topic, 'windowword windowhold');
      assert.equal((await t.database.db.selectFrom('posts').select('status').where('id', '=', pending).executeTakeFirstOrThrow()).status, 'pending');
      await t.services.wordFilters.delete(held.id);

      const parsed = parseQuery('windowword');
      assert.ok(parsed.ok);
      // The index written again with ranges of 4 ids; `whole` (ranges of 16,384) asks in one query, `ranged` range by range.
      const whole = new SearchRepository(t.database.db, t.database.dialect);
      const ranged = new SearchRepository(t.database.db, t.database.dialect, 4);
      const { last } = await t.database.db
        .selectFrom('posts')
        .select((eb) => eb.fn.max<number>('id').as('last'))
        .executeTakeFirstOrThrow();
      const everyPost = Array.from({ length: last }, (_, n) => n + 1);
      await ranged.refresh(t.database.db, everyPost);
      const noFilters: SearchFilters = { in: 'all', forumId: null, authorId: null, from: null, until: null };
      try {
        for (const [filters, visibility, sort, order] of [
          [noFilters, { viewerId: null, seesAllPending: false, forums: null }, 'date', 'desc'],
          [noFilters, { viewerId: bob.user.id, seesAllPending: false, forums: null }, 'date', 'asc'],
          [noFilters, { viewerId: null, seesAllPending: true, forums: null }, 'relevance', 'desc'],
          [{ ...noFilters, forumId: general.id }, { viewerId: null, seesAllPending: false, forums: null }, 'date', 'desc'],
          [{ ...noFilters, authorId: bob.user.id }, { viewerId: bob.user.id, seesAllPending: false, forums: null }, 'relevance', 'asc'],
          // Only the forums one may read (docs/access.md): the general forum's matches and no other's, counted so too.
          [noFilters, { viewerId: null, seesAllPending: false, forums: [general.id] }, 'date', 'desc'],
        ] as const) {
          const expected = await whole.find(parsed.query, filters, visibility, sort, order, 0, 100);
          assert.ok(expected.total > 8, 'more matches than two small ranges hold');
          assert.equal(
            expected.rows.some((row) => row.id === pending),
            visibility.seesAllPending || visibility.viewerId === bob.user.id,
            'a pending post is found by its author and moderators only',
          );
          const scope: readonly number[] | null = visibility.forums;
          if (scope !== null)
            assert.ok(
              expected.rows.every((row) => scope.includes(row.forum_id)),
              'only the readable forums',
            );
          assert.deepEqual(await ranged.find(parsed.query, filters, visibility, sort, order, 0, 100), expected);
          assert.deepEqual(await ranged.find(parsed.query, filters, visibility, sort, order, 2, 3), { rows: expected.rows.slice(2, 5), total: expected.total });
        }
      } finally {
        await whole.refresh(t.database.db, everyPost);
      }
    });
  });

  describe('refused queries', () => {
    it('answers 422 with the field for an empty, blank, symbol-only, exclusion-only or too long query', async () => {
      for (const value of ['', '   ', '!!! ???', '-onlyexcluded', 'x'.repeat(201)]) {
        const answer = await search({ search: value });
        assert.equal(answer.status, 422, value);
        assert.ok(answer.body.errors?.search, value);
      }
      const missing = await t.app.inject({ method: 'GET', url: '/api/search' });
      assert.equal(missing.statusCode, 422);
    });

    it('refuses unknown forums and members, impossible days and a reversed range', async () => {
      assert.ok((await search({ search: 'a', forum_id: 999999 })).body.errors?.forum_id);
      assert.ok((await search({ search: 'a', author: 'nobody-here' })).body.errors?.author);
      assert.ok((await search({ search: 'a', from: '2026-02-30' })).body.errors?.from);
      assert.ok((await search({ search: 'a', from: '2026-05-02', to: '2026-05-01' })).body.errors?.to);
      assert.equal((await search({ search: 'a', sort: 'popularity' })).status, 422);
      assert.equal((await search({ search: 'a', forum_id: 'x' })).status, 422);
    });

    it('takes query syntax as plain words: no operator of either database reaches it', async () => {
      for (const value of ['NEAR(a b)', 'a OR b', 'title:a', "a' | b", 'a & !b', '^a', '"unclosed', '*', 'a:*', '{title}: x', 'a AND', '-"a b"']) {
        const answer = await search({ search: value });
        assert.ok(answer.status === 200 || answer.status === 422, `${value}: ${answer.status}`);
      }
    });
  });
});
