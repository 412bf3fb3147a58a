// SQL for emojis. Orders are display_order, then id, so pages never repeat or
// skip an emoji when several share an order.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, EmojisTable } from '../db/schema.ts';
import type { EmojiRow } from './resource.ts';

type Db = Kysely<Database> | Transaction<Database>;

export class EmojiRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  find(id: number, db: Db = this.#db): Promise<EmojiRow | undefined> {
    return db.selectFrom('emojis').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async exists(id: number, db: Db = this.#db): Promise<boolean> {
    return (await db.selectFrom('emojis').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** The emojis of a category, in display order. */
  inCategory(categoryId: number): Promise<EmojiRow[]> {
    return this.#db.selectFrom('emojis').selectAll().where('emoji_category_id', '=', categoryId).orderBy('display_order').orderBy('id').execute();
  }

  /** The whole catalog's emojis in display order. */
  all(): Promise<EmojiRow[]> {
    return this.#db.selectFrom('emojis').selectAll().orderBy('display_order').orderBy('id').execute();
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
