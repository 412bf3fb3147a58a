// Kysely's SqliteDialect expects a better-sqlite3-like object; node:sqlite is
// close enough that a thin wrapper suffices. No native addon is involved.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { writtenTable, type Writes } from './write-watch.ts';

export function openSqlite(path: string, writes?: Writes): { database: DatabaseSync; adapter: SqliteDatabase } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path, { timeout: 5000 });
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  // SQLite's lower()/upper()/LIKE fold ASCII only; this gives the queries a
  // Unicode-aware lower case, the same as PostgreSQL's lower().
  database.function('unicode_lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));

  // Whether a statement returns rows is asked once per statement, not per run.
  // So is the table it writes, if any (write-watch.ts).
  const statements = new Map<string, { statement: StatementSync; reader: boolean; writes: ReadonlySet<string> | null }>();
  const prepare = (sql: string): { statement: StatementSync; reader: boolean; writes: ReadonlySet<string> | null } => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      const statement = database.prepare(sql);
      const table = writes === undefined ? null : writtenTable(sql);
      prepared = { statement, reader: statement.columns().length > 0, writes: table === null ? null : new Set([table]) };
      // Bounded: query shapes are finite, but be safe against unbounded IN lists.
      if (statements.size > 2000) statements.clear();
      statements.set(sql, prepared);
    }
    return prepared;
  };

  const adapter: SqliteDatabase = {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const { statement, reader, writes: written } = prepare(sql);
      // One connection, held by Kysely for a whole transaction: no read runs between this write and its commit.
      const wrote = written === null ? () => {} : () => writes!.emit(written);
      return {
        reader,
        all: (parameters) => {
          const rows = statement.all(...bind(parameters));
          wrote();
          return rows;
        },
        run: (parameters) => {
          const result = statement.run(...bind(parameters));
          wrote();
          return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...bind(parameters)),
      };
    },
  };
  return { database, adapter };
}

// node:sqlite binds numbers, strings, bigints, buffers and null only.
function bind(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value): SQLInputValue => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}
