// Copies every table of one database into an empty one, SQLite or PostgreSQL
// either way. The target's own migrations run first, so its schema is the
// service's; the rows then go across in foreign-key order, in batches, inside
// one transaction on the target that also checks row counts and checksums
// before it commits: a copy that does not verify leaves the target empty.
// Ids are copied as they are and PostgreSQL sequences are moved past them.
// Uploaded files are not in the database and are not touched.
// Wall time here on purpose: a CLI names files and measures durations (src/clock.ts).
/* eslint-disable no-restricted-syntax -- a command-line tool: its durations and file names are wall time (src/clock.ts) */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../database.ts';
import type { Dialect } from '../dialect.ts';
import { migrateToLatest } from '../migrate.ts';
import { markAllPostsForIndexing } from '../search-backfill.ts';
import { recountMemberPosts } from '../post-counts.ts';
import { migrations } from '../migrations/index.ts';
import { appliedMigrations, dependencyOrder, readCatalog, type AnyDb, type ColumnInfo, type TableInfo } from './catalog.ts';
import { TableChecksum } from './checksum.ts';
import { countRows, scanTable, type Row } from './scan.ts';

/** The copy was not started: the reason is for the operator to fix. */
export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefused';
  }
}

/** The rows arrived but do not match the source; the target was rolled back. */
export class CopyMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyMismatch';
  }
}

export interface TableSummary {
  name: string;
  rows: number;
  checksum: string;
}

export interface CopyReport {
  tables: TableSummary[];
  milliseconds: number;
}

export async function copyDatabase(source: DatabaseHandle, target: DatabaseHandle, log: Logger): Promise<CopyReport> {
  const started = Date.now();
  await refuseUnlessMigrated(source);
  await refuseUnlessEmpty(target, 'before its migrations');
  await migrateToLatest(target, log);
  await refuseUnlessEmpty(target, 'after its migrations');

  const sourceTables = await readCatalog(source.db, source.dialect);
  const targetTables = await readCatalog(target.db, target.dialect);
  refuseUnlessSameShape(sourceTables, targetTables);
  const sourceByName = new Map(sourceTables.map((t) => [t.name, t]));

  const summaries = await snapshot(source, (src) =>
    target.db.transaction().execute(async (dst) => {
      // Self-references and cycles inside one table: checked at commit, not per row.
      await sql.raw(target.dialect === 'postgres' ? 'set constraints all deferred' : 'pragma defer_foreign_keys = on').execute(dst);
      const copied: TableSummary[] = [];
      for (const table of dependencyOrder(targetTables)) {
        copied.push(await copyTable(src, sourceByName.get(table.name)!, dst, table, target.dialect));
        log.info({ table: table.name, rows: copied.at(-1)!.rows }, 'table copied');
      }
      if (target.dialect === 'postgres') await moveSequences(dst, targetTables);
      await recountMemberPosts(dst);
      await verify(dst, targetTables, copied);
      // The search index is not copied (isDerivedTable): the target's next start indexes every post.
      await markAllPostsForIndexing(dst);
      return copied;
    }),
  );
  return { tables: summaries.sort((a, b) => (a.name < b.name ? -1 : 1)), milliseconds: Date.now() - started };
}

/** Every table's row count and checksum, read from one consistent snapshot. */
export async function tableChecksums(database: DatabaseHandle): Promise<TableSummary[]> {
  const tables = await readCatalog(database.db, database.dialect);
  return snapshot(database, async (db) => {
    const summaries: TableSummary[] = [];
    for (const table of tables) summaries.push(await checksumTable(db, table));
    return summaries;
  });
}

async function checksumTable(db: AnyDb, table: TableInfo): Promise<TableSummary> {
  const checksum = new TableChecksum(table);
  for await (const batch of scanTable(db, table)) for (const row of batch) checksum.add(row);
  return { name: table.name, rows: checksum.rows, checksum: checksum.value };
}

/** Reads in one transaction: PostgreSQL's repeatable read, SQLite's read transaction (WAL keeps writers going). */
async function snapshot<T>(database: DatabaseHandle, work: (db: AnyDb) => Promise<T>): Promise<T> {
  const builder = database.db.transaction();
  return database.dialect === 'postgres' ? builder.setIsolationLevel('repeatable read').setAccessMode('read only').execute(work) : builder.execute(work);
}

