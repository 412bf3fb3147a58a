// Edits keep what they replace (docs/formatting.md, "Editing"): every edit of
// a post that changes its text stores the text it replaced, with who edited
// and when, for moderators to read; `posts.edited_at` is the visible
// "edited" marker's time. Revisions go with their post.
import type { Kysely } from 'kysely';
import { autoId, dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema.alterTable('posts').addColumn('edited_at', ts).execute();
  await db.schema
    .createTable('post_revisions')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('editor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('replaced_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_revisions_post').on('post_revisions').columns(['post_id', 'id']).execute();
}
