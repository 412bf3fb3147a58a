// Moderators' tools on a topic: lock and unlock (only moderators reply to a
// locked topic), pin and unpin (listed first in its forum; the forum's `pin`
// right, which its moderators pass by their level and others may be granted:
// docs/access.md), announce and unannounce (listed above the pinned ones; the
// forum's `announce` right, likewise), move to another
// forum (its address stays the same: topic URLs name no forum). Each action
// is written to the moderation log in its own transaction; the topic and
// post deletions log themselves (topics.ts, posts.ts).
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { ModerationAction } from '../db/schema.ts';
import { ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import { assertMay, assertModerates } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { ForumRepository, TopicWithAuthor } from './repository.ts';
import type { Topics } from './topics.ts';

type Flag = 'locked' | 'pinned' | 'announced';
/** One of a topic's moderation flags, set to one value. */
type FlagChange = { [F in Flag]: Record<F, boolean> }[Flag];

export class TopicModeration {
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #log: ModerationLog;
  readonly #clock: Clock;
  readonly #access: ForumAccess;

  constructor(repository: ForumRepository, topics: Topics, log: ModerationLog, access: ForumAccess, clock: Clock) {
    this.#access = access;
    this.#repository = repository;
    this.#topics = topics;
    this.#log = log;
    this.#clock = clock;
  }

  async lock(id: number, moderator: AuthUser, locked: boolean): Promise<TopicWithAuthor> {
    return this.#set(await this.#moderated(id, moderator), moderator, { locked }, locked ? 'lock' : 'unlock');
  }

  /** Needs the forum's `pin` right (TorrentPier's auth_sticky): its moderators by the default level, anyone it is granted to. */
  pin(id: number, user: AuthUser, pinned: boolean): Promise<TopicWithAuthor> {
    return this.#byRight(id, user, 'pin', { pinned }, pinned ? 'pin' : 'unpin');
  }

  /** Needs the forum's `announce` right (TorrentPier's auth_announce), as pinning needs `pin`: moderators by the default level, anyone it is granted to. */
  announce(id: number, user: AuthUser, announced: boolean): Promise<TopicWithAuthor> {
    return this.#byRight(id, user, 'announce', { announced }, announced ? 'announce' : 'unannounce');
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
      // A hidden topic left the counts when it was hidden: it takes nothing with it.
      if (topic.status === 'published' && topic.hidden_at === null) {
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

  /** A change that is a right of the forum, not moderation: a 404 where the topic's forum does not exist for the user, a 403 where they lack the right. */
  async #byRight(id: number, user: AuthUser, right: 'pin' | 'announce', change: FlagChange, action: ModerationAction): Promise<TopicWithAuthor> {
    const topic = await this.#topics.get(id, user);
    assertMay(await this.#access.of(user), topic.forum_id, right, () => new ModelNotFoundError('Topic', id));
    return this.#set(topic, user, change, action);
  }

  async #set(topic: TopicWithAuthor, moderator: AuthUser, change: FlagChange, action: ModerationAction): Promise<TopicWithAuthor> {
    const id = topic.id;
    const [field, wanted] = Object.entries(change)[0] as [Flag, boolean];
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
