// Tells listeners which tables this process has written, once the write is
// visible to other connections: caches of rendered pages (forum/page-cache.ts)
// empty themselves on it, whatever code path wrote (services, admin pages,
// the view-count batch). Found by the statement's text (`insert into "x"`,
// `update "x"`, `delete from "x"`), as Kysely writes it.
//
// SQLite: one connection, which Kysely holds for a whole transaction, so no
// other query runs between a write and its commit: listeners hear of it as
// soon as the statement has run. PostgreSQL: readers use other connections
// and see a transaction's writes only once it commits, so listeners hear of
// a connection's writes when it goes back to the pool, after its commit (or
// rollback: an emptied cache costs a few renders, never a wrong page).
import type pg from 'pg';

export type WriteListener = (tables: ReadonlySet<string>) => void;

export interface WriteWatch {
  /** Returns a function that removes the listener. */
  subscribe(listener: WriteListener): () => void;
}

const WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i;

/** The table a statement writes, or null for a read (or anything else). */
export function writtenTable(sql: string): string | null {
  return WRITE.exec(sql)?.[1]?.toLowerCase() ?? null;
}

export class Writes implements WriteWatch {
  readonly #listeners = new Set<WriteListener>();

  subscribe(listener: WriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(tables: ReadonlySet<string>): void {
    for (const listener of this.#listeners) listener(tables);
  }
}

const DIRTY = Symbol('tables written');

type WatchedClient = pg.PoolClient & { [DIRTY]?: Set<string> };

/** Watches every connection of `pool`: each query's text, and the connection's return to the pool. */
export function watchPoolWrites(pool: pg.Pool, writes: Writes): void {
  pool.on('connect', (client: WatchedClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      const table = typeof text === 'string' ? writtenTable(text) : null;
      if (table !== null) (client[DIRTY] ??= new Set()).add(table);
      return query(...args);
    }) as typeof client.query;
  });
  pool.on('release', (_error: Error | undefined, client: WatchedClient) => {
    const tables = client[DIRTY];
    if (tables === undefined) return;
    client[DIRTY] = undefined;
    writes.emit(tables);
  });
}