async function copyTable(src: AnyDb, from: TableInfo, dst: AnyDb, to: TableInfo, dialect: Dialect): Promise<TableSummary> {
  const checksum = new TableChecksum(from);
  const columns = new Map(to.columns.map((c) => [c.name, c]));
  for await (const batch of scanTable(src, from)) {
    const rows = batch.map((row) => {
      checksum.add(row);
      const converted: Row = {};
      for (const [name, value] of Object.entries(row)) converted[name] = toTarget(value, columns.get(name)!, dialect);
      return converted;
    });
    await dst.insertInto(to.name).values(rows).execute();
  }
  return { name: to.name, rows: checksum.rows, checksum: checksum.value };
}

/** A value as the target's driver takes it for that column. */
function toTarget(value: unknown, column: ColumnInfo, dialect: Dialect): unknown {
  if (value === null || value === undefined) return null;
  if (dialect === 'postgres') {
    if (column.kind === 'boolean' && typeof value !== 'boolean') return value === 1 || value === 1n || value === '1';
    // pg would send a JS array as a PostgreSQL array, not as JSON.
    if (column.kind === 'json' && typeof value !== 'string') return JSON.stringify(value);
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return value;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value;
}

/** Next generated id = highest copied id + 1, for every identity/serial column. */
export async function moveSequences(dst: AnyDb, tables: readonly TableInfo[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.sequenced) {
      await sql`select setval(pg_get_serial_sequence(quote_ident(${table.name}), ${column}),
                              coalesce((select max(${sql.ref(column)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(dst);
    }
  }
}

async function verify(dst: AnyDb, tables: readonly TableInfo[], copied: readonly TableSummary[]): Promise<void> {
  const expected = new Map(copied.map((s) => [s.name, s]));
  const problems: string[] = [];
  for (const table of tables) {
    const found = await checksumTable(dst, table);
    const wanted = expected.get(table.name)!;
    if (found.rows !== wanted.rows) problems.push(`${table.name}: ${wanted.rows} rows read, ${found.rows} in the target`);
    else if (found.checksum !== wanted.checksum) problems.push(`${table.name}: checksum ${found.checksum} in the target, ${wanted.checksum} in the source`);
  }
  if (problems.length > 0) throw new CopyMismatch(`the copy does not match its source, nothing was kept:\n  ${problems.join('\n  ')}`);
}

async function refuseUnlessMigrated(source: DatabaseHandle): Promise<void> {
  const applied = await appliedMigrations(source.db, source.dialect);
  const known = Object.keys(migrations).sort();
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new CopyRefused(`the source has migrations this version does not know (${unknown.join(', ')}); copy with the version that wrote it`);
  const missing = known.filter((name) => !applied.includes(name));
  if (missing.length > 0)
    throw new CopyRefused(`the source lacks migrations ${missing.join(', ')}; start the service on it once (it migrates at start), then copy`);
}

async function refuseUnlessEmpty(target: DatabaseHandle, when: string): Promise<void> {
  const filled: string[] = [];
  for (const table of await readCatalog(target.db, target.dialect)) {
    const rows = await countRows(target.db, table.name);
    if (rows > 0) filled.push(`${table.name} (${rows} rows)`);
  }
  if (filled.length > 0) throw new CopyRefused(`the target is not empty ${when}: ${filled.join(', ')}; copy into an empty database`);
}

function refuseUnlessSameShape(source: readonly TableInfo[], target: readonly TableInfo[]): void {
  const problems: string[] = [];
  const targetByName = new Map(target.map((t) => [t.name, t]));
  for (const table of source) {
    const other = targetByName.get(table.name);
    if (other === undefined) {
      problems.push(`table ${table.name} exists only in the source`);
      continue;
    }
    const names = new Set(other.columns.map((c) => c.name));
    for (const column of table.columns) if (!names.has(column.name)) problems.push(`column ${table.name}.${column.name} exists only in the source`);
    const sourceNames = new Set(table.columns.map((c) => c.name));
    for (const column of other.columns) if (!sourceNames.has(column.name)) problems.push(`column ${table.name}.${column.name} exists only in the target`);
  }
  for (const table of target) if (!source.some((t) => t.name === table.name)) problems.push(`table ${table.name} exists only in the target`);
  if (problems.length > 0) throw new CopyRefused(`source and target schemas differ:\n  ${problems.join('\n  ')}`);
}
