// Upload is credited only against what the swarm downloaded (docs/tracker.md,
// "Accounting"): what a member reports uploading waits on their row as
// `pending_upload` until leechers of the same torrent report downloads, which
// fill the torrent's pool (`tracker_swarm_pools`); each flush matches the two.
// Times are epoch milliseconds (the tracker's own clock), compared in code.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tracker_user_torrents')
    .addColumn('pending_upload', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('tracker_user_torrents').addColumn('pending_since_ms', 'bigint').execute();
  // The flush reads a torrent's waiting claims: few rows among many.
  await db.schema
    .createIndex('tracker_user_torrents_pending')
    .on('tracker_user_torrents')
    .columns(['torrent_id', 'user_id'])
    .where(sql.ref('pending_upload'), '>', 0)
    .execute();
  await db.schema
    .createTable('tracker_swarm_pools')
    .addColumn('torrent_id', 'integer', (c) => c.primaryKey().references('torrents.id').onDelete('cascade'))
    // Downloads reported by the torrent's leechers (with the allowance) not yet matched by uploads.
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('added_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}
