// Rows written straight into a database, for tests that run on a schema an
// older migration left (the services expect the latest one).
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { usernameSkeleton } from '../../src/db/username-skeleton.ts';

const at = '2026-01-01T00:00:00.000Z';

/** An active member named `name`; their id. Before migration 0027 users have no skeleton column. */
export async function insertUser(db: Kysely<Database>, name: string): Promise<number> {
  const tables = await db.introspection.getTables();
  const skeletons = tables.some((table) => table.name === 'users' && table.columns.some((column) => column.name === 'username_skeleton'));
  const row = {
    username: name,
    username_key: name,
    email: `${name}@example.org`,
    email_key: `${name}@example.org`,
    password_hash: 'x',
    role: 'user' as const,
    status: 'active' as const,
    created_at: at,
    updated_at: at,
  };
  const user = skeletons
    ? await db
        .insertInto('users')
        .values({ ...row, username_skeleton: usernameSkeleton(name) })
        .returning('id')
        .executeTakeFirstOrThrow()
    : await (db as unknown as Kysely<{ users: Omit<Database['users'], 'username_skeleton'> }>)
        .insertInto('users')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
  return user.id;
}

/** A member, a forum and a published topic whose one post has `body`; the post's id. */
export async function insertOnePost(db: Kysely<Database>, body: string): Promise<number> {
  const userId = await insertUser(db, 'old');
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
      author_id: userId,
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
    .values({ topic_id: topic.id, author_id: userId, body, status: 'published', held_by_filter_id: null, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return post.id;
}
