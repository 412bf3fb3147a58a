// The whole catalog held in memory for search: read once, kept until any
// instance writes to the catalog. Every write announces itself on the change
// feed after it commits (topic `emoji_catalog`); this instance drops its copy
// at once, other instances when PostgreSQL's NOTIFY reaches them, and the next
// search reads the catalog afresh.
import type { ChangeFeed } from '../db/change-feed.ts';
import type { AliasRepository } from './alias-repository.ts';
import type { CategoryRepository } from './category-repository.ts';
import type { EmojiRepository } from './emoji-repository.ts';
import type { AliasRow, CategoryRow, EmojiRow } from './resource.ts';
import { AliasSearchIndex, EmojiSearchIndex } from './search-index.ts';

export const CATALOG_TOPIC = 'emoji_catalog';

export class CatalogSnapshot {
  readonly emojis: EmojiSearchIndex;
  readonly aliases: AliasSearchIndex;
  readonly #categories: Map<number, CategoryRow>;
  readonly #emojiById: Map<number, EmojiRow>;
  readonly #aliasesOf = new Map<number, AliasRow[]>();

  constructor(categories: readonly CategoryRow[], emojis: readonly EmojiRow[], aliases: readonly AliasRow[]) {
    this.#categories = new Map(categories.map((category) => [category.id, category]));
    this.#emojiById = new Map(emojis.map((emoji) => [emoji.id, emoji]));
    for (const alias of aliases) {
      const list = this.#aliasesOf.get(alias.emoji_id);
      if (list === undefined) this.#aliasesOf.set(alias.emoji_id, [alias]);
      else list.push(alias);
    }
    this.emojis = new EmojiSearchIndex(emojis, (id) => this.aliasesOf(id));
    this.aliases = new AliasSearchIndex(aliases);
  }

  /** Alphabetical. */
  aliasesOf(emojiId: number): readonly AliasRow[] {
    return this.#aliasesOf.get(emojiId) ?? [];
  }

  categoryOf(emoji: EmojiRow): CategoryRow | null {
    return emoji.emoji_category_id === null ? null : (this.#categories.get(emoji.emoji_category_id) ?? null);
  }

  emoji(id: number): EmojiRow | undefined {
    return this.#emojiById.get(id);
  }
}

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
