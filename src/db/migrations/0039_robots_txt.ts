// The site's robots.txt, as its admin writes it (docs/seo.md): null (and no
// row, before an admin first saves the settings) serves the default, which
// keeps crawlers out of the API, the admin pages and members' own pages and
// names the sitemap.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('site_settings').addColumn('robots_txt', 'text').execute();
}
