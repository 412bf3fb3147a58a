// Opens the configured database: Kysely over node:sqlite or over a pg pool.
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../config.ts';
import { localChangeFeed, postgresChangeFeed, type ChangeFeed } from './change-feed.ts';
import type { Dialect } from './dialect.ts';
import { openSqlite } from './sqlite-adapter.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  changes: ChangeFeed;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const PG_TIMESTAMPTZ = 1184;

// Counts (int8) fit in a JS number; timestamptz comes back as the same ISO
// string SQLite stores, so the rest of the code sees one timestamp format.
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === PG_INT8) return (value: string) => Number(value);
    if (oid === PG_TIMESTAMPTZ) return (value: string) => new Date(value).toISOString();
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export function openDatabase(config: DatabaseConfig, log: Logger, options: { poolSize?: number } = {}): DatabaseHandle {
  if (config.dialect === 'sqlite') {
    const { adapter } = openSqlite(config.path);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapter }) });
    return databaseHandle(db, 'sqlite', localChangeFeed());
  }

  const clientConfig: pg.ClientConfig = {
    connectionString: config.url,
    types: pgTypes,
    options: '-c TimeZone=UTC',
    application_name: 'forum-backend',
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'idle database connection failed'));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return databaseHandle(db, 'postgres', postgresChangeFeed(pool, clientConfig, log));
}

function databaseHandle(db: Kysely<Database>, dialect: Dialect, changes: ChangeFeed): DatabaseHandle {
  return {
    db,
    dialect,
    changes,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}
