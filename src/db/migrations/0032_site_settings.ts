// The site's own settings (issue 29, docs/admin.md "Site settings"): what an
// operator sets for the whole board (its name, a line describing it, a logo,
// the language guests read it in, whether anyone may register), kept in the
// database so that an admin page changes them on every instance at once. One
// row, which the check keeps the only one.
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
  await db
    .insertInto('site_settings' as never)
    .values({
      id: 1,
      name: 'Forum',
      description: '',
      logo_url: null,
      default_locale: 'en',
      registration_open: true,
      // eslint-disable-next-line no-restricted-syntax -- a migration has no clock of its own: the row was last changed when it was made
      updated_at: new Date().toISOString(),
    } as never)
    .execute();
}
