// Static pages (docs/static-pages.md): rules, FAQ, about and any other page an admin
// writes, each at /pages/{slug}/, in English, Russian or both (one row of
// text per language), ordered in the footer by `position`. The slug is the
// page's address: lowercase letters, digits and single hyphens, unique.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

const LOCALES = ['en', 'ru'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('site_pages')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_footer', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('site_page_texts')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('site_pages.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull().check(oneOfCheck('locale', LOCALES)))
    .addColumn('title', 'text', (c) => c.notNull().check(sql<boolean>`length(title) > 0`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_page_texts_pk', ['page_id', 'locale'])
    .execute();
}
