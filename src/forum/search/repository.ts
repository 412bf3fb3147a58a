// The search index's SQL (migration 0012, docs/search.md): writing a post's
// terms in the transaction that writes the post, finding posts for a query
// (ranked, filtered, only what the viewer may see), and indexing the posts that
// were written before the index existed.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/dialect.ts';
import type { ContentStatus, Database } from '../../db/schema.ts';
import { bbcodeText } from '../bbcode/bbcode.ts';
import { visible, type Visibility } from '../repository.ts';
import { fts5Match, tsqueryLiteral, type SearchIn, type SearchQuery } from './query.ts';
import { tokenize } from './text.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What the index holds of one post: its topic's title for the opening post, else null. */
export interface IndexedPost {
  id: number;
  title: string | null;
  body: string;
}

export interface SearchFilters {
  in: SearchIn;
  forumId: number | null;
  authorId: number | null;
  /** ISO timestamps: posts written at or after `from` and before `until`. */
  from: string | null;
  until: string | null;
}

export type SearchSort = 'relevance' | 'date';
export type SortOrder = 'asc' | 'desc';

export interface FoundPost {
  id: number;
  topic_id: number;
  topic_title: string;
  forum_id: number;
  forum_name: string;
  author_id: number | null;
  author_name: string | null;
  guest_name: string | null;
  body: string;
  status: ContentStatus;
  created_at: string;
  score: number;
}

/**
 * A search ranks at most this many matching posts, the newest (docs/search.md): enough to page through (20 pages of
 * 50), and what keeps a search for a word in every other post as fast as any other.
 */
export const SEARCH_CANDIDATES = 1000;

