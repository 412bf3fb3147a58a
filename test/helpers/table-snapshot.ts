// A fingerprint of every row of every table, cheap enough to take around a
// single request: "did this refused request change anything?" On PostgreSQL
// one query hashes every table in the server; on SQLite the rows are read and
// hashed here (and kept, so a difference can name the rows).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { isDerivedTable } from '../../src/db/copy/catalog.ts';
import type { TestApp } from './app.ts';

/** Columns that change without a write request: buffered topic view counts (written every few seconds). */
const IGNORED_COLUMNS: Record<string, readonly string[]> = { topics: ['views_count'] };
/** Tables written on the clock, not by a request: the seed-bonus job records each ten-minute window it ran. */
const IGNORED_TABLES: ReadonlySet<string> = new Set(['tracker_bonus_windows']);

export interface TableState {
  count: number;
  hash: string;
  /** The rows as JSON text, sorted (SQLite only: PostgreSQL hashes in the server). */
  rows?: string[];
  /** Rows holding a NUL character (SQLite only: PostgreSQL cannot store one). */
  nulRows?: string[];
}

export type Snapshot = Map<string, TableState>;

const tableLists = new WeakMap<object, Promise<string[]>>();

function tablesOf(t: TestApp): Promise<string[]> {
  let tables = tableLists.get(t.database.db);
  if (tables === undefined) {
    tables = t.database.db.introspection.getTables({ withInternalKyselyTables: false }).then((list) =>
      list
        .map((table) => table.name)
        // The search index is made from the posts (checked here) in their transactions; its FTS5 blocks are not rows to compare.
        .filter((name) => !IGNORED_TABLES.has(name) && !isDerivedTable(name))
        .sort(),
    );
    tableLists.set(t.database.db, tables);
  }
  return tables;
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function snapshotTables(t: TestApp): Promise<Snapshot> {
  const tables = await tablesOf(t);
  const snapshot: Snapshot = new Map();
  if (t.database.dialect === 'postgres') {
    const parts = tables.map((table) => {
      const ignored = (IGNORED_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('');
      const row = `(to_jsonb(x)${ignored})::text`;
      return `SELECT '${table}' AS name, count(*)::int AS count, coalesce(md5(string_agg(${row}, ',' ORDER BY ${row})), '') AS hash FROM ${quoted(table)} x`;
    });
    const result = await sql<{ name: string; count: number; hash: string }>`${sql.raw(parts.join(' UNION ALL '))}`.execute(t.database.db);
    for (const row of result.rows) snapshot.set(row.name, { count: row.count, hash: row.hash });
    return snapshot;
  }
  for (const table of tables) {
    const result = await sql<Record<string, unknown>>`SELECT * FROM ${sql.raw(quoted(table))}`.execute(t.database.db);
    const ignored = IGNORED_COLUMNS[table] ?? [];
    const rows = result.rows.map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !ignored.includes(column)))).sort();
    const nulRows = result.rows
      .filter((row) => Object.values(row).some((value) => typeof value === 'string' && value.includes('\0')))
      .map((row) => JSON.stringify(row));
    snapshot.set(table, { count: rows.length, hash: createHash('sha1').update(rows.join('\n')).digest('hex'), rows, nulRows });
  }
  return snapshot;
}

/** What differs between two snapshots, one line per table (empty when nothing changed). */
export function snapshotDifferences(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [table, was] of before) {
    const now = after.get(table);
    if (now === undefined || now.hash === was.hash) continue;
    let line = `${table}: ${was.count} → ${now.count} rows, contents changed`;
    if (was.rows !== undefined && now.rows !== undefined) {
      const old = new Set(was.rows);
      const fresh = new Set(now.rows);
      const removed = was.rows.filter((row) => !fresh.has(row)).slice(0, 3);
      const added = now.rows.filter((row) => !old.has(row)).slice(0, 3);
      line += removed.map((row) => `\n    - ${row.slice(0, 300)}`).join('') + added.map((row) => `\n    + ${row.slice(0, 300)}`).join('');
    }
    lines.push(line);
  }
  for (const table of after.keys()) if (!before.has(table)) lines.push(`${table}: new table`);
  return lines;
}

/** Rows (SQLite snapshots only) holding a NUL character: text no layer should have let through. */
export function rowsWithNul(snapshot: Snapshot): string[] {
  const found: string[] = [];
  for (const [table, state] of snapshot) {
    for (const row of state.nulRows ?? []) found.push(`${table}: ${row.slice(0, 300)}`);
  }
  return found;
}
