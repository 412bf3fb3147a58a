// Emojis: lists and relevance search from the in-memory catalog, single gets
// from the database, and writes that keep the kinds consistent and the
// shortcode unique across shortcodes and aliases (checked first for a clear
// message, enforced by the code registry inside the write's transaction).
import { type Clock, isoNow } from '../clock.ts';
import type { Insertable, Kysely } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.ts';
import type { Database, EmojisTable } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import type { AliasRepository } from './alias-repository.ts';
import type { Catalog } from './catalog.ts';
import type { CatalogSnapshot, EmojiFilter, Page } from './catalog-snapshot.ts';
import type { CategoryRepository } from './category-repository.ts';
import { takenMessage, type CodeRegistry } from './code-registry.ts';
import { NO_KIND, resolveKind, type KindFields, type KindInput } from './emoji-kind.ts';
import type { EmojiRepository } from './emoji-repository.ts';
import { isStorableId } from './fields.ts';
import type { AliasRow, CategoryRow, EmojiRow } from './resource.ts';

export interface EmojiInput extends KindInput {
  title?: string | undefined;
  emoji_shortcode?: string | undefined;
  emoji_category_id?: number | null | undefined;
  display_order?: number | undefined;
}

export interface NewEmoji extends EmojiInput {
  title: string;
  emoji_shortcode: string;
  display_order: number;
}

/** What to load with each emoji. */
export interface EmojiLoad {
  category: boolean;
  aliases: boolean;
}

/** An emoji with the relations that were asked for (undefined: not loaded). */
export interface LoadedEmoji {
  row: EmojiRow;
  category?: CategoryRow | null;
  aliases?: readonly AliasRow[];
}

/** "The selected emoji category id is invalid.", in the reader's language (the API's: English). */
function invalidCategory(): string {
  return t('validation.selected', { field: fieldName('emoji_category_id') });
}

export class EmojiService {
  readonly #db: Kysely<Database>;
  readonly #emojis: EmojiRepository;
  readonly #categories: CategoryRepository;
  readonly #aliases: AliasRepository;
  readonly #codes: CodeRegistry;
  readonly #catalog: Catalog;
  readonly #clock: Clock;

  constructor(
    db: Kysely<Database>,
    emojis: EmojiRepository,
    categories: CategoryRepository,
    aliases: AliasRepository,
    codes: CodeRegistry,
    catalog: Catalog,
    clock: Clock,
  ) {
    this.#clock = clock;
    this.#db = db;
    this.#emojis = emojis;
    this.#categories = categories;
    this.#aliases = aliases;
    this.#codes = codes;
    this.#catalog = catalog;
  }

  async find(id: number): Promise<EmojiRow> {
    const row = await this.#emojis.find(id);
    if (row === undefined) throw new ModelNotFoundError('Emoji', id);
    return row;
  }

  /** One emoji with its category and its aliases. */
  async get(id: number): Promise<Required<LoadedEmoji>> {
    const row = await this.find(id);
    const [category, aliases] = await Promise.all([
      row.emoji_category_id === null ? null : this.#categories.find(row.emoji_category_id),
      this.#aliases.ofEmojis([id]),
    ]);
    return { row, category: category ?? null, aliases };
  }

  /** A page of the in-memory catalog, in display order, with the relations asked for. */
  async list(filter: EmojiFilter, page: { offset: number; limit: number }, load: EmojiLoad): Promise<Page<LoadedEmoji>> {
    const catalog = await this.#catalog.snapshot();
    if (filter.categoryId !== undefined && filter.categoryId !== null && catalog.category(filter.categoryId) === undefined) {
      throw ValidationError.field('category_id', t('validation.selected', { field: fieldName('category_id') }));
    }
    const { rows, total } = catalog.emojiPage(filter, page.offset, page.limit);
    return { rows: rows.map((row) => loaded(catalog, row, load)), total };
  }

  /** Relevance-ranked (see search-index.ts), from the in-memory catalog. */
  async search(q: string, limit: number, load: EmojiLoad): Promise<LoadedEmoji[]> {
    const catalog = await this.#catalog.snapshot();
    return catalog.emojiSearch.search(q, limit).map((row) => loaded(catalog, row, load));
  }

