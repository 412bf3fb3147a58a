// Announcements (docs/moderation.md): TorrentPier's third kind of topic
// (topic_type 2), listed above the sticky (pinned) ones, set by holders of
// the forum's `announce` right. A flag of its own rather than a topic type
// column: pinned stays what it is, and a forum's list orders by the two
// flags, then by latest activity.
//
// The listing index gains the flag in front of `pinned`, so the forum's list
// stays one index read backwards (0014 made it without). The moderation log
// takes `announce` and `unannounce`.
import type { Kysely } from 'kysely';
import { LOG_ACTIONS, widenModerationLog } from './0029_forum_access.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('topics')
    .addColumn('announced', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.dropIndex('topics_forum_listing').execute();
  await db.schema.createIndex('topics_forum_listing').on('topics').columns(['forum_id', 'announced', 'pinned', 'last_post_at', 'id']).execute();

  await widenModerationLog(db, [...LOG_ACTIONS, 'announce', 'unannounce']);
}
