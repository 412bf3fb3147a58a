// Avatars (docs/members.md): the file name of a member's avatar under
// UPLOAD_DIR/avatars/, named by its content, or null for none. Several members
// may hold the same file; it is removed when the last one lets it go.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('avatar', 'varchar(64)').execute();
  await db.schema.createIndex('users_avatar').on('users').column('avatar').execute();
}
