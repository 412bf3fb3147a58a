import type { Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(oneOfCheck('role', ['user', 'moderator', 'admin'])))
    .addColumn('status', 'text', (c) => c.notNull().check(oneOfCheck('status', ['pending', 'active', 'banned'])))
    .addColumn('bonus_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signature', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('api_tokens_user_id').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
}
