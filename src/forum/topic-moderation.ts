// Moderators' tools on a topic: lock and unlock (only moderators reply to a
// locked topic), pin and unpin (listed first in its forum), move to another
// forum (its address stays the same: topic URLs name no forum). Each action
// is written to the moderation log in its own transaction; the topic and
// post deletions log themselves (topics.ts, posts.ts).
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { ModerationAction } from '../db/schema.ts';
import { ValidationError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import { assertModerates } from './access.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { ForumRepository, TopicWithAuthor } from './repository.ts';
import type { Topics } from './topics.ts';

export class TopicModeration {
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #log: ModerationLog;
  readonly #clock: Clock;

  constructor(repository: ForumRepository, topics: Topics, log: ModerationLog, clock: Clock) {
    this.#repository = repository;
    this.#topics = topics;
    this.#log = log;
    this.#clock = clock;
  }

  lock(id: number, moderator: AuthUser, locked: boolean): Promise<TopicWithAuthor> {
    return this.#set(id, moderator, { locked }, locked ? 'lock' : 'unlock');
  }

  pin(id: number, moderator: AuthUser, pinned: boolean): Promise<TopicWithAuthor> {
    return this.#set(id, moderator, { pinned }, pinned ? 'pin' : 'unpin');
  }

  /** To another forum, with its published topic and posts counted there instead. */
  async move(id: number, moderator: AuthUser, forumId: number): Promise<TopicWithAuthor> {
    const topic = await this.#moderated(id, moderator);
    const target = await this.#repository.findForum(forumId);
    if (target === undefined) throw ValidationError.field('forum_id', t('validation.selected', { field: fieldName('forum_id') }));
    // A forum moderator moves topics only between forums they moderate: out of one and into the other.
    assertModerates(moderator, target.id, 'access.move');
    if (target.id === topic.forum_id) throw ValidationError.field('forum_id', t('mod.already_there'));
    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      await this.#repository.updateTopic(id, { forum_id: target.id }, trx);
      if (topic.status === 'published') {
        await this.#repository.adjustForumCounts(topic.forum_id, -1, -topic.posts_count, trx);
        await this.#repository.adjustForumCounts(target.id, 1, topic.posts_count, trx);
      }
      await this.#log.record(
        { actorId: moderator.id, action: 'move', forumId: topic.forum_id, toForumId: target.id, topicId: id, subject: topic.title },
        at,
        trx,
      );
    });
    return this.#topics.get(id, moderator);
  }

  async #set(id: number, moderator: AuthUser, change: { locked: boolean } | { pinned: boolean }, action: ModerationAction): Promise<TopicWithAuthor> {
    const topic = await this.#moderated(id, moderator);
    const [field, wanted] = Object.entries(change)[0] as ['locked' | 'pinned', boolean];
    // Already so: nothing changes and nothing is logged (a second click, two moderators at once).
    if (Boolean(topic[field]) === wanted) return topic;
    await this.#repository.transaction(async (trx) => {
      await this.#repository.updateTopic(id, change, trx);
      await this.#log.record({ actorId: moderator.id, action, forumId: topic.forum_id, topicId: id, subject: topic.title }, isoNow(this.#clock), trx);
    });
    return this.#topics.get(id, moderator);
  }

  /** The topic, when this user moderates its forum (the forum it is in now, read from the database). */
  async #moderated(id: number, moderator: AuthUser): Promise<TopicWithAuthor> {
    const topic = await this.#topics.get(id, moderator);
    assertModerates(moderator, topic.forum_id, 'access.moderators_only');
    return topic;
  }
}
