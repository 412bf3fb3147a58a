// The member list sorts by post count (docs/members.md), so each member's
// count of published, visible posts is kept on the user row, as phpBB and
// TorrentPier keep `user_posts`. Triggers keep it, not the services: a post
// changes its standing in many places (reply, approval, rejection, hiding,
// deletion, a topic's deletion cascading to its posts, the importer), and the
// database sees all of them.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update users set post_count = (select count(*) from posts where posts.author_id = users.id and posts.status = 'published' and posts.hidden_at is null)`.execute(
    db,
  );
  await db.schema.createIndex('users_post_count').on('users').columns(['post_count', 'id']).execute();
  await db.schema.createIndex('users_created_at').on('users').columns(['created_at', 'id']).execute();

  // A post counts while it is published and not hidden.
  if (dialectOf(db) === 'postgres') {
    await sql`create function posts_keep_post_count() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and (old.status = 'published' and old.hidden_at is null) then
    update users set post_count = post_count - 1 where id = old.author_id;
  end if;
  if tg_op in ('UPDATE', 'INSERT') and (new.status = 'published' and new.hidden_at is null) then
    update users set post_count = post_count + 1 where id = new.author_id;
  end if;
  return null;
end $$`.execute(db);
    await sql`create trigger posts_post_count after insert or delete or update of status, hidden_at, author_id on posts
for each row execute function posts_keep_post_count()`.execute(db);
  } else {
    await sql`create trigger posts_post_count_insert after insert on posts when (new.status = 'published' and new.hidden_at is null)
begin update users set post_count = post_count + 1 where id = new.author_id; end`.execute(db);
    await sql`create trigger posts_post_count_delete after delete on posts when (old.status = 'published' and old.hidden_at is null)
begin update users set post_count = post_count - 1 where id = old.author_id; end`.execute(db);
    await sql`create trigger posts_post_count_update after update of status, hidden_at, author_id on posts
begin
  update users set post_count = post_count - 1 where id = old.author_id and (old.status = 'published' and old.hidden_at is null);
  update users set post_count = post_count + 1 where id = new.author_id and (new.status = 'published' and new.hidden_at is null);
end`.execute(db);
  }
}
