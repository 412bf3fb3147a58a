// Forum categories (docs/access.md, "Categories"): the headings the index
// lists forums under, as TorrentPier's bb_categories. A top-level forum is in
// one category or none; a subforum has no category of its own and is listed
// with its parent, in its parent's category. Admins create, rename, reorder
// and delete them; a category that still holds forums is not deleted (409).
// Which forum is in which is set on the forum (forums.ts, `category_id`).
import { type Clock, isoNow } from '../clock.ts';
import { isForeignKeyViolation } from '../db/dialect.ts';
import { ApiError, ModelNotFoundError } from '../http/errors.ts';
import type { ReaderPermissions } from './permissions.ts';
import type { PageRequest } from '../http/pagination.ts';
import { t } from '../i18n/messages.ts';
import type { CategoryRepository, CategoryRow, ForumUnderCategory } from './category-repository.ts';
import type { ForumRow } from './repository.ts';

export type { CategoryRow } from './category-repository.ts';

export interface CategoryInput {
  title?: string | undefined;
  display_order?: number | undefined;
}

export interface NewCategory extends CategoryInput {
  title: string;
  display_order: number;
}

export interface CategoryWithForums {
  row: CategoryRow;
  /** Its top-level forums in display order, each followed by its subforums in theirs. */
  forums: ForumRow[];
}

/** The forums of one heading on the index: a category's, or (category null) those in none. */
export interface IndexGroup {
  category: { id: number; title: string } | null;
  forums: ForumRow[];
}

export interface IndexPage {
  groups: IndexGroup[];
  /** Top-level forums on every page. */
  total: number;
  /** Whether the board has categories at all: without any, the index needs no heading. */
  hasCategories: boolean;
}

export class Categories {
  readonly #repository: CategoryRepository;
  readonly #clock: Clock;

  constructor(repository: CategoryRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  async find(id: number): Promise<CategoryRow> {
    const row = await this.#repository.find(id);
    if (row === undefined) throw new ModelNotFoundError('Category', id);
    return row;
  }

  /** Every category in display order, without their forums (the admin's lists and choices). */
  rows(): Promise<CategoryRow[]> {
    return this.#repository.list();
  }

  async exists(id: number): Promise<boolean> {
    return (await this.#repository.find(id)) !== undefined;
  }

  /** Every category in display order, each with the forums that exist for this reader (empty categories too). */
  async list(reader: ReaderPermissions): Promise<CategoryWithForums[]> {
    const rows = await this.#repository.list();
    const forums = await this.#forumsUnder(
      rows.map((row) => row.id),
      reader,
    );
    return rows.map((row) => ({ row, forums: forums.get(row.id) ?? [] }));
  }

  async get(id: number, reader: ReaderPermissions): Promise<CategoryWithForums> {
    const row = await this.find(id);
    return { row, forums: (await this.#forumsUnder([id], reader)).get(id) ?? [] };
  }

  create(input: NewCategory): Promise<CategoryRow> {
    return this.#repository.insert({ title: input.title, display_order: input.display_order }, isoNow(this.#clock));
  }

  async update(id: number, input: CategoryInput): Promise<CategoryRow> {
    const row = await this.#repository.update(
      id,
      {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
      },
      isoNow(this.#clock),
    );
    if (row === undefined) throw new ModelNotFoundError('Category', id);
    return row;
  }

  /** Only an empty category goes: 409 while any forum is in it, checked by the delete itself and by the foreign key. */
  async delete(id: number): Promise<void> {
    await this.find(id);
    let deleted: boolean;
    try {
      deleted = await this.#repository.deleteEmpty(id);
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      deleted = false;
    }
    if (deleted) return;
    // Deleted meanwhile by someone else: as if it had never been there.
    await this.find(id);
    throw new ApiError('CONFLICT', t('category.has_forums'));
  }

  /** One page of the index: its top-level forums under their categories' headings, in the index's order. */
  async index(page: PageRequest, reader: ReaderPermissions): Promise<IndexPage> {
    const [{ rows, total }, hasCategories] = await Promise.all([
      this.#repository.topLevelByCategory(page.offset, page.perPage, reader.viewScope()),
      this.#repository.any(),
    ]);
    return { groups: groupByCategory(rows), total, hasCategories };
  }

  /** The forums listed under each of these categories, in the order the index shows them. */
  async #forumsUnder(categoryIds: readonly number[], reader: ReaderPermissions): Promise<Map<number, ForumRow[]>> {
    const listed = await this.#repository.forumsUnder(categoryIds, reader.viewScope());
    const byOrder = (a: ForumRow, b: ForumRow) => a.display_order - b.display_order || a.id - b.id;
    const children = new Map<number, ForumRow[]>();
    for (const { listed_in: _, ...forum } of listed) {
      if (forum.parent_id === null) continue;
      const list = children.get(forum.parent_id) ?? [];
      list.push(forum);
      children.set(forum.parent_id, list);
    }
    const byCategory = new Map<number, ForumRow[]>();
    for (const { listed_in, ...forum } of listed.filter((row) => row.parent_id === null).sort(byOrder)) {
      const list = byCategory.get(listed_in) ?? [];
      list.push(forum, ...(children.get(forum.id) ?? []).sort(byOrder));
      byCategory.set(listed_in, list);
    }
    return byCategory;
  }
}

/** Consecutive forums of one category make one group (the rows come in the index's order). */
function groupByCategory(rows: readonly ForumUnderCategory[]): IndexGroup[] {
  const groups: IndexGroup[] = [];
  for (const { category_title, ...forum } of rows) {
    const last = groups.at(-1);
    if (last !== undefined && (last.category?.id ?? null) === forum.category_id) {
      last.forums.push(forum);
      continue;
    }
    const category = forum.category_id === null || category_title === null ? null : { id: forum.category_id, title: category_title };
    groups.push({ category, forums: [forum] });
  }
  return groups;
}
