// Opens the configured database: Kysely over node:sqlite or over a pg pool.
import { Kysely, PostgresDialect, SqliteDialect, sql, type Logger as KyselyLogger } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../config.ts';
import { localChangeFeed, postgresChangeFeed, type ChangeFeed } from './change-feed.ts';
import type { Dialect } from './dialect.ts';
import { openSqlite } from './sqlite-adapter.ts';
import type { Database } from './schema.ts';
import { watchPoolWrites, Writes, type WriteWatch } from './write-watch.ts';

/** Cheap figures for monitoring (system/metrics-routes.ts). */
export interface DatabaseStats {
  queries: number;
  failedQueries: number;
  /** Time spent in queries, summed. */
  querySeconds: number;
  /** PostgreSQL connection pool; null on SQLite (one connection). */
  pool(): { total: number; idle: number; waiting: number } | null;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  changes: ChangeFeed;
  /** Tables this process wrote, heard once other connections can see the write. */
  writes: WriteWatch;
  /** Tells write listeners of tables written through another connection of this process (the tracker's accounting worker). */
  reportWrites(tables: ReadonlySet<string>): void;
  stats: DatabaseStats;
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
    const writes = new Writes();
    const { adapter } = openSqlite(config.path, writes);
    const stats = queryStats(() => null);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapter }), log: stats.log });
    return databaseHandle(db, 'sqlite', localChangeFeed(), writes, stats.stats);
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
  // A connection lost while checked out (between the statements of a
  // transaction, say) is emitted on its client, where pg-pool listens only
  // while idle: without a listener that would end the process. Its next
  // query fails instead, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const writes = new Writes();
  watchPoolWrites(pool, writes);
  const stats = queryStats(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: stats.log });
  return databaseHandle(db, 'postgres', postgresChangeFeed(pool, clientConfig, log), writes, stats.stats);
}

/** Counts every query and its time through Kysely's log hook (one call per query). */
function queryStats(pool: DatabaseStats['pool']): { stats: DatabaseStats; log: KyselyLogger } {
  const stats: DatabaseStats = { queries: 0, failedQueries: 0, querySeconds: 0, pool };
  const log: KyselyLogger = (event) => {
    stats.queries += 1;
    stats.querySeconds += event.queryDurationMillis / 1000;
    if (event.level === 'error') stats.failedQueries += 1;
  };
  return { stats, log };
}

function databaseHandle(db: Kysely<Database>, dialect: Dialect, changes: ChangeFeed, writes: Writes, stats: DatabaseStats): DatabaseHandle {
  return {
    db,
    dialect,
    changes,
    writes,
    reportWrites: (tables) => writes.emit(tables),
    stats,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}
