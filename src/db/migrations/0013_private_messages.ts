// Private messages (docs/messages.md): one row per message, seen by its sender
// (the Sent folder) and its recipient (the Inbox) until each removes it from
// their own folder; the row goes when both have. A member who is deleted
// leaves their messages to the other side, shown as from or to a deleted user.
// users.unread_messages is the header's count, kept in the same transaction as
// every change to it (TorrentPier keeps `user_unread_privmsg` the same way),
// so a page view reads it with the session instead of counting.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .createTable('private_messages')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('recipient_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reply_to_id', 'integer', (c) => c.references('private_messages.id').onDelete('set null'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('read_at', ts)
    .addColumn('sender_deleted_at', ts)
    .addColumn('recipient_deleted_at', ts)
    .execute();
  // The two folders, newest first; the partial index finds a member's unread messages for "mark all read".
  await db.schema.createIndex('private_messages_inbox').on('private_messages').columns(['recipient_id', 'id']).execute();
  await db.schema.createIndex('private_messages_sent').on('private_messages').columns(['sender_id', 'id']).execute();
  await db.schema.createIndex('private_messages_reply_to').on('private_messages').column('reply_to_id').execute();
  await db.schema.createIndex('private_messages_unread').on('private_messages').column('recipient_id').where(sql.ref('read_at'), 'is', null).execute();

  await db.schema
    .alterTable('users')
    .addColumn('unread_messages', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`unread_messages >= 0`),
    )
    .execute();
  // Opt-in: an e-mail for each new private message.
  await db.schema
    .alterTable('users')
    .addColumn('message_mails', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
