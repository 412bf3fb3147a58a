// A value read from a few tables and kept in memory until they change: this
// process's committed writes to them (the database's write watch) and other
// instances' (the change feed) mark it stale, and the next question reads
// it again, so a change applies on the next request on every instance.
// (The forum's access rules, forum-access.ts; the site's settings.)
import type { ChangeFeed } from './change-feed.ts';
import type { WriteWatch } from './write-watch.ts';

export interface SnapshotSource<T> {
  /** The change-feed topic that tells every instance the tables changed. */
  topic: string;
  /** The tables the value is read from. */
  tables: ReadonlySet<string>;
  load(): Promise<T>;
}

export class Snapshot<T> {
  readonly #load: () => Promise<T>;
  #value: T | null = null;
  /** Counts changes heard; the value is current when it was loaded after the latest one. */
  #changes = 0;
  #loadedAt = -1;
  #loading: Promise<{ value: T; started: number }> | null = null;

  constructor(source: SnapshotSource<T>, database: { writes: WriteWatch; changes: ChangeFeed }, onError: (error: unknown) => void) {
    this.#load = source.load;
    database.writes.subscribe((tables) => {
      for (const table of tables) {
        if (!source.tables.has(table)) continue;
        this.changed();
        database.changes.publish(source.topic).catch(onError);
        return;
      }
    });
    database.changes.subscribe(source.topic, () => this.changed());
  }

  /**
   * The current value: one loaded after every change heard before the
   * question. A change heard later is for a later question, so a reader waits
   * for at most the load under way and one more, however busy the writers are.
   */
  async current(): Promise<T> {
    const asked = this.#changes;
    if (this.#value !== null && this.#loadedAt === asked) return this.#value;
    for (;;) {
      this.#loading ??= this.#reload();
      const loaded = await this.#loading;
      if (loaded.started >= asked) return loaded.value;
    }
  }

  /** The value last loaded, without waiting (null before the first load): for what must answer at once. */
  lastKnown(): T | null {
    return this.#value;
  }

  /**
   * The tables changed: the next question reloads. The write watch says so
   * for every write; a writer that answers with the new value at once says
   * so itself, not waiting for the watch (on PostgreSQL it hears of a write
   * when the connection is released).
   */
  changed(): void {
    this.#changes++;
  }

  async #reload(): Promise<{ value: T; started: number }> {
    try {
      const started = this.#changes;
      const value = await this.#load();
      // Loads run one at a time, so a later one never overwrites a newer value.
      this.#value = value;
      this.#loadedAt = started;
      return { value, started };
    } finally {
      this.#loading = null;
    }
  }
}
