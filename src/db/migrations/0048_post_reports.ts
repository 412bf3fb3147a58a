// Reports of posts (docs/moderation.md, "Reports"): a member tells a post's
// moderators what is wrong with it; a moderator resolves the report (acted on
// it or dismissed it), and the reporter is told. A member has at most one open
// report of a post (a partial unique index, whatever the requests race). The
// post's or the reporter's deletion takes the report; a deleted moderator
// leaves it resolved by nobody. The moderation log takes `resolve_report`.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';
import { LOG_ACTIONS, widenModerationLog } from './0029_forum_access.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('post_reports')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql<boolean>`length(reason) > 0`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('resolved_at', ts)
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolution', 'text', (c) => c.check(sql<boolean>`resolution is null or ${oneOfCheck('resolution', ['acted', 'dismissed'])}`))
    .execute();
  await db.schema
    .createIndex('post_reports_open')
    .on('post_reports')
    .columns(['post_id', 'reporter_id'])
    .unique()
    .where(sql.ref('resolved_at'), 'is', null)
    .execute();
  await db.schema.createIndex('post_reports_reporter').on('post_reports').column('reporter_id').execute();
  await db.schema.createIndex('post_reports_queue').on('post_reports').columns(['resolved_at', 'id']).execute();
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
    'resolve_report',
  ]);
}
