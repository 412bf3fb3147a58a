// Emoji aliases: alternative codes for an emoji, unique across every alias and
// shortcode (checked first for a clear message, enforced by the code registry
// inside the write's transaction). An alias can move to another emoji.
import { type Clock, isoNow } from '../clock.ts';
import type { Kysely } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import type { AliasRepository } from './alias-repository.ts';
import type { Catalog } from './catalog.ts';
import type { AliasFilter, CatalogSnapshot, Page } from './catalog-snapshot.ts';
import type { CategoryRepository } from './category-repository.ts';
import { takenMessage, type CodeRegistry } from './code-registry.ts';
import type { EmojiRepository } from './emoji-repository.ts';
import { isStorableId } from './fields.ts';
import type { AliasRow, CategoryRow, EmojiRow } from './resource.ts';

export interface AliasInput {
  emoji_id?: number | undefined;
  alias?: string | undefined;
}

export interface NewAlias extends AliasInput {
  emoji_id: number;
  alias: string;
}

/** An alias with its emoji and that emoji's category, when they were asked for. */
export interface LoadedAlias {
  row: AliasRow;
  emoji?: { row: EmojiRow; category: CategoryRow | null };
}

/** "The selected emoji id is invalid.", in the reader's language (the API's: English). */
function invalidEmoji(): string {
  return t('validation.selected', { field: fieldName('emoji_id') });
}

export class AliasService {
  readonly #db: Kysely<Database>;
  readonly #aliases: AliasRepository;
  readonly #emojis: EmojiRepository;
  readonly #categories: CategoryRepository;
  readonly #codes: CodeRegistry;
  readonly #catalog: Catalog;
  readonly #clock: Clock;

  constructor(
    db: Kysely<Database>,
    aliases: AliasRepository,
    emojis: EmojiRepository,
    categories: CategoryRepository,
    codes: CodeRegistry,
    catalog: Catalog,
    clock: Clock,
  ) {
    this.#clock = clock;
    this.#db = db;
    this.#aliases = aliases;
    this.#emojis = emojis;
    this.#categories = categories;
    this.#codes = codes;
    this.#catalog = catalog;
  }

  async find(id: number): Promise<AliasRow> {
    const row = await this.#aliases.find(id);
    if (row === undefined) throw new ModelNotFoundError('EmojiAlias', id);
    return row;
  }

  /** One alias with its emoji and the emoji's category. */
  async get(id: number): Promise<Required<LoadedAlias>> {
    const row = await this.find(id);
    const emoji = await this.#emojis.find(row.emoji_id);
    if (emoji === undefined) throw new ModelNotFoundError('EmojiAlias', id); // deleted with its emoji meanwhile
    const category = emoji.emoji_category_id === null ? null : ((await this.#categories.find(emoji.emoji_category_id)) ?? null);
    return { row, emoji: { row: emoji, category } };
  }

  /** A page of the in-memory catalog, alphabetical, with emojis (and their categories) when asked for. */
  async list(filter: AliasFilter, page: { offset: number; limit: number }, withEmoji: boolean): Promise<Page<LoadedAlias>> {
    const catalog = await this.#catalog.snapshot();
    if (filter.emojiId !== undefined && catalog.emoji(filter.emojiId) === undefined) throw ValidationError.field('emoji_id', invalidEmoji());
    const { rows, total } = catalog.aliasPage(filter, page.offset, page.limit);
    return { rows: rows.map((row) => loaded(catalog, row, withEmoji)), total };
  }

  /** Exact alias first, then prefix, then substring (see search-index.ts), from the in-memory catalog. */
  async search(q: string, limit: number, withEmoji: boolean): Promise<LoadedAlias[]> {
    const catalog = await this.#catalog.snapshot();
    return catalog.aliasSearch.search(q, limit).map((row) => loaded(catalog, row, withEmoji));
  }

  async create(input: NewAlias): Promise<AliasRow> {
    const errors = new FieldErrorBag();
    await this.#checkEmoji(input.emoji_id, errors);
    await this.#checkAlias(input.alias, null, errors);
    errors.throwIfAny();

    const now = isoNow(this.#clock);
    const row = await this.#write(input, null, async (trx) => {
      const inserted = await this.#aliases.insert({ emoji_id: input.emoji_id, alias: input.alias, created_at: now, updated_at: now }, trx);
      await this.#codes.claim(inserted.alias, { aliasId: inserted.id }, trx);
      return inserted;
    });
    await this.#catalog.changed();
    return row;
  }

  async update(id: number, input: AliasInput): Promise<AliasRow> {
    const current = await this.find(id);
    const newAlias = input.alias !== undefined && input.alias !== current.alias ? input.alias : undefined;
    const errors = new FieldErrorBag();
    if (input.emoji_id !== undefined) await this.#checkEmoji(input.emoji_id, errors);
    if (newAlias !== undefined) await this.#checkAlias(newAlias, id, errors);
    errors.throwIfAny();

    const row = await this.#write(input, id, async (trx) => {
      const updated = await this.#aliases.update(
        id,
        {
          ...(input.emoji_id !== undefined ? { emoji_id: input.emoji_id } : {}),
          ...(newAlias !== undefined ? { alias: newAlias } : {}),
          updated_at: isoNow(this.#clock),
        },
        trx,
      );
      if (updated === undefined) throw new ModelNotFoundError('EmojiAlias', id);
      if (newAlias !== undefined) await this.#codes.rename({ aliasId: id }, newAlias, trx);
      return updated;
    });
    await this.#catalog.changed();
    return row;
  }

  /** The emoji stays as it is. */
  async delete(id: number): Promise<void> {
    if (!(await this.#aliases.delete(id))) throw new ModelNotFoundError('EmojiAlias', id);
    await this.#catalog.changed();
  }

  async #checkEmoji(emojiId: number, errors: FieldErrorBag): Promise<void> {
    if (!isStorableId(emojiId) || !(await this.#emojis.exists(emojiId))) errors.add('emoji_id', invalidEmoji());
  }

  async #checkAlias(alias: string, aliasId: number | null, errors: FieldErrorBag): Promise<void> {
    const holder = await this.#codes.holder(alias);
    if (holder !== undefined && !(holder.kind === 'alias' && holder.id === aliasId)) errors.add('alias', takenMessage('alias', holder.kind));
  }

  /** See EmojiService: a lost race ends in the same 422 as the check. */
  async #write<T>(input: AliasInput, aliasId: number | null, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction().execute(work);
    } catch (error) {
      const errors = new FieldErrorBag();
      if (isUniqueViolation(error) && input.alias !== undefined) {
        await this.#checkAlias(input.alias, aliasId, errors);
        if (errors.isEmpty) errors.add('alias', takenMessage('alias', 'alias'));
      }
      if (isForeignKeyViolation(error)) errors.add('emoji_id', invalidEmoji());
      errors.throwIfAny();
      throw error;
    }
  }
}

/** The alias, with its emoji and the emoji's category from the same copy of the catalog when asked for. */
function loaded(catalog: CatalogSnapshot, row: AliasRow, withEmoji: boolean): LoadedAlias {
  const emoji = withEmoji ? catalog.emoji(row.emoji_id) : undefined;
  return emoji === undefined ? { row } : { row, emoji: { row: emoji, category: catalog.categoryOf(emoji) } };
}
