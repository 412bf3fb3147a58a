import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .createTable('forums')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('display_order', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`display_order >= 0`),
    )
    .addColumn('topics_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('forums_order').on('forums').columns(['display_order', 'id']).execute();

  await db.schema
    .createTable('topics')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    // A forum that still has topics cannot be deleted (restrict, the default).
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('forums.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    // Content outlives its author's account.
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().check(oneOfCheck('status', ['published', 'pending'])))
    .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_post_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topics_forum_activity').on('topics').columns(['forum_id', 'last_post_at', 'id']).execute();
  await db.schema.createIndex('topics_author').on('topics').column('author_id').execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(oneOfCheck('status', ['published', 'pending'])))
    // The word filter that held a pending post (kept even if the rule is deleted later).
    .addColumn('held_by_filter_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('posts_topic').on('posts').columns(['topic_id', 'id']).execute();
  await db.schema.createIndex('posts_status').on('posts').columns(['status', 'id']).execute();
  await db.schema.createIndex('posts_author').on('posts').column('author_id').execute();

  await db.schema
    .createTable('watchlist')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('watchlist_pk', ['user_id', 'topic_id'])
    .execute();
  await db.schema.createIndex('watchlist_topic').on('watchlist').column('topic_id').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('sent_at', ts)
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('outbox_created').on('outbox').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('account_keys')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(oneOfCheck('purpose', ['activation', 'password_reset'])))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('account_keys_user').on('account_keys').columns(['user_id', 'purpose']).execute();
}
