// The search index's SQL (migration 0012, docs/search.md): writing a post's
// terms in the transaction that writes the post, finding posts for a query
// (ranked, filtered, only what the viewer may see), and indexing the posts that
// were written before the index existed.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/dialect.ts';
import type { ContentStatus, Database } from '../../db/schema.ts';
import { bbcodeText } from '../bbcode/bbcode.ts';
import { inForums } from '../permissions.ts';
import { visible, type ScopedVisibility } from '../repository.ts';
import { fts5Match, quotedLexeme, tsqueryLiteral, type SearchIn, type SearchQuery } from './query.ts';
import { gram, grams, indexedTerms, prefixTerms, tokenize, type Token } from './text.ts';

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

/** PostgreSQL: how many post ids make one range, a term of each document (see #postgresCandidates). */
export const ID_RANGE = 16_384;
/** PostgreSQL: how many ranges, the newest, a search looks in first. */
const FIRST_RANGES = 2;
/**
 * PostgreSQL: a match fetched costs about as much as this many ids of the ranges asked for, which the index reads
 * whole (measured on a million posts: 55 ranges 34 ms; all 2,000 matches of the same phrase 17 ms). A search asks
 * for all that are left at once when fetching every match left should cost less than reading the ranges that
 * should hold the rest.
 */
const MATCH_COST_IN_IDS = 200;

/** A matching post this viewer may see, with its rank. */
interface Candidate {
  post_id: number;
  score: number;
}

