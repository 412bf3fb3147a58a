// What the TorrentPier import keeps beside the service's own tables: the 2.x
// attachment ids of imported torrents, so that an old `dl.php?id=<attach_id>`
// link (an attachment id there, not a topic id) still reaches its download.
// Deleting the torrent forgets the mapping.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_attachments')
    .addColumn('attach_id', 'integer', (c) => c.primaryKey())
    .addColumn('torrent_id', 'integer', (c) => c.notNull().references('torrents.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('import_attachments_torrent').on('import_attachments').column('torrent_id').execute();
}
