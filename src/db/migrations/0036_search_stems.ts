// The search index holds each English and Russian word's stem besides the word
// (src/forum/search/text.ts), so that "releases" finds "release" and
// "кириллица" finds "кириллицы". Every post is indexed again by the start-up
// backfill (migration 0012's search_backfill mark); until it ends, each query's
// words are matched both stemmed and as typed (forum/search/repository.ts asks
// whether it has ended), so the entries not yet rewritten are found as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const { max } = await sql<{ max: number | null }>`select max(id) as max from posts`.execute(db).then((r) => r.rows[0]!);
  if (max !== null) await sql`update search_backfill set next_post_id = 1, last_post_id = ${max} where id = 1`.execute(db);
}
