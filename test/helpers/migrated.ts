// Fresh databases migrated up to a named migration: tests of what a later
// migration does to the rows already there. Every one is closed and dropped
// by closeAll(), which a suite's after() calls.
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.ts';

export const silentLog = pino({ level: 'silent' });

export class DatabasesAtMigration {
  readonly #kind: DatabaseKind;
  readonly #opened: Array<{ database: TestDatabase; handle: DatabaseHandle }> = [];

  constructor(kind: DatabaseKind) {
    this.#kind = kind;
  }

  /** A fresh database migrated up to `name` (included). */
  async at(name: string): Promise<DatabaseHandle> {
    const database = await createTestDatabase(this.#kind, { sqliteFile: true });
    const handle = openDatabase(database.config, silentLog);
    this.#opened.push({ database, handle });
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    assert.equal((await migrator.migrateTo(name)).error, undefined);
    return handle;
  }

  async closeAll(): Promise<void> {
    for (const { database, handle } of this.#opened.splice(0)) {
      await handle.close();
      await database.drop();
    }
  }
}
