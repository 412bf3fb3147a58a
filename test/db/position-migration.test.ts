// Migration 0031 numbers the posts already there (issue 36): per topic, the
// published, shown posts 1, 2, 3… in id order; pending and hidden posts none.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { databaseKinds } from '../helpers/databases.ts';
import { DatabasesAtMigration, silentLog as log } from '../helpers/migrated.ts';
import { insertOnePost } from '../helpers/rows.ts';

const at = '2026-01-01T00:00:00.000Z';

for (const kind of databaseKinds()) {
  describe(`[${kind}] migration 0031: post positions`, () => {
    const databases = new DatabasesAtMigration(kind);
    after(() => databases.closeAll());

    it('numbers each topic’s published, shown posts in id order, and no other post', async () => {
      const handle = await databases.at('0030_topic_announcements');
      const db = handle.db;

      const first = await insertOnePost(db, 'Topic one opens');
      const { topic_id: one, author_id: author } = await db
        .selectFrom('posts')
        .select(['topic_id', 'author_id'])
        .where('id', '=', first)
        .executeTakeFirstOrThrow();
      const two = (
        await db
          .insertInto('topics')
          .values({ forum_id: 1, title: 'Topic two', author_id: author, status: 'published', posts_count: 0, last_post_at: at, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      // Interleaved between the two topics, some held, some hidden.
      const plan: Array<{ topic: number; status: 'published' | 'pending'; hidden: boolean }> = [
        { topic: two, status: 'published', hidden: false },
        { topic: one, status: 'pending', hidden: false },
        { topic: one, status: 'published', hidden: false },
        { topic: two, status: 'published', hidden: true },
        { topic: one, status: 'published', hidden: false },
        { topic: two, status: 'published', hidden: false },
      ];
      for (const [n, post] of plan.entries()) {
        await db
          .insertInto('posts')
          .values({
            topic_id: post.topic,
            author_id: author,
            body: `post ${n}`,
            status: post.status,
            held_by_filter_id: null,
            hidden_at: post.hidden ? at : null,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }

      await migrateToLatest(handle, log);
      const numbers = async (topicId: number) =>
        (await db.selectFrom('posts').select('position').where('topic_id', '=', topicId).orderBy('id').execute()).map((row) => row.position);
      assert.deepEqual(await numbers(one), [1, null, 2, 3]);
      assert.deepEqual(await numbers(two), [1, null, 2]);
    });
  });
}