/** Title terms weigh this many times body terms in SQLite's bm25 (PostgreSQL: weight A = 1.0 against D = 0.1). */
const TITLE_WEIGHT = 10;
/** PostgreSQL keeps positions up to this and at most 256 per term. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_TERM = 256;

export class SearchRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #idRange: number;

  /** `idRange`: how many post ids make one range of PostgreSQL's index (#postgresCandidates); tests make it small. */
  constructor(db: Kysely<Database>, dialect: Dialect, idRange = ID_RANGE) {
    this.#db = db;
    this.#dialect = dialect;
    this.#idRange = idRange;
  }

  /** Writes (or rewrites) the index entries of these posts, in the caller's transaction. */
  async index(db: Db, posts: readonly IndexedPost[]): Promise<void> {
    if (posts.length === 0) return;
    const terms = posts.map((post) => ({
      id: post.id,
      title: tokenize(post.title ?? ''),
      body: tokenize(bbcodeText(post.body)),
    }));
    if (this.#dialect === 'postgres') {
      // The post's words and pairs, and its range of post ids (#postgresCandidates).
      const document = (post: (typeof terms)[number]): string =>
        `${tsvectorLiteral(post.title, post.body)} ${quotedLexeme(rangeTerm(Math.floor(post.id / this.#idRange)))}`;
      await db
        .insertInto('post_search')
        .values(terms.map((post) => ({ post_id: post.id, document: sql<string>`${document(post)}::tsvector` })))
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
      .values(terms.map((post) => ({ rowid: post.id, title: fts5Column(post.title), body: fts5Column(post.body) })))
      .execute();
  }

  /** One page of the posts that match, best first (or as sorted), with how many match in all. */
  async find(
    query: SearchQuery,
    filters: SearchFilters,
    visibility: ScopedVisibility,
    sort: SearchSort,
    order: SortOrder,
    offset: number,
    limit: number,
  ): Promise<{ rows: FoundPost[]; total: number }> {
    const oldestFirst = sort === 'date' && order === 'asc';
    const candidates =
      this.#dialect === 'postgres'
        ? await this.#postgresCandidates(query, filters, visibility, oldestFirst)
        : await this.#sqliteCandidates(query, filters, visibility, oldestFirst);
    // Post ids follow the order posts were written in (imported ones too): the date order, without ties.
    const direction = order === 'asc' ? 1 : -1;
    const ranked =
      sort === 'relevance'
        ? candidates.sort((a, b) => direction * (a.score - b.score) || b.post_id - a.post_id)
        : candidates.sort((a, b) => direction * (a.post_id - b.post_id));
    const page = ranked.slice(offset, offset + limit);
    return { rows: await this.#details(page), total: candidates.length };
  }

  /**
   * SQLite: FTS5 hands the matches over in post-id order and the query stops at SEARCH_CANDIDATES, so a common word
   * costs no more than a rare one; only those are ranked. The index drives the join (CROSS JOIN keeps SQLite from
   * reordering it: FTS5's bm25 works only in the loop that matches).
   */
  async #sqliteCandidates(query: SearchQuery, filters: SearchFilters, visibility: ScopedVisibility, oldestFirst: boolean): Promise<Candidate[]> {
    const id = sql.ref<number>('post_search.rowid');
    // Entries written before migration 0036 hold words unstemmed until the backfill rewrites them: meanwhile each
    // clause is matched in both forms.
    const unstemmed = !(await this.#backfilled());
    return this.#db
      .selectFrom('post_search')
      .crossJoin('posts')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .select([id.as('post_id'), sql<number>`-bm25(post_search, ${sql.lit(TITLE_WEIGHT)}, ${sql.lit(1)})`.as('score')])
      .whereRef('posts.id', '=', id)
      .where(sql<boolean>`post_search match ${fts5Match(query, filters.in, unstemmed)}`)
      .where((eb) => eb.and(shownAndFiltered(filters, visibility)))
      .orderBy(id, oldestFirst ? 'asc' : 'desc')
      .limit(SEARCH_CANDIDATES)
      .execute();
  }

  /**
   * PostgreSQL: the GIN index finds every match at once, in no order, and the planner cannot know how many there will
   * be: asked for the newest 1,000 of a common word it fetched all of them (160,000 rows of a million), and it
   * sometimes walked the whole table backwards for a rare one. So each document also holds its range of post ids as a
   * term (`#61`: ids 61 × ID_RANGE and up), and the matches are taken range by range, newest first, by the index
   * alone: the query ANDs the words with the ranges wanted, so only the matches in them are ever read. First the
   * newest two ranges, then as many as should hold the rest at the rate matches came in them (with a quarter to
   * spare), then, if still short or if fetching every match left should cost less, everything older in one query
   * (documents written before the range terms existed are found there).
   */
  async #postgresCandidates(query: SearchQuery, filters: SearchFilters, visibility: ScopedVisibility, oldestFirst: boolean): Promise<Candidate[]> {
    const bounds = await this.#db
      .selectFrom('post_search')
      .select((eb) => [
        eb.fn.min<number | null>('post_id').as('first'),
        eb.fn.max<number | null>('post_id').as('last'),
        // Documents written before migrations 0025 and 0036 lack prefix terms and stems until the backfill rewrites them.
        eb
          .selectFrom('search_backfill')
          .select(sql<boolean>`next_post_id > last_post_id`.as('done'))
          .where('id', '=', 1)
          .as('indexed'),
      ])
      .executeTakeFirstOrThrow();
    if (bounds.first === null || bounds.last === null) return [];
    // Until the backfill has written every entry again (migrations 0025 and 0036), some lack the prefix terms and
    // hold words unstemmed: prefixes are matched the slow way and each clause in both forms meanwhile.
    const indexed = bounds.indexed !== false;
    const words = { match: tsqueryLiteral(query, filters.in, indexed, !indexed), rank: tsqueryLiteral(query, filters.in, false, !indexed) };
    const firstRange = Math.floor(Number(bounds.first) / this.#idRange);
    const lastRange = Math.floor(Number(bounds.last) / this.#idRange);
    const step = oldestFirst ? 1 : -1;
    const found: Candidate[] = [];
    let next = oldestFirst ? firstRange : lastRange;
    let count = FIRST_RANGES;
    let rate: number | null = null;
    while (found.length < SEARCH_CANDIDATES) {
      const left = oldestFirst ? lastRange - next + 1 : next - firstRange + 1;
      if (left <= 0) break;
      const rest = count >= left || (rate !== null && rate * left * MATCH_COST_IN_IDS < count * this.#idRange);
      const ranges = rest ? [] : Array.from({ length: count }, (_, n) => next + n * step);
      // The rest: every match, less those of the ranges already searched (by id, after matching).
      const beyond = rest ? (oldestFirst ? next * this.#idRange : (next + 1) * this.#idRange) : null;
      const rows = await this.#postgresMatches(words, ranges, beyond, oldestFirst, filters, visibility, SEARCH_CANDIDATES - found.length);
      found.push(...rows);
      if (rest) break;
      next += count * step;
      // Matches per range so far: the next ranges should hold the rest at that rate, with a quarter to spare (if they
      // fall short, the next query asks for more).
      rate = rows.length / count;
      count = rate === 0 ? Number.MAX_SAFE_INTEGER : Math.ceil((1.25 * (SEARCH_CANDIDATES - found.length)) / rate);
    }
    return found;
  }

  /**
   * The newest (or oldest) `limit` matches this viewer may see, ranked: in these ranges of post ids, or with none,
   * everywhere before (after) `beyond`. The match is the index's alone (a materialized CTE: the planner cannot turn
   * it into a walk of the table by post id); only the candidates are ranked.
   */
  async #postgresMatches(
    words: { match: string; rank: string },
    ranges: readonly number[],
    beyond: number | null,
    oldestFirst: boolean,
    filters: SearchFilters,
    visibility: ScopedVisibility,
    limit: number,
  ): Promise<Candidate[]> {
    const match = ranges.length === 0 ? words.match : `(${words.match}) & (${ranges.map((range) => quotedLexeme(rangeTerm(range))).join(' | ')})`;
    const conditions = shownAndFiltered(filters, visibility);
    if (beyond !== null) conditions.push(oldestFirst ? sql<boolean>`ordered.post_id >= ${beyond}` : sql<boolean>`ordered.post_id < ${beyond}`);
    const direction = oldestFirst ? 'asc' : 'desc';
    const rows = await this.#db
      .with(
        (cte) => cte('matched').materialized(),
        (db) =>
          db
            .selectFrom('post_search')
            .select('post_id')
            .where(sql<boolean>`document @@ ${match}::tsquery`),
      )
      // The matches in order before the join, so that the join stops at the limit: a word in 3,000 posts joins 1,000.
      .with('newest', (db) =>
        db
          .selectFrom((inner) => inner.selectFrom('matched').select('post_id').orderBy('post_id', direction).as('ordered'))
          .innerJoin('posts', 'posts.id', 'ordered.post_id')
          .innerJoin('topics', 'topics.id', 'posts.topic_id')
          .select('ordered.post_id')
          .where((eb) => eb.and(conditions))
          .orderBy('ordered.post_id', direction)
          .limit(limit),
      )
      .selectFrom('newest')
      .innerJoin('post_search', 'post_search.post_id', 'newest.post_id')
      .select(['newest.post_id', sql<number>`ts_rank(post_search.document, ${words.rank}::tsquery, 1)`.as('score')])
      .execute();
    return rows.map((row) => ({ post_id: row.post_id, score: Number(row.score) }));
  }

  /** What a result shows of each candidate, in the candidates' order. */
  async #details(candidates: readonly Candidate[]): Promise<FoundPost[]> {
    if (candidates.length === 0) return [];
    const rows = await this.#db
      .selectFrom('posts')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .innerJoin('forums', 'forums.id', 'topics.forum_id')
      .leftJoin('users', 'users.id', 'posts.author_id')
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
      ])
      .where(
        'posts.id',
        'in',
        candidates.map((candidate) => candidate.post_id),
      )
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return candidates.flatMap((candidate) => {
      const row = byId.get(candidate.post_id);
      return row === undefined ? [] : [{ ...row, score: candidate.score }];
    });
  }

  // Backfill: posts written before the index (or by the importer).

  /** Whether every post's entry has been written by this version of the index (the backfill has nothing left). */
  async #backfilled(): Promise<boolean> {
    const state = await this.#db.selectFrom('search_backfill').select(['next_post_id', 'last_post_id']).where('id', '=', 1).executeTakeFirst();
    return state === undefined || state.next_post_id > state.last_post_id;
  }

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

