// The site's own settings (issue 29, docs/admin.md "Site settings"): what an
// operator sets for the whole board (its name, a line describing it, a logo,
// the language guests read it in, whether anyone may register), kept in the
// database so that an admin page changes them on every instance at once. One
// row at most, which the check keeps the only one; none until an admin first
// saves them (the defaults are the app's, site/settings.ts), so that a new
// database stays empty for the TorrentPier import.
import { sql, type Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  await db.schema
    .createTable('site_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('default_locale', 'text', (c) => c.notNull().check(sql`default_locale in ('en', 'ru')`))
    .addColumn('registration_open', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
