// SQL for forum categories (categories.ts): the rows, the forums listed under
// them, and the index's order of top-level forums (category by category).
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { inForums } from './permissions.ts';
import { countOf } from '../db/count.ts';
import type { CategoriesTable, Database } from '../db/schema.ts';
import type { ForumRow } from './repository.ts';

export type CategoryRow = Selectable<CategoriesTable>;

/** A top-level forum as the index lists it: with the category it is listed under (null: none). */
export type ForumUnderCategory = ForumRow & { category_title: string | null };

type Db = Kysely<Database> | Transaction<Database>;

export class CategoryRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  find(id: number, db: Db = this.#db): Promise<CategoryRow | undefined> {
    return db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every category, in display order (then id, so equal orders stay stable). */
  list(): Promise<CategoryRow[]> {
    return this.#db.selectFrom('categories').selectAll().orderBy('display_order').orderBy('id').execute();
  }

  async any(): Promise<boolean> {
    return (await this.#db.selectFrom('categories').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  insert(values: { title: string; display_order: number }, now: string): Promise<CategoryRow> {
    return this.#db
      .insertInto('categories')
      .values({ ...values, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, values: Partial<{ title: string; display_order: number }>, now: string): Promise<CategoryRow | undefined> {
    return this.#db
      .updateTable('categories')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Deletes the category when no forum is in it; false otherwise (or when it
   * does not exist). A forum put in it while this runs makes the foreign key
   * refuse the delete (`on delete restrict`): the caller answers that as "in use".
   */
  async deleteEmpty(id: number): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('categories')
      .where('id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('forums').select('forums.id').whereRef('forums.category_id', '=', 'categories.id'))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The forums listed under these categories: the top-level forums in them
   * and the subforums of those, each with the category it is listed under
   * (`listed_in`: a subforum's is its parent's), of those in `scope` (null:
   * all; a subforum's scope already leaves it out when its parent is). Unordered.
   */
  forumsUnder(categoryIds: readonly number[], scope: readonly number[] | null): Promise<(ForumRow & { listed_in: number })[]> {
    if (categoryIds.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('forums')
      .leftJoin('forums as parent', 'parent.id', 'forums.parent_id')
      .selectAll('forums')
      .select((eb) => eb.fn.coalesce('forums.category_id', 'parent.category_id').$notNull().as('listed_in'))
      .where((eb) => eb.or([eb('forums.category_id', 'in', categoryIds), eb('parent.category_id', 'in', categoryIds)]))
      .where(inForums('forums.id', scope))
      .execute();
  }

  /**
   * One page of the top-level forums in the index's order: category by
   * category (their display order), then the forums in none; inside each,
   * the forums' display order. With the number of top-level forums. Only
   * the forums in `scope` (null: all).
   */
  async topLevelByCategory(offset: number, limit: number, scope: readonly number[] | null): Promise<{ rows: ForumUnderCategory[]; total: number }> {
    const topLevel = this.#db.selectFrom('forums').where('forums.parent_id', 'is', null).where(inForums('forums.id', scope));
    const [rows, total] = await Promise.all([
      topLevel
        .leftJoin('categories', 'categories.id', 'forums.category_id')
        .selectAll('forums')
        .select('categories.title as category_title')
        .orderBy(sql`case when categories.id is null then 1 else 0 end`)
        .orderBy('categories.display_order')
        .orderBy('categories.id')
        .orderBy('forums.display_order')
        .orderBy('forums.id')
        .offset(offset)
        .limit(limit)
        .execute(),
      countOf(topLevel),
    ]);
    return { rows, total };
  }
}