/** PostgreSQL: the term of a range of post ids; `#` is in no word, so no search reaches it. */
function rangeTerm(range: number): string {
  return `#${range}`;
}

/** The candidates' conditions besides the match: what this viewer may see (in the forums they may read), and the reader's filters. */
function shownAndFiltered(filters: SearchFilters, visibility: ScopedVisibility): Array<RawBuilder<boolean>> {
  const conditions = [visible('posts', visibility), visible('topics', visibility), inForums('topics.forum_id', visibility.forums)];
  if (filters.forumId !== null) conditions.push(sql<boolean>`topics.forum_id = ${filters.forumId}`);
  if (filters.authorId !== null) conditions.push(sql<boolean>`posts.author_id = ${filters.authorId}`);
  if (filters.from !== null) conditions.push(sql<boolean>`posts.created_at >= ${filters.from}`);
  if (filters.until !== null) conditions.push(sql<boolean>`posts.created_at < ${filters.until}`);
  return conditions;
}

function asIndexed(rows: ReadonlyArray<{ id: number; body: string; title: string; opening_id: number | null }>): IndexedPost[] {
  return rows.map((row) => ({ id: row.id, body: row.body, title: row.opening_id === row.id ? row.title : null }));
}

/**
 * An FTS5 column's text: the stems, the words that differ from their stems (for prefixes), then the stems' pairs (a
 * phrase is matched as pairs next to each other, so they stay together at the end).
 */
