// SQL for emojis. Lists are ordered by display_order, then id, so pages never
// repeat or skip an emoji when several share an order.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { containsText, type Dialect } from '../db/dialect.ts';
import type { Database, EmojisTable } from '../db/schema.ts';
import type { EmojiRow } from './resource.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface EmojiListFilter {
  categoryId?: number | undefined;
  /** Contained (case-insensitive) in the shortcode, the title or the emoji text. */
  search?: string | undefined;
}

export class EmojiRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  find(id: number, db: Db = this.#db): Promise<EmojiRow | undefined> {
    return db.selectFrom('emojis').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async exists(id: number, db: Db = this.#db): Promise<boolean> {
    return (await db.selectFrom('emojis').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  byIds(ids: readonly number[]): Promise<EmojiRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#db.selectFrom('emojis').selectAll().where('id', 'in', [...ids]).execute();
  }

  async list(filter: EmojiListFilter, offset: number, limit: number): Promise<{ rows: EmojiRow[]; total: number }> {
    let query = this.#db.selectFrom('emojis');
    if (filter.categoryId !== undefined) query = query.where('emoji_category_id', '=', filter.categoryId);
    if (filter.search !== undefined && filter.search !== '') {
      const term = filter.search;
      query = query.where((eb) =>
        eb.or([
          containsText(this.#dialect, eb.ref('emoji_shortcode'), term),
          containsText(this.#dialect, eb.ref('title'), term),
          containsText(this.#dialect, eb.ref('emoji_text'), term),
        ]),
      );
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('display_order').orderBy('id').offset(offset).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** The emojis of these categories (or of every category), each category's in display order. */
  inCategories(categoryIds: readonly number[] | 'all'): Promise<EmojiRow[]> {
    let query = this.#db.selectFrom('emojis').selectAll();
    if (categoryIds === 'all') query = query.where('emoji_category_id', 'is not', null);
    else if (categoryIds.length === 0) return Promise.resolve([]);
    else query = query.where('emoji_category_id', 'in', [...categoryIds]);
    return query.orderBy('emoji_category_id').orderBy('display_order').orderBy('id').execute();
  }

  /** The whole catalog's emojis in display order. */
  all(): Promise<EmojiRow[]> {
    return this.#db.selectFrom('emojis').selectAll().orderBy('display_order').orderBy('id').execute();
  }

  async isEmpty(db: Db = this.#db): Promise<boolean> {
    return (await db.selectFrom('emojis').select('id').limit(1).executeTakeFirst()) === undefined;
  }

  insert(values: Insertable<EmojisTable>, db: Db): Promise<EmojiRow> {
    return db.insertInto('emojis').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<EmojisTable>, db: Db): Promise<EmojiRow | undefined> {
    return db.updateTable('emojis').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Its aliases and their codes go with it (foreign keys cascade). */
  async delete(id: number, db: Db = this.#db): Promise<boolean> {
    const result = await db.deleteFrom('emojis').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
