// Emoji categories: reads with their emojis, and writes that announce
// themselves to the catalog.
import { type Clock, isoNow } from '../clock.ts';
import { ModelNotFoundError } from '../http/errors.ts';
import type { AliasRepository } from './alias-repository.ts';
import type { Catalog } from './catalog.ts';
import type { CategoryRepository } from './category-repository.ts';
import type { EmojiRepository } from './emoji-repository.ts';
import type { AliasRow, CategoryRow, EmojiRow } from './resource.ts';

export interface CategoryInput {
  title?: string | undefined;
  display_order?: number | undefined;
}

export interface NewCategory extends CategoryInput {
  title: string;
  display_order: number;
}

export interface CategoryWithEmojis {
  row: CategoryRow;
  emojis: EmojiRow[];
  /** Alphabetical aliases per emoji id, when they were asked for. */
  aliases: Map<number, AliasRow[]> | null;
}

export interface ListedCategory {
  row: CategoryRow;
  emojisCount?: number;
  emojis?: readonly EmojiRow[];
}

export class CategoryService {
  readonly #categories: CategoryRepository;
  readonly #emojis: EmojiRepository;
  readonly #aliases: AliasRepository;
  readonly #catalog: Catalog;
  readonly #clock: Clock;

  constructor(categories: CategoryRepository, emojis: EmojiRepository, aliases: AliasRepository, catalog: Catalog, clock: Clock) {
    this.#clock = clock;
    this.#categories = categories;
    this.#emojis = emojis;
    this.#aliases = aliases;
    this.#catalog = catalog;
  }

  async find(id: number): Promise<CategoryRow> {
    const row = await this.#categories.find(id);
    if (row === undefined) throw new ModelNotFoundError('EmojiCategory', id);
    return row;
  }

  async get(id: number, options: { withAliases: boolean }): Promise<CategoryWithEmojis> {
    const row = await this.find(id);
    const emojis = await this.#emojis.inCategory(id);
    const aliases = options.withAliases ? groupBy(await this.#aliases.ofEmojis(emojis.map((emoji) => emoji.id)), (alias) => alias.emoji_id) : null;
    return { row, emojis, aliases };
  }

  /**
   * Every category in display order, from the in-memory catalog; counts and
   * emojis only when asked for. The same array comes back until the catalog
   * changes.
   */
  async list(options: { withCount: boolean; withEmojis: boolean }): Promise<readonly ListedCategory[]> {
    const catalog = await this.#catalog.snapshot();
    return catalog.memo(`categories ${options.withCount} ${options.withEmojis}`, () =>
      catalog.categories.map((row) => {
        const emojis = catalog.emojisIn(row.id);
        return {
          row,
          ...(options.withCount ? { emojisCount: emojis.length } : {}),
          ...(options.withEmojis ? { emojis } : {}),
        };
      }),
    );
  }

  async create(input: NewCategory): Promise<CategoryRow> {
    const now = isoNow(this.#clock);
    const row = await this.#categories.insert({ title: input.title, display_order: input.display_order, created_at: now, updated_at: now });
    await this.#catalog.changed();
    return row;
  }

  async update(id: number, input: CategoryInput): Promise<CategoryRow> {
    const row = await this.#categories.update(id, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
      updated_at: isoNow(this.#clock),
    });
    if (row === undefined) throw new ModelNotFoundError('EmojiCategory', id);
    await this.#catalog.changed();
    return row;
  }

  /** The category's emojis remain, without a category. */
  async delete(id: number): Promise<void> {
    const deleted = await this.#categories.delete(id);
    if (!deleted) throw new ModelNotFoundError('EmojiCategory', id);
    await this.#catalog.changed();
  }
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}
