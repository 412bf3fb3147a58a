// Brings the schema up to date at start. On PostgreSQL, Kysely's migrator
// holds an advisory lock, so instances starting together run each migration once.
import { Migrator } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseHandle } from './database.ts';
import { migrations } from './migrations/index.ts';

export async function migrateToLatest(database: DatabaseHandle, log: Logger): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') log.info({ migration: result.migrationName }, 'migration applied');
    if (result.status === 'Error') log.error({ migration: result.migrationName }, 'migration failed');
  }
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
}
