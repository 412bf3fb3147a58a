// The whole catalog held in memory for the list and search endpoints: read
// once, kept until any instance writes to the catalog. Every write announces
// itself on the change feed after it commits (topic `emoji_catalog`); this
// instance drops its copy at once (before the write's response goes out, so a
// client reads its own writes from this instance), other instances when PostgreSQL's
// NOTIFY reaches them, usually within milliseconds, and the next read loads
// the catalog afresh. Single gets and every write go to the database.
import type { ChangeFeed } from '../db/change-feed.ts';
import type { AliasRepository } from './alias-repository.ts';
import type { CategoryRepository } from './category-repository.ts';
import { CatalogSnapshot } from './catalog-snapshot.ts';
import type { EmojiRepository } from './emoji-repository.ts';

export const CATALOG_TOPIC = 'emoji_catalog';

export class Catalog {
  readonly #categories: CategoryRepository;
  readonly #emojis: EmojiRepository;
  readonly #aliases: AliasRepository;
  readonly #changes: ChangeFeed;
  #current: Promise<CatalogSnapshot> | null = null;

  constructor(categories: CategoryRepository, emojis: EmojiRepository, aliases: AliasRepository, changes: ChangeFeed) {
    this.#categories = categories;
    this.#emojis = emojis;
    this.#aliases = aliases;
    this.#changes = changes;
    // A read that started before the change may still finish; it is simply
    // not kept, because `#current` no longer points at it.
    changes.subscribe(CATALOG_TOPIC, () => {
      this.#current = null;
    });
  }

  /** The current catalog; concurrent callers share one read. */
  snapshot(): Promise<CatalogSnapshot> {
    if (this.#current !== null) return this.#current;
    const loading = this.#load();
    this.#current = loading;
    loading.catch(() => {
      if (this.#current === loading) this.#current = null;
    });
    return loading;
  }

  /** Call after a catalog write has committed. */
  async changed(): Promise<void> {
    this.#current = null;
    try {
      await this.#changes.publish(CATALOG_TOPIC);
    } catch {
      // The write itself has committed, so the request succeeded. Only the
      // other instances' copies may lag: their feed connection shares this
      // server, and when it drops and reconnects they rebuild everything.
    }
  }

  async #load(): Promise<CatalogSnapshot> {
    const [categories, emojis, aliases] = await Promise.all([this.#categories.list(), this.#emojis.all(), this.#aliases.all()]);
    return new CatalogSnapshot(categories, emojis, aliases);
  }
}