  async create(input: NewEmoji): Promise<EmojiRow> {
    const errors = new FieldErrorBag();
    const kind = resolveKind(NO_KIND, input, errors);
    await this.#checkCategory(input.emoji_category_id, errors);
    await this.#checkShortcode(input.emoji_shortcode, null, errors);
    errors.throwIfAny();

    const now = isoNow(this.#clock);
    const values: Insertable<EmojisTable> = {
      title: input.title,
      emoji_shortcode: input.emoji_shortcode,
      emoji_category_id: input.emoji_category_id ?? null,
      display_order: input.display_order,
      ...kindColumns(kind),
      created_at: now,
      updated_at: now,
    };
    const row = await this.#write(input, null, async (trx) => {
      const inserted = await this.#emojis.insert(values, trx);
      await this.#codes.claim(inserted.emoji_shortcode, { emojiId: inserted.id }, trx);
      return inserted;
    });
    await this.#catalog.changed();
    return row;
  }

  async update(id: number, input: EmojiInput): Promise<EmojiRow> {
    const current = await this.find(id);
    const errors = new FieldErrorBag();
    const kind = resolveKind(kindOf(current), input, errors);
    await this.#checkCategory(input.emoji_category_id, errors);
    const newShortcode = input.emoji_shortcode !== undefined && input.emoji_shortcode !== current.emoji_shortcode ? input.emoji_shortcode : undefined;
    if (newShortcode !== undefined) await this.#checkShortcode(newShortcode, id, errors);
    errors.throwIfAny();

    const row = await this.#write(input, id, async (trx) => {
      const updated = await this.#emojis.update(
        id,
        {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(newShortcode !== undefined ? { emoji_shortcode: newShortcode } : {}),
          ...(input.emoji_category_id !== undefined ? { emoji_category_id: input.emoji_category_id } : {}),
          ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
          // All kind columns together, so concurrent updates cannot mix two kinds.
          ...kindColumns(kind),
          updated_at: isoNow(this.#clock),
        },
        trx,
      );
      if (updated === undefined) throw new ModelNotFoundError('Emoji', id);
      if (newShortcode !== undefined) await this.#codes.rename({ emojiId: id }, newShortcode, trx);
      return updated;
    });
    await this.#catalog.changed();
    return row;
  }

  /** Its aliases are deleted with it, and their codes become free. */
  async delete(id: number): Promise<void> {
    if (!(await this.#emojis.delete(id))) throw new ModelNotFoundError('Emoji', id);
    await this.#catalog.changed();
  }

  async #checkCategory(categoryId: number | null | undefined, errors: FieldErrorBag): Promise<void> {
    if (categoryId === undefined || categoryId === null) return;
    if (!isStorableId(categoryId) || !(await this.#categories.exists(categoryId))) errors.add('emoji_category_id', invalidCategory());
  }

  async #checkShortcode(code: string, emojiId: number | null, errors: FieldErrorBag): Promise<void> {
    const holder = await this.#codes.holder(code);
    if (holder !== undefined && !(holder.kind === 'emoji' && holder.id === emojiId))
      errors.add('emoji_shortcode', takenMessage('emoji_shortcode', holder.kind));
  }

  /**
   * Runs the write in a transaction. A concurrent request may take the code or
   * delete the category between the checks and the write; the database then
   * refuses, and the caller gets the same 422 the check would have given.
   */
  async #write<T>(input: EmojiInput, emojiId: number | null, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction().execute(work);
    } catch (error) {
      const errors = new FieldErrorBag();
      if (isUniqueViolation(error) && input.emoji_shortcode !== undefined) {
        await this.#checkShortcode(input.emoji_shortcode, emojiId, errors);
        if (errors.isEmpty) errors.add('emoji_shortcode', takenMessage('emoji_shortcode', 'emoji'));
      }
      if (isForeignKeyViolation(error)) errors.add('emoji_category_id', invalidCategory());
      errors.throwIfAny();
      throw error;
    }
  }
}

/** The emoji with its category and aliases from the same copy of the catalog, as asked for. */
function loaded(catalog: CatalogSnapshot, row: EmojiRow, load: EmojiLoad): LoadedEmoji {
  return {
    row,
    ...(load.category ? { category: catalog.categoryOf(row) } : {}),
    ...(load.aliases ? { aliases: catalog.aliasesOf(row.id) } : {}),
  };
}

function kindOf(row: EmojiRow): KindFields {
  const sprite =
    row.sprite_x !== null && row.sprite_y !== null && row.sprite_width !== null && row.sprite_height !== null && row.sprite_sheet !== null
      ? { x: row.sprite_x, y: row.sprite_y, width: row.sprite_width, height: row.sprite_height, sheet: row.sprite_sheet }
      : null;
  return { emoji_text: row.emoji_text, image_url: row.image_url, sprite_mode: Boolean(row.sprite_mode), sprite };
}

function kindColumns(kind: KindFields) {
  return {
    emoji_text: kind.emoji_text,
    image_url: kind.image_url,
    sprite_mode: kind.sprite_mode,
    sprite_x: kind.sprite?.x ?? null,
    sprite_y: kind.sprite?.y ?? null,
    sprite_width: kind.sprite?.width ?? null,
    sprite_height: kind.sprite?.height ?? null,
    sprite_sheet: kind.sprite?.sheet ?? null,
  };
}
