// The watchlist, and the mails its users get about new replies. Both keep to
// what each member may read (docs/access.md): the list hides topics of forums
// they may no longer read (filtered in SQL, the count too), and a reply is
// mailed only to watchers who may read its forum, each asked as the rule
// would ask them on their own request.
import { type Clock, isoNow } from '../clock.ts';
import type { AuthUser } from '../auth/service.ts';
import type { PageRequest } from '../http/pagination.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import type { Mailer } from '../mail/mailer.ts';
import { watchlistPath } from '../urls/paths.ts';
import { acrossForums, type Listed } from './access.ts';
import type { AccessRepository } from './access-repository.ts';
import type { ForumAccess } from './forum-access.ts';
import { newReplyMail } from './mails.ts';
import type { ForumRepository, TopicWithAuthor, Watcher } from './repository.ts';
import { postPathOn } from './resource.ts';
import type { Topics } from './topics.ts';

/** How pages name a topic (the presenter): mails name it the same way. */
export interface TopicNaming {
  heading(row: { id: number; title: string }): Promise<{ title: string; path: string }>;
}

export class Watchlist {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #mailer: Mailer;
  readonly #naming: TopicNaming;
  readonly #access: ForumAccess;
  readonly #accessRepository: AccessRepository;

  constructor(
    repository: ForumRepository,
    topics: Topics,
    mailer: Mailer,
    naming: TopicNaming,
    access: { rules: ForumAccess; repository: AccessRepository },
    clock: Clock,
  ) {
    this.#clock = clock;
    this.#repository = repository;
    this.#topics = topics;
    this.#mailer = mailer;
    this.#naming = naming;
    this.#access = access.rules;
    this.#accessRepository = access.repository;
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

  /**
   * Mails the topic's watchers about a published reply; none while the topic
   * itself waits for moderation or is hidden (they could not open it), and
   * none to a watcher who may not read its forum (now: a watcher who lost the
   * right keeps the row, and is mailed again once they have it back).
   */
  async notify(topic: TopicWithAuthor, author: { id: number }, postId: number): Promise<void> {
    if (topic.status !== 'published' || topic.hidden_at !== null) return;
    const watchers = await this.#readersOf(topic.forum_id, await this.#repository.watchers(topic.id, author.id));
    if (watchers.length === 0) return;
    const heading = await this.#naming.heading(topic);
    const replyLink = this.#mailer.link(postPathOn(heading.path, postId));
    const watchlistLink = this.#mailer.link(watchlistPath());
    // Each in its watcher's language (their setting, else the replying request's).
    for (const watcher of watchers)
      await this.#mailer.send(asReader(memberReader(watcher), () => newReplyMail(watcher.email, heading, replyLink, watchlistLink)));
  }

  /** The watchers who may read this forum, by the one rule (permissions.ts) with their own groups and moderated forums. */
  async #readersOf(forumId: number, watchers: readonly Watcher[]): Promise<Watcher[]> {
    const readers = await this.#accessRepository.readers(watchers);
    const allowed = await Promise.all(readers.map(async (reader) => (await this.#access.of(reader)).may(forumId, 'read')));
    return watchers.filter((_, index) => allowed[index]);
  }
}
