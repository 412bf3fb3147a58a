// Calls to reseed (docs/tracker.md, "Reseed"): the last call for each torrent,
// so that at most one a day goes out, whatever the requests race (the call is
// an upsert that takes the row only when the last one is a day old). The
// caller may be deleted since; the torrent's deletion takes its row.
import type { Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema
    .createTable('reseed_calls')
    .addColumn('torrent_id', 'integer', (c) => c.primaryKey().references('torrents.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('called_at', ts, (c) => c.notNull())
    .execute();
}
