// Each member's count of published, visible posts (`users.post_count`, kept by
// the triggers of migration 0018). Recounting from the posts is for writers
// that bring users with their counts and then the posts, which the triggers
// count a second time: the database copy.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

export async function recountMemberPosts(db: Kysely<Database> | Transaction<Database>): Promise<void> {
  await sql`update users set post_count = (select count(*) from posts where posts.author_id = users.id and posts.status = 'published' and posts.hidden_at is null)`.execute(
    db,
  );
}
