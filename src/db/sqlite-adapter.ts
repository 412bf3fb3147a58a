// Kysely's SqliteDialect expects a better-sqlite3-like object; node:sqlite is
// close enough that a thin wrapper suffices. No native addon is involved.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export function openSqlite(path: string): { database: DatabaseSync; adapter: SqliteDatabase } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path, { timeout: 5000 });
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  // SQLite's lower()/upper()/LIKE fold ASCII only; this gives the queries a
  // Unicode-aware lower case, the same as PostgreSQL's lower().
  database.function('unicode_lower', { deterministic: true }, (value) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );

  // Whether a statement returns rows is asked once per statement, not per run.
  const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepare = (sql: string): { statement: StatementSync; reader: boolean } => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      const statement = database.prepare(sql);
      prepared = { statement, reader: statement.columns().length > 0 };
      // Bounded: query shapes are finite, but be safe against unbounded IN lists.
      if (statements.size > 2000) statements.clear();
      statements.set(sql, prepared);
    }
    return prepared;
  };

  const adapter: SqliteDatabase = {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const { statement, reader } = prepare(sql);
      return {
        reader,
        all: (parameters) => statement.all(...bind(parameters)),
        run: (parameters) => {
          const result = statement.run(...bind(parameters));
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
