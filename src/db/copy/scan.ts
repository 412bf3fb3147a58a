// Reads a whole table in batches, so memory stays flat whatever its size:
// by primary key (keyset pagination) when it has one, by offset otherwise.
// Run inside a transaction when the rows must form one consistent snapshot.
import { sql, type RawBuilder } from 'kysely';
import type { AnyDb, TableInfo } from './catalog.ts';

export type Row = Record<string, unknown>;

/** Rows per batch: bounded both in rows and in bound parameters per INSERT. */
export function batchSize(table: TableInfo): number {
  return Math.max(1, Math.min(500, Math.floor(8000 / Math.max(1, table.columns.length))));
}

export async function* scanTable(db: AnyDb, table: TableInfo, size = batchSize(table)): AsyncGenerator<Row[]> {
  const columns = sql.join(table.columns.map((c) => sql.ref(c.name)));
  const from = sql.table(table.name);
  if (table.primaryKey.length === 0) {
    const order = sql.join(table.columns.map((c) => sql.ref(c.name)));
    for (let offset = 0; ; offset += size) {
      const batch = await sql<Row>`select ${columns} from ${from} order by ${order} limit ${size} offset ${offset}`.execute(db);
      if (batch.rows.length > 0) yield batch.rows;
      if (batch.rows.length < size) return;
    }
  }

  const key = sql.join(table.primaryKey.map((c) => sql.ref(c)));
  let after: RawBuilder<unknown> | null = null;
  for (;;) {
    const where: RawBuilder<unknown> = after === null ? sql`` : sql`where (${key}) > (${after})`;
    const batch = await sql<Row>`select ${columns} from ${from} ${where} order by ${key} limit ${size}`.execute(db);
    if (batch.rows.length > 0) yield batch.rows;
    if (batch.rows.length < size) return;
    const last = batch.rows[batch.rows.length - 1]!;
    after = sql.join(table.primaryKey.map((c) => sql`${last[c]}`));
  }
}

export async function countRows(db: AnyDb, table: string): Promise<number> {
  const result = await sql<{ n: number | string | bigint }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
