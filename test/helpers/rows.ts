// Rows written straight into a database, for tests that run on a schema an
// older migration left (the services expect the latest one).
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

const at = '2026-01-01T00:00:00.000Z';

/** A member, a forum and a published topic whose one post has `body`; the post's id. */
export async function insertOnePost(db: Kysely<Database>, body: string): Promise<number> {
  const user = await db
    .insertInto('users')
    .values({
      username: 'old',
      username_key: 'old',
      email: 'old@example.org',
      email_key: 'old@example.org',
      password_hash: 'x',
      role: 'user',
      status: 'active',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const forum = await db
    .insertInto('forums')
    .values({ name: 'Old', description: '', display_order: 1, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const topic = await db
    .insertInto('topics')
    .values({
      forum_id: forum.id,
      title: 'Old topic',
      author_id: user.id,
      status: 'published',
      posts_count: 1,
      last_post_at: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const post = await db
    .insertInto('posts')
    .values({ topic_id: topic.id, author_id: user.id, body, status: 'published', held_by_filter_id: null, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return post.id;
}
