// Moderator comments (docs/moderation.md, "Moderator comments"; TorrentPier's
// mc_comment): a forum's moderator writes a note under a post, of one of four
// kinds (comment, information, warning, violation), in BBCode, shown to
// everyone who sees the post. A post has at most one: writing again replaces
// it, removing clears it. Each change is logged in its transaction.
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { ModeratorCommentKind } from '../db/schema.ts';
import { FieldErrorBag } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { assertModerates, assertModerator } from './access.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { PostNotifications } from './post-notifications.ts';
import type { Posts } from './posts.ts';
import type { ForumRepository, PostWithAuthor, TopicWithAuthor } from './repository.ts';

export class ModeratorComments {
  readonly #repository: ForumRepository;
  readonly #posts: Posts;
  readonly #log: ModerationLog;
  readonly #clock: Clock;
  readonly #notifications: PostNotifications;

  constructor(repository: ForumRepository, posts: Posts, log: ModerationLog, notifications: PostNotifications, clock: Clock) {
    this.#notifications = notifications;
    this.#repository = repository;
    this.#posts = posts;
    this.#log = log;
    this.#clock = clock;
  }

  /** Writes (or replaces) the comment under a post of a forum the moderator moderates. */
  async set(postId: number, moderator: AuthUser, kind: ModeratorCommentKind, text: string): Promise<PostWithAuthor> {
    const { post, topic } = await this.#moderated(postId, moderator);
    const errors = new FieldErrorBag();
    const comment = text.trim();
    if (comment === '') errors.add('text', t('mod_comment.error.empty'));
    errors.throwIfAny();
    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      await this.#repository.updatePost(postId, { mod_comment: comment, mod_comment_kind: kind, mod_comment_by: moderator.id, mod_comment_at: at }, trx);
      await this.#log.record(
        { actorId: moderator.id, action: 'comment_post', forumId: topic.forum_id, topicId: topic.id, postId, subject: post.body },
        at,
        trx,
      );
    });
    await this.#notifications.moderated(post, moderator, 'comment_post');
    return this.#posts.get(postId, moderator);
  }

  /** Takes a post's comment away (nothing to take away: nothing changes, nothing is logged). */
  async remove(postId: number, moderator: AuthUser): Promise<PostWithAuthor> {
    const { post, topic } = await this.#moderated(postId, moderator);
    if (post.mod_comment === null) return post;
    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      await this.#repository.updatePost(postId, { mod_comment: null, mod_comment_kind: null, mod_comment_by: null, mod_comment_at: null }, trx);
      await this.#log.record(
        { actorId: moderator.id, action: 'uncomment_post', forumId: topic.forum_id, topicId: topic.id, postId, subject: post.body },
        at,
        trx,
      );
    });
    return this.#posts.get(postId, moderator);
  }

  /** The post and its topic, when the caller moderates its forum (403 before anything is read for a member). */
  async #moderated(postId: number, moderator: AuthUser): Promise<{ post: PostWithAuthor; topic: TopicWithAuthor }> {
    assertModerator(moderator, 'access.mod_comment');
    const found = await this.#posts.withTopic(postId, moderator);
    assertModerates(moderator, found.topic.forum_id, 'access.mod_comment');
    return found;
  }
}
