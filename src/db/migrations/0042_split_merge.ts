// Splitting and merging topics (docs/moderation.md, "Split and merge"): a
// merged topic's address leads to the topic it went into, for good (links in
// posts, bookmarks, search engines), so each merge leaves a redirect. A
// redirect goes when its target topic is deleted; merging the target again
// points its redirects at the new target (the service keeps chains one step).
// The moderation log takes `split_topic` and `merge_topic`.
import type { Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';
import { LOG_ACTIONS, widenModerationLog } from './0029_forum_access.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema
    .createTable('topic_redirects')
    .addColumn('from_topic_id', 'integer', (c) => c.primaryKey())
    .addColumn('to_topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('topic_redirects_to').on('topic_redirects').column('to_topic_id').execute();
  await widenModerationLog(db, [
    ...LOG_ACTIONS,
    'announce',
    'unannounce',
    'close_poll',
    'reopen_poll',
    'delete_poll',
    'comment_post',
    'uncomment_post',
    'split_topic',
    'merge_topic',
  ]);
}
