// Forums: the list, and the moderators' create, rename and delete. A forum
// may be a subforum of a top-level forum (one level, as in TorrentPier);
// docs/forums.md. A top-level forum may be in a category; a subforum has no
// category of its own, it is listed in its parent's (docs/access.md).
import { type Clock, isoNow } from '../clock.ts';
import { isForeignKeyViolation } from '../db/dialect.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Listed } from './access.ts';
import type { ReaderPermissions } from './permissions.ts';
import type { ForumRepository, ForumRow } from './repository.ts';

export interface ForumInput {
  name: string;
  description?: string | undefined;
  display_order?: number | undefined;
  /** The top-level forum it sits in; null: top level. */
  parent_id?: number | null | undefined;
  /** The category it is listed under; null: none. A subforum has none of its own (it is in its parent's). */
  category_id?: number | null | undefined;
}

/** What the forum rules need of categories: whether one exists. */
export interface CategoryLookup {
  exists(id: number): Promise<boolean>;
}

export class Forums {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #categories: CategoryLookup;

  constructor(repository: ForumRepository, categories: CategoryLookup, clock: Clock) {
    this.#clock = clock;
    this.#repository = repository;
    this.#categories = categories;
  }

  /** The forums that exist for this reader (docs/access.md, `view`), in display order. */
  list(page: PageRequest, reader: ReaderPermissions): Promise<Listed<ForumRow>> {
    return this.#repository.listForums(page.offset, page.perPage, reader.viewScope());
  }

  /** The forums that are no subforum and exist for this reader, for the index. */
  topLevel(page: PageRequest, reader: ReaderPermissions): Promise<Listed<ForumRow>> {
    return this.#repository.listForums(page.offset, page.perPage, reader.viewScope(), true);
  }

  /** The subforums of each of these forums that exist for this reader, in display order. */
  async subforums(parentIds: readonly number[], reader: ReaderPermissions): Promise<Map<number, ForumRow[]>> {
    const byParent = new Map<number, ForumRow[]>();
    for (const row of await this.#repository.subforumsOf(parentIds, reader.viewScope())) {
      const list = byParent.get(row.parent_id!) ?? [];
      list.push(row);
      byParent.set(row.parent_id!, list);
    }
    return byParent;
  }

  /** Each forum's published topic with the latest activity: where the index's "Last post" line points. */
  latestTopics(forumIds: readonly number[]): Promise<Map<number, { id: number; title: string }>> {
    return this.#repository.latestTopicsOfForums(forumIds);
  }

  /** The forum whatever the reader (the rules' own reads: its moderators, its permissions); 404 for an unknown one. */
  async get(id: number): Promise<ForumRow> {
    const forum = await this.#repository.findForum(id);
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  /** The forum as this reader finds it: 404, as if it did not exist, unless they may view it (docs/access.md). */
  async visibleTo(id: number, reader: ReaderPermissions): Promise<ForumRow> {
    if (!reader.may(id, 'view')) throw new ModelNotFoundError('Forum', id);
    return this.get(id);
  }

  async create(input: ForumInput): Promise<ForumRow> {
    const parentId = input.parent_id ?? null;
    const categoryId = input.category_id ?? null;
    const errors = new FieldErrorBag();
    await this.#checkParent(parentId, null, errors);
    await this.#checkCategory(categoryId, parentId !== null, errors);
    errors.throwIfAny();
    return this.#categoryStillThere(categoryId, () =>
      this.#repository.insertForum(
        {
          name: input.name,
          description: input.description ?? '',
          display_order: input.display_order ?? 0,
          parent_id: parentId,
          category_id: categoryId,
        },
        isoNow(this.#clock),
      ),
    );
  }

  async update(id: number, input: Partial<ForumInput>): Promise<ForumRow> {
    const categoryId = input.category_id;
    if (input.parent_id !== undefined || (categoryId !== undefined && categoryId !== null)) {
      const current = await this.get(id);
      const errors = new FieldErrorBag();
      if (input.parent_id !== undefined) await this.#checkParent(input.parent_id, id, errors);
      if (categoryId !== undefined)
        await this.#checkCategory(categoryId, (input.parent_id === undefined ? current.parent_id : input.parent_id) !== null, errors);
      errors.throwIfAny();
    }
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
      ...(input.parent_id !== undefined ? { parent_id: input.parent_id } : {}),
      // A forum put inside another is listed in its parent's category: it keeps none of its own.
      ...(input.parent_id !== undefined && input.parent_id !== null ? { category_id: null } : {}),
      ...(categoryId !== undefined ? { category_id: categoryId } : {}),
    };
    // Given a category, the forum must still be top-level when the row is written (not only when it was read).
    const onlyTopLevel = categoryId !== undefined && categoryId !== null && input.parent_id === undefined;
    const forum = await this.#categoryStillThere(categoryId ?? null, () => this.#repository.updateForum(id, changes, isoNow(this.#clock), { onlyTopLevel }));
    if (forum !== undefined) return forum;
    await this.get(id);
    // It became a subforum between the check and the write.
    throw ValidationError.field('category_id', t('forum.category_of_subforum'));
  }

  async delete(id: number): Promise<void> {
    await this.get(id);
    if ((await this.#repository.subforumsOf([id])).length > 0) throw new ApiError('CONFLICT', t('forum.has_subforums'));
    // The delete itself checks again (a topic or subforum added meanwhile keeps the forum).
    if (!(await this.#repository.deleteEmptyForum(id))) throw new ApiError('CONFLICT', t('forum.has_topics'));
  }

  /** One level deep: the parent exists and is top-level, and a forum with subforums stays top-level. */
  async #checkParent(parentId: number | null, forumId: number | null, errors: FieldErrorBag): Promise<void> {
    if (parentId === null) return;
    if (parentId === forumId) return errors.add('parent_id', t('forum.parent_self'));
    const parent = await this.#repository.findForum(parentId);
    if (parent === undefined) return errors.add('parent_id', t('forum.parent_missing'));
    if (parent.parent_id !== null) return errors.add('parent_id', t('forum.parent_nested'));
    if (forumId !== null && (await this.#repository.subforumsOf([forumId])).length > 0) {
      errors.add('parent_id', t('forum.parent_has_subforums'));
    }
  }

  /** The category exists, and the forum is top-level (`subforum`: it is, or is becoming, a subforum). */
  async #checkCategory(categoryId: number | null, subforum: boolean, errors: FieldErrorBag): Promise<void> {
    if (categoryId === null) return;
    if (!(await this.#categories.exists(categoryId))) return errors.add('category_id', unknownCategory());
    if (subforum) errors.add('category_id', t('forum.category_of_subforum'));
  }

  /** A category deleted between the check and the write: the foreign key refuses the row, and the answer is the check's. */
  async #categoryStillThere<T>(categoryId: number | null, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (categoryId === null || !isForeignKeyViolation(error) || (await this.#categories.exists(categoryId))) throw error;
      throw ValidationError.field('category_id', unknownCategory());
    }
  }
}

/** "The selected category id is invalid.", in the reader's language (the API's: English). */
function unknownCategory(): string {
  return t('validation.selected', { field: fieldName('category_id') });
}
