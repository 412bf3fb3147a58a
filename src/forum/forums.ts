// Forums: the list, and the moderators' create, rename and delete. A forum
// may be a subforum of a top-level forum (one level, as in TorrentPier);
// docs/forums.md.
import { type Clock, isoNow } from '../clock.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Listed } from './access.ts';
import type { ForumRepository, ForumRow } from './repository.ts';

export interface ForumInput {
  name: string;
  description?: string | undefined;
  display_order?: number | undefined;
  /** The top-level forum it sits in; null: top level. */
  parent_id?: number | null | undefined;
}

export class Forums {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;

  constructor(repository: ForumRepository, clock: Clock) {
    this.#clock = clock;
    this.#repository = repository;
  }

  list(page: PageRequest): Promise<Listed<ForumRow>> {
    return this.#repository.listForums(page.offset, page.perPage);
  }

  /** The forums that are no subforum, for the index. */
  topLevel(page: PageRequest): Promise<Listed<ForumRow>> {
    return this.#repository.listForums(page.offset, page.perPage, true);
  }

  /** The subforums of each of these forums, in display order. */
  async subforums(parentIds: readonly number[]): Promise<Map<number, ForumRow[]>> {
    const byParent = new Map<number, ForumRow[]>();
    for (const row of await this.#repository.subforumsOf(parentIds)) {
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

  async get(id: number): Promise<ForumRow> {
    const forum = await this.#repository.findForum(id);
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  async create(input: ForumInput): Promise<ForumRow> {
    const parentId = input.parent_id ?? null;
    await this.#checkParent(parentId, null);
    return this.#repository.insertForum(
      { name: input.name, description: input.description ?? '', display_order: input.display_order ?? 0, parent_id: parentId },
      isoNow(this.#clock),
    );
  }

  async update(id: number, input: Partial<ForumInput>): Promise<ForumRow> {
    if (input.parent_id !== undefined) {
      await this.get(id);
      await this.#checkParent(input.parent_id, id);
    }
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
      ...(input.parent_id !== undefined ? { parent_id: input.parent_id } : {}),
    };
    const forum = await this.#repository.updateForum(id, changes, isoNow(this.#clock));
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  async delete(id: number): Promise<void> {
    await this.get(id);
    if ((await this.#repository.subforumsOf([id])).length > 0) throw new ApiError('CONFLICT', t('forum.has_subforums'));
    // The delete itself checks again (a topic or subforum added meanwhile keeps the forum).
    if (!(await this.#repository.deleteEmptyForum(id))) throw new ApiError('CONFLICT', t('forum.has_topics'));
  }

  /** One level deep: the parent exists and is top-level, and a forum with subforums stays top-level. */
  async #checkParent(parentId: number | null, forumId: number | null): Promise<void> {
    if (parentId === null) return;
    if (parentId === forumId) throw ValidationError.field('parent_id', t('forum.parent_self'));
    const parent = await this.#repository.findForum(parentId);
    if (parent === undefined) throw ValidationError.field('parent_id', t('forum.parent_missing'));
    if (parent.parent_id !== null) throw ValidationError.field('parent_id', t('forum.parent_nested'));
    if (forumId !== null && (await this.#repository.subforumsOf([forumId])).length > 0) {
      throw ValidationError.field('parent_id', t('forum.parent_has_subforums'));
    }
  }
}
