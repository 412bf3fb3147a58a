// One consistent copy of the whole catalog, read from the database in three
// queries, answering the list and search endpoints without further queries:
// pages are slices of arrays already in display (or alphabetical) order, and
// every relation is a map lookup.
import type { AliasRow, CategoryRow, EmojiRow } from './resource.ts';
import { AliasSearchIndex, EmojiSearchIndex } from './search-index.ts';

export interface Page<T> {
  rows: T[];
  total: number;
}

export const EMOJI_SORTS = ['display_order', 'title', 'shortcode'] as const;
export type EmojiSort = (typeof EMOJI_SORTS)[number];

export interface EmojiFilter {
  /** null: emojis without a category. */
  categoryId?: number | null | undefined;
  /** Contained (case-insensitive) in the shortcode, the title or the emoji text. */
  search?: string | undefined;
  /** Default display order (then id); the API lists in display order, the admin pages sort by column too. */
  sort?: EmojiSort | undefined;
  descending?: boolean | undefined;
}

export interface AliasFilter {
  emojiId?: number | undefined;
  /** Contained (case-insensitive) in the alias. */
  search?: string | undefined;
}

export class CatalogSnapshot {
  /** Display order, then id. */
  readonly categories: readonly CategoryRow[];
  readonly #categoryById: Map<number, CategoryRow>;
  /** Display order, then id. */
  readonly #emojis: readonly EmojiRow[];
  readonly #emojiById: Map<number, EmojiRow>;
  readonly #emojisIn = new Map<number, EmojiRow[]>();
  /** Alphabetical (code point order, as the database sorts them). */
  readonly #aliases: readonly AliasRow[];
  readonly #aliasesOf = new Map<number, AliasRow[]>();
  #emojiSearch: EmojiSearchIndex | null = null;
  #aliasSearch: AliasSearchIndex | null = null;
  readonly #derived = new Map<string, unknown>();

  constructor(categories: readonly CategoryRow[], emojis: readonly EmojiRow[], aliases: readonly AliasRow[]) {
    this.categories = categories;
    this.#categoryById = new Map(categories.map((category) => [category.id, category]));
    this.#emojis = emojis;
    this.#emojiById = new Map(emojis.map((emoji) => [emoji.id, emoji]));
    for (const emoji of emojis) if (emoji.emoji_category_id !== null) push(this.#emojisIn, emoji.emoji_category_id, emoji);
    this.#aliases = aliases;
    for (const alias of aliases) push(this.#aliasesOf, alias.emoji_id, alias);
  }

  /** The emoji a shortcode or one of its aliases names (exact, as stored). */
  emojiByCode(code: string): EmojiRow | undefined {
    let byCode = this.#derived.get('byCode') as Map<string, EmojiRow> | undefined;
    if (byCode === undefined) {
      byCode = new Map(this.#emojis.map((emoji) => [emoji.emoji_shortcode, emoji]));
      for (const alias of this.#aliases) {
        const emoji = this.#emojiById.get(alias.emoji_id);
        if (emoji !== undefined) byCode.set(alias.alias, emoji);
      }
      this.#derived.set('byCode', byCode);
    }
    return byCode.get(code);
  }

  emoji(id: number): EmojiRow | undefined {
    return this.#emojiById.get(id);
  }

  category(id: number): CategoryRow | undefined {
    return this.#categoryById.get(id);
  }

  categoryOf(emoji: EmojiRow): CategoryRow | null {
    return emoji.emoji_category_id === null ? null : (this.#categoryById.get(emoji.emoji_category_id) ?? null);
  }

  /** Alphabetical. */
  aliasesOf(emojiId: number): readonly AliasRow[] {
    return this.#aliasesOf.get(emojiId) ?? [];
  }

  /** In display order. */
  emojisIn(categoryId: number): readonly EmojiRow[] {
    return this.#emojisIn.get(categoryId) ?? [];
  }

  emojiPage(filter: EmojiFilter, offset: number, limit: number): Page<EmojiRow> {
    const sort = filter.sort ?? 'display_order';
    const categoryId = filter.categoryId;
    let rows = this.#sortedEmojis(sort);
    if (categoryId === null) rows = rows.filter((emoji) => emoji.emoji_category_id === null);
    else if (categoryId !== undefined)
      rows = sort === 'display_order' ? this.emojisIn(categoryId) : rows.filter((emoji) => emoji.emoji_category_id === categoryId);
    if (filter.search !== undefined && filter.search !== '') {
      const term = filter.search.toLowerCase();
      rows = rows.filter((emoji) => contains(emoji.emoji_shortcode, term) || contains(emoji.title, term) || contains(emoji.emoji_text, term));
    }
    if (filter.descending === true) {
      const total = rows.length;
      const end = Math.max(0, total - offset);
      return { rows: rows.slice(Math.max(0, end - limit), end).reverse(), total };
    }
    return { rows: rows.slice(offset, offset + limit), total: rows.length };
  }

  /** Emojis without a category. */
  get uncategorisedCount(): number {
    return this.memo('uncategorised', () => this.#emojis.filter((emoji) => emoji.emoji_category_id === null).length);
  }

  #sortedEmojis(sort: EmojiSort): readonly EmojiRow[] {
    if (sort === 'display_order') return this.#emojis;
    // Titles case-insensitively (then as written), shortcodes in code point order as stored; ties by id.
    const key = sort === 'title' ? (emoji: EmojiRow) => emoji.title.toLowerCase() : (emoji: EmojiRow) => emoji.emoji_shortcode;
    return this.memo(`emojis by ${sort}`, () => [...this.#emojis].sort((a, b) => compare(key(a), key(b)) || compare(a.title, b.title) || a.id - b.id));
  }

  aliasPage(filter: AliasFilter, offset: number, limit: number): Page<AliasRow> {
    let rows = filter.emojiId !== undefined ? this.aliasesOf(filter.emojiId) : this.#aliases;
    if (filter.search !== undefined && filter.search !== '') {
      const term = filter.search.toLowerCase();
      rows = rows.filter((alias) => contains(alias.alias, term));
    }
    return { rows: rows.slice(offset, offset + limit), total: rows.length };
  }

  /**
   * A value computed from this copy of the catalog, computed once: the same
   * key answers the same object until the catalog changes, so callers may
   * cache by its identity (the serialized category list, for example).
   */
  memo<T>(key: string, build: () => T): T {
    if (!this.#derived.has(key)) this.#derived.set(key, build());
    return this.#derived.get(key) as T;
  }

  /** Built on the first search, not on every reload after a write. */
  get emojiSearch(): EmojiSearchIndex {
    return (this.#emojiSearch ??= new EmojiSearchIndex(this.#emojis, (id) => this.aliasesOf(id)));
  }

  get aliasSearch(): AliasSearchIndex {
    return (this.#aliasSearch ??= new AliasSearchIndex(this.#aliases));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function contains(text: string | null, lowerTerm: string): boolean {
  return text !== null && text.toLowerCase().includes(lowerTerm);
}

function push<T>(map: Map<number, T[]>, key: number, item: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [item]);
  else list.push(item);
}
