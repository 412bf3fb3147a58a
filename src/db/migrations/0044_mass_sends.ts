// Mass sends (docs/mass-mail.md): a private message or an e-mail from an
// administrator to every member, one group's members or one role's. Each row
// is the send and its record: who sent what to whom and when, how many it was
// for and how far it got. The sending is resumable: `last_user_id` is the
// cursor (members go by ascending id, up to `max_user_id`, the newest account
// when the send was made), advanced in the same transaction as each batch of
// messages; the instance working on a send holds a lease on it
// (`lease_owner`, `lease_until`) so that two never send the same one.
//
// Members choose whether they get mass mail (`users.mass_mails`, on unless
// turned off), and each has a random key for the unsubscribe link in that
// mail (`users.mass_mail_key`, made with their first mass mail). A mass
// message is marked with its send, and a member gets at most one message of
// each send. The outbox keeps the extra header lines of a mail
// (List-Unsubscribe).
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

const KINDS = ['message', 'mail'] as const;
const AUDIENCES = ['all', 'group', 'role'] as const;
const ROLES = ['user', 'moderator', 'admin'] as const;
const STATUSES = ['sending', 'done'] as const;
/** messages/service.ts MESSAGE_SUBJECT_MAX and MESSAGE_BODY_MAX: a mass message is a private message. */
const SUBJECT_MAX = 255;
const BODY_MAX = 60_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('mass_sends')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOfCheck('kind', KINDS)))
    .addColumn('audience', 'text', (c) => c.notNull().check(oneOfCheck('audience', AUDIENCES)))
    // The group as it was named when the send was made: the record outlives a rename or a deletion (then group_id is null).
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('set null'))
    .addColumn('group_name', 'text')
    .addColumn('role', 'text', (c) => c.check(sql<boolean>`role is null or ${oneOfCheck('role', ROLES)}`))
    .addColumn('subject', 'text', (c) => c.notNull().check(sql<boolean>`length(subject) between 1 and ${sql.lit(SUBJECT_MAX)}`))
    .addColumn('body', 'text', (c) => c.notNull().check(sql<boolean>`length(body) between 1 and ${sql.lit(BODY_MAX)}`))
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('recipients', 'integer', (c) => c.notNull().check(sql<boolean>`recipients >= 0`))
    .addColumn('sent', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql<boolean>`sent >= 0`),
    )
    .addColumn('max_user_id', 'integer', (c) => c.notNull().check(sql<boolean>`max_user_id >= 0`))
    .addColumn('last_user_id', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql<boolean>`last_user_id >= 0`),
    )
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('sending').check(oneOfCheck('status', STATUSES)))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    // The Idempotency-Key of the request that made it (or the admin page's confirmation): asked again, one send.
    .addColumn('request_key', 'text', (c) => c.unique())
    .addCheckConstraint('mass_sends_group', sql`(audience = 'group') = (group_name is not null) and (group_id is null or audience = 'group')`)
    .addCheckConstraint('mass_sends_role', sql`(audience = 'role') = (role is not null)`)
    .addCheckConstraint('mass_sends_cursor', sql`last_user_id <= max_user_id`)
    .addCheckConstraint('mass_sends_finished', sql`(status = 'done') = (finished_at is not null)`)
    .addCheckConstraint('mass_sends_lease', sql`(lease_owner is null) = (lease_until is null) and (status = 'sending' or lease_owner is null)`)
    .execute();
  // What an instance looks for at start and every minute: sends not finished.
  await db.schema.createIndex('mass_sends_unfinished').on('mass_sends').column('id').where(sql.ref('status'), '=', 'sending').execute();

  await db.schema
    .alterTable('users')
    .addColumn('mass_mails', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  // SQLite adds no UNIQUE column to an existing table: the key's uniqueness is an index.
  await db.schema.alterTable('users').addColumn('mass_mail_key', 'text').execute();
  await db.schema.createIndex('users_mass_mail_key').on('users').column('mass_mail_key').unique().execute();

  await db.schema
    .alterTable('private_messages')
    .addColumn('mass_send_id', 'integer', (c) => c.references('mass_sends.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('private_messages_mass_send').on('private_messages').columns(['mass_send_id', 'recipient_id']).unique().execute();

  await db.schema.alterTable('outbox').addColumn('headers', 'text').execute();
}
