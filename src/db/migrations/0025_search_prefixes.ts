// On PostgreSQL each search document holds its words' first three and four
// letters as terms of their own (src/forum/search/text.ts, `prefixTerms`), so
// that `rout*` reads one list of the index instead of gathering every word it
// covers. Every post is indexed again by the start-up backfill (migration
// 0012's search_backfill mark); until it ends, prefixes are matched the old
// way (forum/search/repository.ts asks whether it has ended), so nothing is
// missed meanwhile. SQLite's FTS5 has its own prefix index (migration 0023):
// nothing to do there.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const { max } = await sql<{ max: number | null }>`select max(id) as max from posts`.execute(db).then((r) => r.rows[0]!);
  await sql`update search_backfill set next_post_id = 1, last_post_id = ${max ?? 0} where id = 1`.execute(db);
}
