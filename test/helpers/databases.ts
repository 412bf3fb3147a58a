// Fresh databases for tests: SQLite in memory (or a temp file), and, when
// TEST_DATABASE_URL is set, a PostgreSQL database created for the test and
// dropped after it, so runs never see each other's rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  config: DatabaseConfig;
  /** DATABASE_URL form of `config`, for child processes. */
  url: string;
  drop(): Promise<void>;
}

/** The databases every suite runs on: SQLite always, PostgreSQL when configured. */
export function databaseKinds(): DatabaseKind[] {
  return process.env['TEST_DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Names the migrated PostgreSQL database that global-setup.ts made for this run, if it ran. */
export const MIGRATED_TEMPLATE = 'TEST_DATABASE_TEMPLATE';

/**
 * `migrated`: the app will migrate the database anyway, so on PostgreSQL it
 * may start as a copy of the run's migrated template (the same schema, made
 * by the same migrations). Tests of the migrations themselves start empty.
 */
export async function createTestDatabase(kind: DatabaseKind, options: { sqliteFile?: boolean; migrated?: boolean } = {}): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    if (!options.sqliteFile) {
      return { kind, config: { dialect: 'sqlite', path: ':memory:' }, url: 'sqlite::memory:', drop: async () => {} };
    }
    const dir = mkdtempSync(join(tmpdir(), 'forum-test-'));
    const path = join(dir, 'forum.db');
    return { kind, config: { dialect: 'sqlite', path }, url: `sqlite:${path}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }

  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `forum_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? process.env[MIGRATED_TEMPLATE] : undefined;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    config: { dialect: 'postgres', url: url.toString() },
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
