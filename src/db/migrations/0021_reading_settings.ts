// A member's interface language and time zone (docs/i18n.md); null: as the
// browser asks (Accept-Language, the browser's own zone).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'varchar(8)').execute();
  await db.schema.alterTable('users').addColumn('time_zone', 'varchar(64)').execute();
}