function fts5Column(tokens: readonly Token[]): string {
  const { stems, words } = indexedTerms(tokens);
  return [...stems, ...words, ...grams(stems)].join(' ');
}

/**
 * A tsvector written as its literal, so that PostgreSQL stores exactly the
 * terms our tokenizer made (to_tsvector would parse them again by its own
 * rules). Title terms come first, weighted A; a gap keeps a phrase from
 * running from the title into the text. Each word is its stem and, where it
 * differs, the word as written, at the same position; each pair of stems next
 * to each other is a term too, at its first word's position, so that pairs
 * follow each other as the words do; the written words' first three and four
 * letters are terms at the end (text.ts, `prefixTerms`).
 */
export function tsvectorLiteral(title: readonly Token[], body: readonly Token[]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  const add = (term: string, at: string): void => {
    let list = positions.get(term);
    if (list === undefined) positions.set(term, (list = []));
    if (list.length < MAX_POSITIONS_PER_TERM && list.at(-1) !== at) list.push(at);
  };
  const addRun = (tokens: readonly Token[], weight: string): void => {
    for (let i = 0; i < tokens.length; i++) {
      // Past the last position every term still counts, at that position (as PostgreSQL would clamp it).
      position = Math.min(position + 1, MAX_POSITION);
      const at = `${position}${weight}`;
      const token = tokens[i]!;
      add(token.term, at);
      if (token.word !== token.term) add(token.word, at);
      if (i + 1 < tokens.length) add(gram(token.term, tokens[i + 1]!.term), at);
    }
  };
  addRun(title, 'A');
  position = Math.min(position + 1, MAX_POSITION);
  addRun(body, '');
  const words = [...positions].map(([term, list]) => `${quotedLexeme(term)}:${list.join(',')}`);
  // Prefix terms need no positions: a prefix is matched as a word, never in a phrase.
  return [...words, ...prefixTerms([...title, ...body].map((token) => token.word)).map(quotedLexeme)].join(' ');
}
