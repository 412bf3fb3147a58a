// Staff removing a member's avatar is moderation (docs/moderation.md): the
// moderation log gains the action `remove_avatar`, its entry naming the
// moderator and the member (`user_id`, as bans do). The action list is a CHECK
// constraint, which SQLite cannot alter, so there the small table is rebuilt
// as 0015 rebuilt it.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

const ACTIONS = [
  'approve',
  'reject',
  'lock',
  'unlock',
  'pin',
  'unpin',
  'move',
  'delete_topic',
  'delete_post',
  'ban',
  'unban',
  'hide_post',
  'restore_post',
  'hide_topic',
  'restore_topic',
  'remove_avatar',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  if (dialect === 'postgres') {
    await sql`alter table moderation_log drop constraint moderation_log_action_check`.execute(db);
    await sql`alter table moderation_log add constraint moderation_log_action_check check (${oneOfCheck('action', ACTIONS)})`.execute(db);
    return;
  }
  const ts = timestampType(dialect);
  await db.schema
    .createTable('moderation_log_new')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull().check(oneOfCheck('action', ACTIONS)))
    .addColumn('forum_id', 'integer')
    .addColumn('to_forum_id', 'integer')
    .addColumn('topic_id', 'integer')
    .addColumn('post_id', 'integer')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .execute();
  await sql`insert into moderation_log_new (id, actor_id, action, forum_id, to_forum_id, topic_id, post_id, subject, created_at, user_id)
    select id, actor_id, action, forum_id, to_forum_id, topic_id, post_id, subject, created_at, user_id from moderation_log`.execute(db);
  await db.schema.dropTable('moderation_log').execute();
  await sql`alter table moderation_log_new rename to moderation_log`.execute(db);
  await db.schema.createIndex('moderation_log_actor').on('moderation_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('moderation_log_action').on('moderation_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('moderation_log_topic').on('moderation_log').column('topic_id').execute();
  await db.schema.createIndex('moderation_log_user').on('moderation_log').columns(['user_id', 'id']).execute();
}
