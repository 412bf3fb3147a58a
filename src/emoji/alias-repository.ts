// SQL for emoji aliases. Alphabetical means by code point (the column's
// collation), the same on SQLite and PostgreSQL.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, EmojiAliasesTable } from '../db/schema.ts';
import type { AliasRow } from './resource.ts';

type Db = Kysely<Database> | Transaction<Database>;

export class AliasRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  find(id: number, db: Db = this.#db): Promise<AliasRow | undefined> {
    return db.selectFrom('emoji_aliases').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The aliases of these emojis, alphabetical: one query for a whole page of emojis. */
  ofEmojis(emojiIds: readonly number[]): Promise<AliasRow[]> {
    if (emojiIds.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('emoji_aliases')
      .selectAll()
      .where('emoji_id', 'in', [...emojiIds])
      .orderBy('alias')
      .execute();
  }

  /** Every alias, alphabetical. */
  all(): Promise<AliasRow[]> {
    return this.#db.selectFrom('emoji_aliases').selectAll().orderBy('alias').execute();
  }

  insert(values: Insertable<EmojiAliasesTable>, db: Db): Promise<AliasRow> {
    return db.insertInto('emoji_aliases').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<EmojiAliasesTable>, db: Db): Promise<AliasRow | undefined> {
    return db.updateTable('emoji_aliases').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Its code goes with it (the foreign key cascades); the emoji is untouched. */
  async delete(id: number, db: Db = this.#db): Promise<boolean> {
    const result = await db.deleteFrom('emoji_aliases').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
