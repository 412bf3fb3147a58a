// Forum categories (docs/access.md, "Categories"): the headings the index
// lists forums under, as TorrentPier's bb_categories. A top-level forum is in
// one category or none; a subforum has none of its own (it shows in its
// parent's), which the check holds even when two changes of one forum race.
// A category that still holds forums cannot be deleted (restrict).
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('categories')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull().check(sql`display_order >= 0`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('categories_order').on('categories').columns(['display_order', 'id']).execute();
  await db.schema
    .alterTable('forums')
    .addColumn('category_id', 'integer', (c) =>
      c
        .references('categories.id')
        .onDelete('restrict')
        .check(sql`category_id is null or parent_id is null`),
    )
    .execute();
  // A category's forums in order (the API's list, the index), and the delete's "is any forum in it".
  await db.schema.createIndex('forums_category').on('forums').columns(['category_id', 'display_order', 'id']).execute();
}
