// The notification centre (docs/notifications.md): one row per thing a member
// is told about (a reply in a topic they watch, a quote of their post, an
// @mention, a private message, a moderator's action on their post, thanks for
// their release, a call to reseed what they completed, a moderator's answer to
// their report), read or
// not. What it points at may go (a deleted post or topic, a message deleted by
// both sides): the row stays, pointing at nothing, so that the member's count
// never drifts from the rows. users.unread_notifications is the header's
// count, kept in the same transaction as every change to it, as
// unread_messages is (migration 0013), so a page view reads it with the
// session. Which kinds a member wants on the site and by mail are the rows of
// notification_settings that differ from the defaults.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

const KINDS = ['reply', 'quote', 'mention', 'message', 'moderation', 'thanks', 'reseed', 'report'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOfCheck('kind', KINDS)))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('topic_id', 'integer', (c) => c.references('topics.id').onDelete('set null'))
    .addColumn('post_id', 'integer', (c) => c.references('posts.id').onDelete('set null'))
    .addColumn('message_id', 'integer', (c) => c.references('private_messages.id').onDelete('set null'))
    // What a moderator did (a moderation-log action); null for the other kinds.
    .addColumn('action', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('read_at', ts)
    .execute();
  // A member's list, newest first; their unread ones for "mark all read"; and the references, so a delete finds its rows.
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').column('user_id').where(sql.ref('read_at'), 'is', null).execute();
  await db.schema.createIndex('notifications_post').on('notifications').column('post_id').execute();
  await db.schema.createIndex('notifications_topic').on('notifications').column('topic_id').execute();
  await db.schema.createIndex('notifications_message').on('notifications').column('message_id').execute();
  await db.schema.createIndex('notifications_actor').on('notifications').column('actor_id').execute();
  // One notification of a kind per post and member, whatever the requests race (a reply, a quote and a mention in one post are one: the service keeps the strongest).
  await db.schema
    .createIndex('notifications_once')
    .on('notifications')
    .columns(['user_id', 'kind', 'post_id'])
    .unique()
    .where(sql.ref('action'), 'is', null)
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('unread_notifications', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`unread_notifications >= 0`),
    )
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOfCheck('kind', KINDS)))
    .addColumn('site', 'boolean', (c) => c.notNull())
    .addColumn('email', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'kind'])
    .execute();
}
