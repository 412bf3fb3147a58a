// Full-text search of posts (docs/search.md). The index holds, per post, the
// terms of its topic's title (opening posts only) and of its text, as the
// forum's search tokenizer made them (src/forum/search/text.ts), so that both
// databases match the same words:
//   SQLite      post_search: an FTS5 table without stored content (rowid = post
//               id; the text is in posts), emptied by a trigger when a post goes
//   PostgreSQL  post_search: a tsvector per post (title terms weighted A) under
//               a GIN index, removed with its post by the foreign key
// search_backfill marks the posts written before the index existed (or by the
// importer) that still have to be indexed: ids next_post_id..last_post_id.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await db.schema
      .createTable('post_search')
      .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
      .addColumn('document', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`create index post_search_document on post_search using gin (document)`.execute(db);
  } else {
    await sql`create virtual table post_search using fts5(title, body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0')`.execute(
      db,
    );
    await sql`create trigger posts_search_delete after delete on posts begin delete from post_search where rowid = old.id; end`.execute(db);
  }

  await db.schema
    .createTable('search_backfill')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('next_post_id', 'integer', (c) => c.notNull())
    .addColumn('last_post_id', 'integer', (c) => c.notNull())
    .execute();
  const { max } = await sql<{ max: number | null }>`select max(id) as max from posts`.execute(db).then((r) => r.rows[0]!);
  await sql`insert into search_backfill (id, next_post_id, last_post_id) values (1, 1, ${max ?? 0})`.execute(db);
}
