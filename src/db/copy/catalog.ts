// What tables a database holds, read from the database itself (never a list
// in code): columns with their types, primary keys, foreign keys and the
// sequences behind generated ids. The copy and its checksums work from this,
// so tables added by later migrations are copied without a change here.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** How a column's values are compared across dialects (see checksum.ts). */
export type ValueKind = 'boolean' | 'json' | 'other';

export interface ColumnInfo {
  name: string;
  /** Declared type (SQLite) or type name (PostgreSQL), lower case. */
  type: string;
  kind: ValueKind;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary-key columns in key order; empty when the table has none. */
  primaryKey: string[];
  /** Tables this one references (foreign keys), itself excluded. */
  references: string[];
  /** Columns filled from a sequence (PostgreSQL identity or serial). */
  sequenced: string[];
}

/**
 * The search index (migration 0012): made from the posts, not copied (its form
 * differs between the databases: FTS5 and its shadow tables on SQLite, a
 * tsvector table on PostgreSQL). The copy marks every post for the target's
 * start-up to index again.
 */
export function isDerivedTable(name: string): boolean {
  return name === 'post_search' || name.startsWith('post_search_') || name === 'search_backfill';
}

/** Tables the migrator owns: the target's own migrations fill them. */
export const MIGRATOR_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];

// Kysely<any>: the tables are discovered at run time, so no static schema applies.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyDb = Kysely<any>;

export async function readCatalog(db: AnyDb, dialect: Dialect): Promise<TableInfo[]> {
  return dialect === 'postgres' ? readPostgres(db) : readSqlite(db);
}

function kindOf(type: string): ValueKind {
  if (type === 'boolean' || type === 'bool') return 'boolean';
  if (type === 'json' || type === 'jsonb') return 'json';
  return 'other';
}

async function readSqlite(db: AnyDb): Promise<TableInfo[]> {
  const names = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite\_%' escape '\\' order by name`.execute(db);
  const tables: TableInfo[] = [];
  for (const { name } of names.rows) {
    if (MIGRATOR_TABLES.includes(name) || isDerivedTable(name)) continue;
    const columns = await sql<{ name: string; type: string; pk: number }>`select name, type, pk from pragma_table_info(${name}) order by cid`.execute(db);
    const foreign = await sql<{ table: string }>`select distinct "table" from pragma_foreign_key_list(${name})`.execute(db);
    const primaryKey = columns.rows
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    tables.push({
      name,
      columns: columns.rows.map((c) => ({ name: c.name, type: c.type.toLowerCase(), kind: kindOf(c.type.toLowerCase()) })),
      primaryKey,
      references: foreign.rows.map((f) => f.table).filter((t) => t !== name),
      // AUTOINCREMENT keeps sqlite_sequence at the highest id inserted, explicit ids included.
      sequenced: [],
    });
  }
  return tables;
}

async function readPostgres(db: AnyDb): Promise<TableInfo[]> {
  const columns = await sql<{ table: string; column: string; type: string; sequence: string | null }>`
    select c.relname as table, a.attname as column, t.typname as type,
           pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_type t on t.oid = a.atttypid
     where n.nspname = current_schema() and c.relkind in ('r', 'p')
     order by c.relname, a.attnum`.execute(db);
  const keys = await sql<{ table: string; column: string }>`
    select c.relname as table, a.attname as column
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
     where i.indisprimary and c.relnamespace = current_schema()::regnamespace
     order by c.relname, array_position(i.indkey::int2[], a.attnum)`.execute(db);
  const foreign = await sql<{ table: string; parent: string }>`
    select distinct c.relname as table, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
     where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace`.execute(db);

  const tables = new Map<string, TableInfo>();
  for (const row of columns.rows) {
    if (MIGRATOR_TABLES.includes(row.table) || isDerivedTable(row.table)) continue;
    let table = tables.get(row.table);
    if (table === undefined) tables.set(row.table, (table = { name: row.table, columns: [], primaryKey: [], references: [], sequenced: [] }));
    table.columns.push({ name: row.column, type: row.type, kind: kindOf(row.type) });
    if (row.sequence !== null) table.sequenced.push(row.column);
  }
  for (const row of keys.rows) tables.get(row.table)?.primaryKey.push(row.column);
  for (const row of foreign.rows) {
    if (row.parent !== row.table) tables.get(row.table)?.references.push(row.parent);
  }
  return [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Tables ordered so that every table comes after the tables it references,
 * which lets rows be inserted with foreign keys checked as they arrive.
 * A cycle between tables cannot be ordered and is refused by name.
 */
export function dependencyOrder(tables: readonly TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TableInfo, path: string[]): void => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`tables reference each other in a cycle (${[...path, table.name].join(' → ')}); cannot order the copy`);
    state.set(table.name, 'visiting');
    for (const parent of table.references) {
      const next = byName.get(parent);
      if (next !== undefined) visit(next, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

/** Names of the migrations applied to a database, in name order (empty when none ran). */
export async function appliedMigrations(db: AnyDb, dialect: Dialect): Promise<string[]> {
  const exists =
    dialect === 'postgres'
      ? await sql<{
          found: number;
        }>`select count(*)::int as found from pg_class where relname = 'kysely_migration' and relnamespace = current_schema()::regnamespace`.execute(db)
      : await sql<{ found: number }>`select count(*) as found from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db);
  if (Number(exists.rows[0]?.found ?? 0) === 0) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}
