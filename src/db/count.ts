// Counting the rows of a list, the one way every repository does it.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** The number of rows a query (before its select) would return. */
export async function countOf<T extends keyof Database>(query: SelectQueryBuilder<Database, T, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}
