// The search index's backfill mark (migration 0012): which posts, by id, the
// index has yet to take in. Whatever writes posts around the index (the
// importer, the copy tool) marks every post; the service's start-up indexes
// them (forum/search/backfill.ts).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export async function markAllPostsForIndexing(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  const { last } = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.max<number | null>('id').as('last'))
    .executeTakeFirstOrThrow();
  await db
    .updateTable('search_backfill')
    .set({ next_post_id: 1, last_post_id: last ?? 0 })
    .where('id', '=', 1)
    .execute();
}
