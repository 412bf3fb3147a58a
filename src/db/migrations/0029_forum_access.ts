// Closed sections (docs/access.md): TorrentPier's access model. Each forum
// holds one level per action (its auth_* columns); groups of members, open,
// closed or hidden, with leaders and pending join requests (bb_groups,
// bb_user_group); and grants of actions in one forum to a group or to one
// member (bb_auth_access), a grant's `moderate` making its holders the
// forum's moderators. Today's forum moderators become such grants, and
// forum_moderators goes: one place says who moderates where.
//
// A grant's actions are a bit field (bit n = the n-th of ACCESS_ACTIONS), as
// TorrentPier's forum_perm was: one integer per grant, read whole.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, exactText, oneOfCheck, timestampType } from '../dialect.ts';

/** The actions a forum's levels and grants are about, in bit order. Append only: grants store bit positions. */
export const ACCESS_ACTIONS = ['view', 'read', 'post', 'reply', 'edit', 'delete', 'pin', 'announce', 'vote', 'poll_create', 'upload', 'download'] as const;
export const ACCESS_LEVELS = ['all', 'members', 'private', 'moderators', 'admins'] as const;
export const GROUP_TYPES = ['open', 'closed', 'hidden'] as const;

/** A new forum's levels: TorrentPier's installer defaults. */
export const DEFAULT_LEVELS: Record<(typeof ACCESS_ACTIONS)[number], (typeof ACCESS_LEVELS)[number]> = {
  view: 'all',
  read: 'all',
  post: 'members',
  reply: 'members',
  edit: 'members',
  delete: 'members',
  pin: 'moderators',
  announce: 'moderators',
  vote: 'members',
  poll_create: 'members',
  upload: 'members',
  download: 'members',
};

export const LOG_ACTIONS = [
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
  'set_permissions',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  for (const action of ACCESS_ACTIONS) {
    const column = `level_${action}`;
    await db.schema
      .alterTable('forums')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(DEFAULT_LEVELS[action]).check(oneOfCheck(column, ACCESS_LEVELS)))
      .execute();
  }

  await db.schema
    .createTable('user_groups')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('name', 'text', (c) => exactText(c, dialect).notNull())
    // The name as compared for uniqueness (users/repository.ts usernameKey: NFKC, lower case).
    .addColumn('name_key', 'text', (c) => exactText(c, dialect).notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull().check(oneOfCheck('type', GROUP_TYPES)))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(oneOfCheck('role', ['member', 'leader'])))
    .addColumn('status', 'text', (c) => c.notNull().check(oneOfCheck('status', ['accepted', 'pending'])))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    // A pending request is never a leader: leaders are appointed, not requested.
    .addCheckConstraint('group_members_pending_member', sql`status = 'accepted' or role = 'member'`)
    .execute();
  // "Which groups is this member in", read with every signed-in request (auth/credentials-repository.ts).
  await db.schema.createIndex('group_members_user').on('group_members').columns(['user_id', 'status']).execute();

  await db.schema
    .createTable('forum_grants')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('forums.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('user_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('actions', 'integer', (c) => c.notNull().check(sql`actions >= 0 and actions < ${sql.lit(1 << ACCESS_ACTIONS.length)}`))
    .addColumn('moderate', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('forum_grants_holder', sql`(group_id is null) <> (user_id is null)`)
    .execute();
  // One grant per holder and forum (NULLs never collide, so each index binds only its kind).
  await db.schema.createIndex('forum_grants_group').on('forum_grants').columns(['group_id', 'forum_id']).unique().execute();
  await db.schema.createIndex('forum_grants_user').on('forum_grants').columns(['user_id', 'forum_id']).unique().execute();
  await db.schema.createIndex('forum_grants_forum').on('forum_grants').column('forum_id').execute();

  await sql`insert into forum_grants (forum_id, user_id, actions, moderate) select forum_id, user_id, 0, ${sql.lit(true)} from forum_moderators`.execute(db);
  await db.schema.dropTable('forum_moderators').execute();

  await widenModerationLog(db, LOG_ACTIONS);
}

/**
 * The moderation log's action CHECK becomes `actions` (here: gains
 * `set_permissions`; 0030 calls it again for its own). SQLite cannot alter a
 * CHECK, so there the table is rebuilt (as 0024 did); its columns are the
 * log's as of this migration, so a later migration that changes them cannot
 * reuse this.
 */
export async function widenModerationLog(db: Kysely<unknown>, actions: readonly string[]): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  if (dialect === 'postgres') {
    await sql`alter table moderation_log drop constraint moderation_log_action_check`.execute(db);
    await sql`alter table moderation_log add constraint moderation_log_action_check check (${oneOfCheck('action', actions)})`.execute(db);
    return;
  }
  await db.schema
    .createTable('moderation_log_new')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull().check(oneOfCheck('action', actions)))
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
