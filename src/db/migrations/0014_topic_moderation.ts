// Moderators' tools (docs/moderation.md): a topic can be locked (only
// moderators reply) and pinned (listed first in its forum), and every
// moderator's action is written to the moderation log, which admins read.
// The log names its topic, post and forums by id without a foreign key: an
// entry outlives what it is about (a deleted topic's entry keeps its title in
// `subject`).
import type { Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

export const MODERATION_ACTIONS = ['approve', 'reject', 'lock', 'unlock', 'pin', 'unpin', 'move', 'delete_topic', 'delete_post'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);

  await db.schema
    .alterTable('topics')
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('topics')
    .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // A forum lists pinned topics first, then by latest activity: one index read backwards gives that order.
  // topics_forum_activity stays: it finds a forum's latest topic, pinned or not, in one step.
  await db.schema.createIndex('topics_forum_listing').on('topics').columns(['forum_id', 'pinned', 'last_post_at', 'id']).execute();

  await db.schema
    .createTable('moderation_log')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull().check(oneOfCheck('action', MODERATION_ACTIONS)))
    .addColumn('forum_id', 'integer')
    .addColumn('to_forum_id', 'integer')
    .addColumn('topic_id', 'integer')
    .addColumn('post_id', 'integer')
    // What the entry was about, as it read then: the topic's title, or the start of the post.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('moderation_log_actor').on('moderation_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('moderation_log_action').on('moderation_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('moderation_log_topic').on('moderation_log').column('topic_id').execute();
}
