// Unread tracking (docs/unread.md). Read state is kept as post ids, which
// only grow, rather than times that can tie: a post is read when its id is at
// or below the highest of three marks.
//   topic_reads  per member and topic: the last post they have seen
//   forum_reads  per member and forum: "mark this forum read"
//   read_marks   per member: "mark all forums read"
// So marking a forum or everything read writes one row, never one per topic.
import type { Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));

  await db.schema
    .createTable('topic_reads')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('last_read_post_id', 'integer', (c) => c.notNull())
    .addColumn('read_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('topic_reads_pk', ['user_id', 'topic_id'])
    .execute();
  await db.schema.createIndex('topic_reads_topic').on('topic_reads').column('topic_id').execute();

  await db.schema
    .createTable('forum_reads')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('forums.id').onDelete('cascade'))
    .addColumn('up_to_post_id', 'integer', (c) => c.notNull())
    .addColumn('marked_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('forum_reads_pk', ['user_id', 'forum_id'])
    .execute();
  await db.schema.createIndex('forum_reads_forum').on('forum_reads').column('forum_id').execute();

  await db.schema
    .createTable('read_marks')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('up_to_post_id', 'integer', (c) => c.notNull())
    .addColumn('marked_at', ts, (c) => c.notNull())
    .execute();
}
