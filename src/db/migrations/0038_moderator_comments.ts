// A moderator's comment on a post (TorrentPier's mc_comment, mc_type,
// mc_user_id; docs/moderation.md, "Moderator comments"): a note from staff
// shown under the post, of one of four kinds. It is the post's own (at most
// one, replaced or removed by a moderator), so its columns live on the post;
// the moderator who wrote it may be deleted (the comment stays, unsigned).
// The moderation log takes `comment_post` and `uncomment_post`.
import { sql, type Kysely } from 'kysely';
import { dialectOf, oneOfCheck, timestampType } from '../dialect.ts';
import { LOG_ACTIONS, widenModerationLog } from './0029_forum_access.ts';

const MODERATOR_COMMENT_KINDS = ['comment', 'information', 'warning', 'violation'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema.alterTable('posts').addColumn('mod_comment', 'text').execute();
  await db.schema
    .alterTable('posts')
    .addColumn('mod_comment_kind', 'text', (c) => c.check(sql<boolean>`mod_comment_kind is null or ${oneOfCheck('mod_comment_kind', MODERATOR_COMMENT_KINDS)}`))
    .execute();
  await db.schema
    .alterTable('posts')
    .addColumn('mod_comment_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('posts').addColumn('mod_comment_at', ts).execute();
  await widenModerationLog(db, [...LOG_ACTIONS, 'announce', 'unannounce', 'close_poll', 'reopen_poll', 'delete_poll', 'comment_post', 'uncomment_post']);
}
