// The search index holds the pairs of words next to each other besides the
// words (src/forum/search/text.ts, `grams`), so that a phrase is matched as its
// pairs, and on PostgreSQL each document holds its range of post ids
// (forum/search/repository.ts). Every post is indexed again by the start-up
// backfill (migration 0012's search_backfill mark):
//   SQLite      post_search is made again, empty, with `_` read as part of a
//               term (a pair is `_open_port`) and an index of every term's first
//               3 and 4 characters (`rout*` reads one list, not those of every
//               word it covers); search finds what is indexed so far
//   PostgreSQL  the documents stay until rewritten: words are found at once
//               (by the query over all ranges), phrases once a post is indexed again
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`drop trigger posts_search_delete`.execute(db);
    await sql`drop table post_search`.execute(db);
    await sql`create virtual table post_search using fts5(title, body, content = '', contentless_delete = 1, prefix = '3 4', tokenize = "unicode61 remove_diacritics 0 tokenchars '_'")`.execute(
      db,
    );
    await sql`create trigger posts_search_delete after delete on posts begin delete from post_search where rowid = old.id; end`.execute(db);
  }
  const { max } = await sql<{ max: number | null }>`select max(id) as max from posts`.execute(db).then((r) => r.rows[0]!);
  await sql`update search_backfill set next_post_id = 1, last_post_id = ${max ?? 0} where id = 1`.execute(db);
}
