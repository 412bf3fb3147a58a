// Forums: the list, and the moderators' create, rename and delete.
import { type Clock, isoNow } from '../clock.ts';
import { ApiError, ModelNotFoundError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Listed } from './access.ts';
import type { ForumRepository, ForumRow } from './repository.ts';

export interface ForumInput {
  name: string;
  description?: string | undefined;
  display_order?: number | undefined;
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

  /** Each forum's published topic with the latest activity: where the index's "Last post" line points. */
  latestTopics(forumIds: readonly number[]): Promise<Map<number, { id: number; title: string }>> {
    return this.#repository.latestTopicsOfForums(forumIds);
  }

  async get(id: number): Promise<ForumRow> {
    const forum = await this.#repository.findForum(id);
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  create(input: ForumInput): Promise<ForumRow> {
    return this.#repository.insertForum(
      { name: input.name, description: input.description ?? '', display_order: input.display_order ?? 0 },
      isoNow(this.#clock),
    );
  }

  async update(id: number, input: Partial<ForumInput>): Promise<ForumRow> {
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
    };
    const forum = await this.#repository.updateForum(id, changes, isoNow(this.#clock));
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  async delete(id: number): Promise<void> {
    await this.get(id);
    if (!(await this.#repository.deleteEmptyForum(id))) {
      throw new ApiError('CONFLICT', 'The forum still has topics. Move or delete them first.');
    }
  }
}
