// Ranks (docs/members.md, "Ranks"; TorrentPier's bb_ranks): a title shown
// beside a member's posts, with an optional image. A rank with `min_posts`
// is earned by post count (the highest one reached); one without is special,
// given to members by admins (`users.rank_id`, which wins over the earned
// one). Two ranks cannot start at the same post count. Deleting a rank takes
// it from the members who had it.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('ranks')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('min_posts', 'integer', (c) => c.unique().check(sql<boolean>`min_posts is null or min_posts >= 0`))
    .addColumn('image_url', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('rank_id', 'integer', (c) => c.references('ranks.id').onDelete('set null'))
    .execute();
}
