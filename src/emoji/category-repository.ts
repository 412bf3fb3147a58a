// SQL for emoji categories.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, EmojiCategoriesTable } from '../db/schema.ts';
import type { CategoryRow } from './resource.ts';

type Db = Kysely<Database> | Transaction<Database>;

export class CategoryRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  find(id: number, db: Db = this.#db): Promise<CategoryRow | undefined> {
    return db.selectFrom('emoji_categories').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async exists(id: number, db: Db = this.#db): Promise<boolean> {
    const row = await db.selectFrom('emoji_categories').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** Every category, in display order (then id, so equal orders stay stable). */
  list(db: Db = this.#db): Promise<CategoryRow[]> {
    return db.selectFrom('emoji_categories').selectAll().orderBy('display_order').orderBy('id').execute();
  }

  insert(values: Insertable<EmojiCategoriesTable>, db: Db = this.#db): Promise<CategoryRow> {
    return db.insertInto('emoji_categories').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<EmojiCategoriesTable>, db: Db = this.#db): Promise<CategoryRow | undefined> {
    return db.updateTable('emoji_categories').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** The category's emojis stay, uncategorised (the foreign key sets them to null). */
  async delete(id: number, db: Db = this.#db): Promise<boolean> {
    const result = await db.deleteFrom('emoji_categories').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
