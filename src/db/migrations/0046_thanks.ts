// Thanks for releases (docs/tracker.md, "Thanks"; TorrentPier's bb_thx): one
// row per member and release topic, so thanking twice is one thanks whatever
// the requests race. Kept by topic, as upstream kept them: a release whose
// .torrent is replaced keeps its thanks. A deleted topic or member takes
// their thanks with them.
import type { Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema
    .createTable('thanks')
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('thanks_pk', ['topic_id', 'user_id'])
    .execute();
  await db.schema.createIndex('thanks_user').on('thanks').column('user_id').execute();
}
