// What the TorrentPier import keeps beside the service's own tables: the 2.x
// attachment ids of imported torrents, so that an old `dl.php?id=<attach_id>`
// link (an attachment id there, not a topic id) still reaches its download
// (deleting the torrent forgets the mapping); and the name a guest's post or
// topic showed upstream (`post_username`, else "Guest"), shown where an
// author account would be.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('guest_name', 'text').execute();
  await db.schema.alterTable('topics').addColumn('guest_name', 'text').execute();
  await db.schema
    .createTable('import_attachments')
    .addColumn('attach_id', 'integer', (c) => c.primaryKey())
    .addColumn('torrent_id', 'integer', (c) => c.notNull().references('torrents.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('import_attachments_torrent').on('import_attachments').column('torrent_id').execute();
}
