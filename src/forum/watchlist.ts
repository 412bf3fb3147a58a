// The watchlist. It keeps to what each member may read (docs/access.md): the
// list hides topics of forums they may no longer read (filtered in SQL, the
// count too). What watchers are told of new replies is post-notifications.ts.
import { type Clock, isoNow } from '../clock.ts';
import type { AuthUser } from '../auth/service.ts';
import type { PageRequest } from '../http/pagination.ts';
import { acrossForums, type Listed } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ForumRepository, TopicWithAuthor } from './repository.ts';
import type { Topics } from './topics.ts';

export class Watchlist {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #access: ForumAccess;

  constructor(repository: ForumRepository, topics: Topics, access: ForumAccess, clock: Clock) {
    this.#clock = clock;
    this.#repository = repository;
    this.#topics = topics;
    this.#access = access;
  }

  async watch(user: AuthUser, topicId: number): Promise<void> {
    await this.#topics.get(topicId, user);
    await this.#repository.watch(user.id, topicId, isoNow(this.#clock));
  }

  async unwatch(user: AuthUser, topicId: number): Promise<void> {
    await this.#repository.unwatch(user.id, topicId);
  }

  isWatching(user: AuthUser, topicId: number): Promise<boolean> {
    return this.#repository.isWatching(user.id, topicId);
  }

  async topicsOf(user: AuthUser, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    return this.#repository.watchedTopics(user.id, acrossForums(user, await this.#access.of(user)), page.offset, page.perPage);
  }
}
