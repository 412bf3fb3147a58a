// Migration 0034 counts each forum's topics and posts again from its topics:
// counters that a hidden topic's move or deletion had taken down twice are
// right again (guests' totals come from them: issue 36).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { databaseKinds } from '../helpers/databases.ts';
import { DatabasesAtMigration, silentLog as log } from '../helpers/migrated.ts';
import { insertUser } from '../helpers/rows.ts';

const at = '2026-01-01T00:00:00.000Z';

for (const kind of databaseKinds()) {
  describe(`[${kind}] migration 0034: forums counted again`, () => {
    const databases = new DatabasesAtMigration(kind);
    after(() => databases.closeAll());

    it('counts the published, shown topics and their posts, whatever the counters said', async () => {
      const handle = await databases.at('0033_torrent_listing');
      const db = handle.db;
      const author = await insertUser(db, 'writer');
      const forum = await db
        .insertInto('forums')
        .values({ name: 'Drifted', description: '', display_order: 1, topics_count: -2, posts_count: -7, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const empty = await db
        .insertInto('forums')
        .values({ name: 'Empty', description: '', display_order: 2, topics_count: 3, posts_count: 9, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const topics = [
        { status: 'published', hidden_at: null, posts_count: 3 },
        { status: 'published', hidden_at: null, posts_count: 4 },
        { status: 'published', hidden_at: at, posts_count: 5 },
        { status: 'pending', hidden_at: null, posts_count: 0 },
      ] as const;
      for (const [n, topic] of topics.entries()) {
        await db
          .insertInto('topics')
          .values({ forum_id: forum.id, title: `Topic ${n}`, author_id: author, ...topic, last_post_at: at, created_at: at, updated_at: at })
          .execute();
      }

      await migrateToLatest(handle, log);
      const counts = async (id: number) => ({
        ...(await db.selectFrom('forums').select(['topics_count', 'posts_count']).where('id', '=', id).executeTakeFirstOrThrow()),
      });
      assert.deepEqual(await counts(forum.id), { topics_count: 2, posts_count: 7 });
      assert.deepEqual(await counts(empty.id), { topics_count: 0, posts_count: 0 });
    });
  });
}
