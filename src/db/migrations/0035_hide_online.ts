// A member may keep out of the index's "who is online" (TorrentPier's
// user_opt bit 4, user_viewonline): counted among the members online, named
// to staff only (docs/front-end.md).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('hide_online', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
