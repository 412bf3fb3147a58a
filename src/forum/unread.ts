// Unread tracking for members (docs/unread.md): which topics and forums hold
// posts they have not read, where their first unread post is, and the three
// ways to mark things read (viewing a topic page, "mark this forum read",
// "mark all forums read"). Guests have no read state: every answer for them
// is empty. Unread posts are counted across forums as members see them: a
// forum moderator's hidden and pending posts there are not "unread"; and
// nothing counts from a forum the member may not read (docs/access.md),
// filtered in the same queries.
import { type Clock, isoNow } from '../clock.ts';
import type { AuthUser } from '../auth/service.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { acrossForums, canSee } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { Forums } from './forums.ts';
import type { ForumRepository, TopicUnread } from './repository.ts';
import type { Topics } from './topics.ts';

export type { TopicUnread };

/** Posts older than this count as read: a new member (or one back after months) does not find the whole forum unread (XenForo does the same). */
export const UNREAD_HORIZON_DAYS = 30;

export class Unread {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #forums: Forums;
  readonly #topics: Topics;
  readonly #access: ForumAccess;

  constructor(repository: ForumRepository, forums: Forums, topics: Topics, access: ForumAccess, clock: Clock) {
    this.#clock = clock;
    this.#repository = repository;
    this.#forums = forums;
    this.#topics = topics;
    this.#access = access;
  }

  /** Unread posts in each of these topics that has any (one query for the whole list); none in topics of forums the member may not read. */
  async ofTopics(viewer: AuthUser | null, topicIds: readonly number[]): Promise<Map<number, TopicUnread>> {
    if (viewer === null || topicIds.length === 0) return new Map();
    return this.#repository.unreadInTopics(viewer.id, await this.#scope(viewer), topicIds, this.#since());
  }

  /** How many topics with unread posts each forum the member may read has; forums without are absent. */
  async forumsWithUnread(viewer: AuthUser | null): Promise<Map<number, number>> {
    if (viewer === null) return new Map();
    return this.#repository.unreadTopicsPerForum(viewer.id, await this.#scope(viewer), this.#since());
  }

  /**
   * The post a member's "first unread" link opens: their first unread post,
   * or the topic's last post when they have read it all (phpBB's
   * "view first unread post" does the same). Undefined for guests.
   */
  async firstUnreadPostId(viewer: AuthUser | null, topicId: number): Promise<number | undefined> {
    if (viewer === null) return undefined;
    const topic = await this.#topics.get(topicId, viewer);
    const scope = await this.#scope(viewer);
    return (await this.#repository.firstUnreadPostId(viewer.id, scope, topic, this.#since())) ?? (await this.#repository.lastVisiblePostId(topic.id, scope));
  }

  /** A topic page showed the member posts up to `lastShownPostId`. */
  async viewed(viewer: AuthUser, topicId: number, lastShownPostId: number): Promise<void> {
    await this.#repository.markTopicRead(viewer.id, topicId, lastShownPostId, this.#now());
  }

  /**
   * Marks a topic read up to `postId` (a post of the topic the member sees),
   * or up to its last post. A mark is never lowered.
   */
  async markTopicRead(viewer: AuthUser, topicId: number, postId?: number): Promise<void> {
    const topic = await this.#topics.get(topicId, viewer);
    let upTo: number | undefined;
    if (postId === undefined) upTo = await this.#repository.lastVisiblePostId(topic.id, await this.#scope(viewer));
    else {
      const post = await this.#repository.findPost(postId);
      if (post === undefined || post.topic_id !== topic.id || !canSee(post, viewer, topic.forum_id)) {
        throw ValidationError.field('post_id', 'The selected post id is not a post of this topic.');
      }
      upTo = post.id;
    }
    if (upTo !== undefined) await this.#repository.markTopicRead(viewer.id, topic.id, upTo, this.#now());
  }

  /** A forum the member may not view is unknown to them (404); one they may view but not read has nothing to mark (403). */
  async markForumRead(viewer: AuthUser, forumId: number): Promise<void> {
    const forum = await this.#forums.get(forumId);
    const permissions = await this.#access.of(viewer);
    if (!permissions.may(forum.id, 'view')) throw new ModelNotFoundError('Forum', forumId);
    if (!permissions.may(forum.id, 'read')) throw new ApiError('FORBIDDEN', t('access.read_needed'));
    await this.#repository.markForumRead(viewer.id, forum.id, await this.#repository.newestPostId(), this.#now());
  }

  async markAllRead(viewer: AuthUser): Promise<void> {
    await this.#repository.markAllRead(viewer.id, await this.#repository.newestPostId(), this.#now());
  }

  async #scope(viewer: AuthUser) {
    return acrossForums(viewer, await this.#access.of(viewer));
  }

  #now(): string {
    return isoNow(this.#clock);
  }

  #since(): string {
    return new Date(this.#clock.now().getTime() - UNREAD_HORIZON_DAYS * 24 * 60 * 60 * 1000).toISOString();
  }
}
