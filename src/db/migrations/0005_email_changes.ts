// A new e-mail address waits here until its owner opens the confirmation link
// sent to it (the key is stored only as a hash, like account_keys).
import type { Kysely } from 'kysely';
import { autoId, dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema
    .createTable('email_changes')
    .addColumn('id', 'integer', (c) => autoId(c, dialectOf(db)))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();
}
