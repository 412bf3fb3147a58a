// Big forums (issue 36, docs/big-forums.md): a post's place among its
// topic's published, shown posts, kept in the row, so that a deep page of a
// 50,000-post topic, the page that holds a post and the topic's size are
// index look-ups rather than counts of every post before them. Null for
// pending and hidden posts. The app keeps it (src/forum/post-positions.ts);
// this numbers the posts already there.
//
// A forum's list as guests see it gets the published, shown part of the
// listing index (0030) to itself, so that a deep page of a 100,000-topic
// forum skips index entries only, never reading a skipped topic's row to
// check that it is published and shown.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('position', 'integer').execute();
  await sql`update posts set position = numbered.position
    from (select id, row_number() over (partition by topic_id order by id) as position
          from posts where status = 'published' and hidden_at is null) as numbered
    where posts.id = numbered.id`.execute(db);
  await db.schema.createIndex('posts_topic_position').on('posts').columns(['topic_id', 'position']).execute();
  await db.schema
    .createIndex('topics_public_listing')
    .on('topics')
    .columns(['forum_id', 'announced', 'pinned', 'last_post_at', 'id'])
    .where(sql.ref('status'), '=', sql.lit('published'))
    .where(sql.ref('hidden_at'), 'is', null)
    .execute();
}
