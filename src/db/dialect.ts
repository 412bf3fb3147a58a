// The few places where SQLite and PostgreSQL need different SQL live here.
import { sql, PostgresAdapter, type ColumnDefinitionBuilder, type Expression, type Kysely, type RawBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<unknown>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Column type for timestamps: timestamptz on PostgreSQL, ISO text on SQLite. */
export function timestampType(dialect: Dialect): 'timestamptz' | 'text' {
  return dialect === 'postgres' ? 'timestamptz' : 'text';
}

/** Unicode-aware lower case (SQLite gets `unicode_lower` from the adapter). */
export function lower(dialect: Dialect, value: Expression<string>): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`lower(${value})` : sql<string>`unicode_lower(${value})`;
}

/** Case-insensitive sort key that orders alike on both databases: by code point, whatever PostgreSQL's collation. */
export function caseInsensitiveOrder(dialect: Dialect, value: Expression<string>): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`lower(${value}) collate "C"` : sql<string>`unicode_lower(${value})`;
}

/** An aggregate of an integer column's values as one text, joined by commas (null over no rows). */
export function joinedIntegers(dialect: Dialect, column: Expression<number>): RawBuilder<string | null> {
  return dialect === 'postgres' ? sql<string | null>`string_agg(${column}::text, ',')` : sql<string | null>`group_concat(${column}, ',')`;
}

/** Case-insensitive "contains" with LIKE wildcards in the term taken literally. */
export function containsText(dialect: Dialect, column: Expression<string | null>, term: string): RawBuilder<boolean> {
  const pattern = `%${escapeLike(term.toLowerCase())}%`;
  return sql<boolean>`${lower(dialect, column as Expression<string>)} like ${pattern} escape '\\'`;
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The database refused a row because a unique index already holds its key. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  if (e.code === '23505') return true; // PostgreSQL unique_violation
  return typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed');
}

/** The database refused a row because a referenced row does not exist. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  if (e.code === '23503') return true; // PostgreSQL foreign_key_violation
  return typeof e.message === 'string' && e.message.includes('FOREIGN KEY constraint failed');
}

/**
 * PostgreSQL refused a value itself, not the row: text it cannot store (NUL,
 * 22021; 22P05), a number past its column's range (22003), or text that does
 * not spell the column's type (22P02). Input validation keeps these out
 * (http/validation.ts, http/integers.ts); this names what slipped past.
 */
export function isRefusedValue(error: unknown): boolean {
  const e = error as { code?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  return e.code === '22021' || e.code === '22P05' || e.code === '22003' || e.code === '22P02';
}

/** Primary key filled by the database: identity on PostgreSQL, autoincrement on SQLite. */
export function autoId(column: ColumnDefinitionBuilder, dialect: Dialect): ColumnDefinitionBuilder {
  return dialect === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/** CHECK (column IN (...)) with the allowed values inlined as literals. */
export function oneOfCheck(column: string, values: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}

/**
 * Text compared and ordered by code point on both databases (PostgreSQL's
 * default collation may be locale-aware; SQLite's BINARY already is this), so
 * uniqueness is exact and "alphabetical" means the same everywhere.
 */
export function exactText(column: ColumnDefinitionBuilder, dialect: Dialect): ColumnDefinitionBuilder {
  return column.modifyFront(dialect === 'postgres' ? sql`collate "C"` : sql`collate binary`);
}

/**
 * Makes transactions that take the same named lock run one after another, for
 * one-time work that several instances may attempt at once (PostgreSQL: an
 * advisory lock released at commit). SQLite needs nothing: one process owns
 * the database and Kysely runs its transactions one at a time.
 */
export async function lockForTransaction<DB>(trx: Kysely<DB>, dialect: Dialect, name: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}
