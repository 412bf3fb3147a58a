// Tells every instance that some shared data changed, so in-memory caches
// (the emoji catalog, compiled word-filter matchers) can rebuild. On SQLite
// there is one process, so a local emitter suffices; on PostgreSQL the other
// instances hear about it through LISTEN/NOTIFY, usually within milliseconds.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';

const CHANNEL = 'forum_changes';

export interface ChangeFeed {
  /** Announce a change to `topic`; local subscribers hear it at once. */
  publish(topic: string): Promise<void>;
  /** Returns a function that removes the listener. */
  subscribe(topic: string, listener: () => void): () => void;
  close(): Promise<void>;
}

class LocalListeners {
  readonly #listeners = new Map<string, Set<() => void>>();

  add(topic: string, listener: () => void): () => void {
    let set = this.#listeners.get(topic);
    if (set === undefined) this.#listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(topic: string): void {
    for (const listener of this.#listeners.get(topic) ?? []) listener();
  }

  emitAll(): void {
    for (const topic of this.#listeners.keys()) this.emit(topic);
  }
}

export function localChangeFeed(): ChangeFeed {
  const listeners = new LocalListeners();
  return {
    publish: async (topic) => listeners.emit(topic),
    subscribe: (topic, listener) => listeners.add(topic, listener),
    close: async () => {},
  };
}

export function postgresChangeFeed(pool: pg.Pool, clientConfig: pg.ClientConfig, log: Logger): ChangeFeed {
  const listeners = new LocalListeners();
  const instance = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(clientConfig);
    next.on('notification', (message) => {
      const [topic, origin] = (message.payload ?? '').split('|');
      if (topic !== undefined && origin !== instance) listeners.emit(topic);
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'change feed connection lost; reconnecting');
      next.end().catch(() => {});
      if (client === next) client = null;
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  };

  const scheduleReconnect = (): void => {
    if (closed || retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect()
        // Changes may have been missed while disconnected: everyone rebuilds.
        .then(() => listeners.emitAll())
        .catch(() => scheduleReconnect());
    }, 1000);
    retryTimer.unref();
  };

  const ready = connect().catch((error: unknown) => {
    log.warn({ err: error }, 'change feed could not listen; retrying');
    scheduleReconnect();
  });

  return {
    async publish(topic) {
      listeners.emit(topic);
      await pool.query('select pg_notify($1, $2)', [CHANNEL, `${topic}|${instance}`]);
    },
    subscribe: (topic, listener) => listeners.add(topic, listener),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await ready;
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
