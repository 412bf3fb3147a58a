// Subforums (docs/forums.md): a forum may sit inside a top-level forum, one
// level deep as in TorrentPier (`forum_parent`). A parent with subforums
// cannot be deleted (restrict); the one-level rule is the service's.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('forums')
    .addColumn('parent_id', 'integer', (c) => c.references('forums.id').onDelete('restrict'))
    .execute();
  await db.schema.createIndex('forums_parent').on('forums').columns(['parent_id', 'display_order', 'id']).execute();
}