/** Title terms weigh this many times body terms in SQLite's bm25 (PostgreSQL: weight A = 1.0 against D = 0.1). */
const TITLE_WEIGHT = 10;
/** PostgreSQL keeps positions up to this and at most 256 per term. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_TERM = 256;

export class SearchRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** Writes (or rewrites) the index entries of these posts, in the caller's transaction. */
  async index(db: Db, posts: readonly IndexedPost[]): Promise<void> {
    if (posts.length === 0) return;
    const terms = posts.map((post) => ({
      id: post.id,
      title: post.title === null ? [] : tokenize(post.title).map((token) => token.term),
      body: tokenize(bbcodeText(post.body)).map((token) => token.term),
    }));
    if (this.#dialect === 'postgres') {
      await db
        .insertInto('post_search')
        .values(terms.map((post) => ({ post_id: post.id, document: sql<string>`${tsvectorLiteral(post.title, post.body)}::tsvector` })))
        .onConflict((conflict) => conflict.column('post_id').doUpdateSet({ document: (eb) => eb.ref('excluded.document') }))
        .execute();
      return;
    }
    await db
      .deleteFrom('post_search')
      .where(
        'rowid',
        'in',
        terms.map((post) => post.id),
      )
      .execute();
    await db
      .insertInto('post_search')
      .values(terms.map((post) => ({ rowid: post.id, title: post.title.join(' '), body: post.body.join(' ') })))
      .execute();
  }

  /** One page of the posts that match, best first (or as sorted), with how many match in all. */
  async find(
    query: SearchQuery,
    filters: SearchFilters,
    visibility: Visibility,
    sort: SearchSort,
    order: SortOrder,
    offset: number,
    limit: number,
  ): Promise<{ rows: FoundPost[]; total: number }> {
    const postgres = this.#dialect === 'postgres';
    const tsquery = sql`${tsqueryLiteral(query, filters.in)}::tsquery`;
    const matches: RawBuilder<boolean> = postgres ? sql`post_search.document @@ ${tsquery}` : sql`post_search match ${fts5Match(query, filters.in)}`;
    const score: RawBuilder<number> = postgres
      ? sql`ts_rank(post_search.document, ${tsquery}, 1)`
      : sql`-bm25(post_search, ${sql.lit(TITLE_WEIGHT)}, ${sql.lit(1)})`;

    // The candidates: the newest (or, for the oldest first, the oldest) matching posts this viewer may see, at most
    // SEARCH_CANDIDATES. The index hands them over in post-id order and stops there, so a common word costs no more
    // than a rare one; only they are ranked. The index drives the join (CROSS JOIN keeps SQLite from reordering it:
    // FTS5's bm25 works only in the loop that matches).
    const id = postgres ? sql.ref<number>('post_search.post_id') : sql.ref<number>('post_search.rowid');
    let candidates = this.#db
      .selectFrom('post_search')
      .crossJoin('posts')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .select([id.as('post_id'), score.as('score')])
      .whereRef('posts.id', '=', id)
      .where(matches)
      .where(visible('posts', visibility))
      .where(visible('topics', visibility));
    if (filters.forumId !== null) candidates = candidates.where('topics.forum_id', '=', filters.forumId);
    if (filters.authorId !== null) candidates = candidates.where('posts.author_id', '=', filters.authorId);
    if (filters.from !== null) candidates = candidates.where('posts.created_at', '>=', filters.from);
    if (filters.until !== null) candidates = candidates.where('posts.created_at', '<', filters.until);
    const oldestFirst = sort === 'date' && order === 'asc';
    candidates = candidates.orderBy(id, oldestFirst ? 'asc' : 'desc').limit(SEARCH_CANDIDATES);

    const found = this.#db
      .with('candidates', () => candidates)
      .selectFrom('candidates')
      .innerJoin('posts', 'posts.id', 'candidates.post_id')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .innerJoin('forums', 'forums.id', 'topics.forum_id')
      .leftJoin('users', 'users.id', 'posts.author_id');
    // Post ids follow the order posts were written in (imported ones too): the date order, without ties.
    const ordered = sort === 'relevance' ? found.orderBy('candidates.score', order).orderBy('posts.id', 'desc') : found.orderBy('posts.id', order);
    const rows = await ordered
      .select([
        'posts.id',
        'posts.topic_id',
        'topics.title as topic_title',
        'topics.forum_id',
        'forums.name as forum_name',
        'posts.author_id',
        'users.username as author_name',
        'posts.guest_name',
        'posts.body',
        'posts.status',
        'posts.created_at',
        'candidates.score',
      ])
      .select((eb) => eb.selectFrom('candidates').select(eb.fn.countAll<number>().as('total')).as('total'))
      .offset(offset)
      .limit(limit)
      .execute();
    if (rows.length > 0) return { rows: rows.map(({ total: _total, ...row }) => row), total: Number(rows[0]!.total) };
    if (offset === 0) return { rows: [], total: 0 };
    // A page past the last: no row carries the count.
    const counted = await this.#db
      .with('candidates', () => candidates)
      .selectFrom('candidates')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return { rows: [], total: Number(counted.total) };
  }

  // Backfill: posts written before the index (or by the importer).

  /** Indexes the next `batch` posts still to be indexed; returns how many ids it covered (0 when none is left). */
  async backfill(batch: number): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const state = await trx.selectFrom('search_backfill').selectAll().where('id', '=', 1).executeTakeFirst();
      if (state === undefined || state.next_post_id > state.last_post_id) return 0;
      const upTo = Math.min(state.last_post_id, state.next_post_id + batch - 1);
      await this.index(trx, await this.#indexable(trx).where('posts.id', '>=', state.next_post_id).where('posts.id', '<=', upTo).execute().then(asIndexed));
      await trx
        .updateTable('search_backfill')
        .set({ next_post_id: upTo + 1 })
        .where('id', '=', 1)
        .execute();
      return upTo - state.next_post_id + 1;
    });
  }

  /** Indexes these posts as they now are (written, edited), in the caller's transaction. */
  async refresh(db: Db, postIds: readonly number[]): Promise<void> {
    if (postIds.length === 0) return;
    await this.index(db, await this.#indexable(db).where('posts.id', 'in', postIds).execute().then(asIndexed));
  }

  /** Indexes a topic's opening post again (its title changed). */
  async refreshOpening(db: Db, topicId: number): Promise<void> {
    const opening = await db.selectFrom('posts').select('id').where('topic_id', '=', topicId).orderBy('id').limit(1).executeTakeFirst();
    if (opening !== undefined) await this.refresh(db, [opening.id]);
  }

  /** Posts with what the index needs of them: the text, the title and whether they open their topic. */
  #indexable(db: Db) {
    return db
      .selectFrom('posts')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .select(['posts.id', 'posts.body', 'topics.title'])
      .select((eb) =>
        eb
          .selectFrom('posts as opening')
          .select((inner) => inner.fn.min<number>('opening.id').as('first_id'))
          .whereRef('opening.topic_id', '=', 'posts.topic_id')
          .as('opening_id'),
      );
  }
}

function asIndexed(rows: ReadonlyArray<{ id: number; body: string; title: string; opening_id: number | null }>): IndexedPost[] {
  return rows.map((row) => ({ id: row.id, body: row.body, title: row.opening_id === row.id ? row.title : null }));
}

/**
 * A tsvector written as its literal, so that PostgreSQL stores exactly the
 * terms our tokenizer made (to_tsvector would parse them again by its own
 * rules). Title terms come first, weighted A; a gap keeps a phrase from
 * running from the title into the text.
 */
export function tsvectorLiteral(titleTerms: readonly string[], bodyTerms: readonly string[]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  const add = (term: string, weight: string): void => {
    // Past the last position every term still counts, at that position (as PostgreSQL would clamp it).
    position = Math.min(position + 1, MAX_POSITION);
    let list = positions.get(term);
    if (list === undefined) positions.set(term, (list = []));
    const at = `${position}${weight}`;
    if (list.length < MAX_POSITIONS_PER_TERM && list.at(-1) !== at) list.push(at);
  };
  for (const term of titleTerms) add(term, 'A');
  position = Math.min(position + 1, MAX_POSITION);
  for (const term of bodyTerms) add(term, '');
  return [...positions].map(([term, list]) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}':${list.join(',')}`).join(' ');
}
