// Hiding instead of deleting (docs/moderation.md): a moderator hides a post
// or a whole topic; it stays, marked, for moderators, and is gone for
// everyone else (access.ts and repository.ts `visible` leave it out of
// every read), its published posts taken out of the counters; restoring
// puts everything back. A topic's opening post is hidden with its topic.
// Each change is logged in its transaction; hiding what is hidden (or
// restoring what is shown) changes and logs nothing.
// An author deleting their own published reply withdraws it the same way
// (`withdraw`: hidden by its author, not logged, a moderator can restore it).
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { ApiError, ValidationError } from '../http/errors.ts';
import { assertModerates, assertModerator } from './access.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import type { PostNotifications } from './post-notifications.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { Posts } from './posts.ts';
import type { ForumRepository, PostWithAuthor, TopicWithAuthor } from './repository.ts';
import type { Topics } from './topics.ts';

const REFUSAL: TextKey = 'access.hide';

export class Hiding {
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #posts: Posts;
  readonly #log: ModerationLog;
  readonly #clock: Clock;
  readonly #notifications: PostNotifications;

  constructor(repository: ForumRepository, topics: Topics, posts: Posts, log: ModerationLog, notifications: PostNotifications, clock: Clock) {
    this.#notifications = notifications;
    this.#repository = repository;
    this.#topics = topics;
    this.#posts = posts;
    this.#log = log;
    this.#clock = clock;
  }

  async post(id: number, moderator: AuthUser, hide: boolean): Promise<PostWithAuthor> {
    assertModerator(moderator, REFUSAL);
    const { post, topic } = await this.#posts.withTopic(id, moderator);
    assertModerates(moderator, topic.forum_id, REFUSAL);
    if ((post.hidden_at !== null) === hide) return post;
    await this.#setHidden(post, moderator, hide, { firstPost: 'validation.first_post_hide', logged: true });
    await this.#notifications.moderated(post, moderator, hide ? 'hide_post' : 'restore_post');
    return this.#posts.get(id, moderator);
  }

  /** The author's own delete of a published reply: hidden by its author, for a moderator to restore if need be. */
  async withdraw(post: PostWithAuthor, author: AuthUser): Promise<void> {
    if (post.author_id !== author.id) throw new ApiError('FORBIDDEN', t('access.withdraw'));
    if (post.hidden_at !== null) return;
    // Not logged: an author withdrawing their own post is not moderation.
    await this.#setHidden(post, author, true, { firstPost: 'validation.first_post', logged: false });
  }

  /** `firstPost`: why the topic's opening post cannot be taken out alone (what to do instead). */
  async #setHidden(post: PostWithAuthor, actor: AuthUser, hide: boolean, how: { firstPost: TextKey; logged: boolean }): Promise<void> {
    if ((await this.#repository.firstPostId(post.topic_id)) === post.id) throw ValidationError.field('post', t(how.firstPost));
    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      const topic = await this.#repository.findTopic(post.topic_id, trx);
      await this.#repository.setHidden('posts', post.id, hide ? { at, by: actor.id } : null, trx);
      // A published post in a shown, published topic is counted: hiding takes it out, restoring puts it back.
      if (post.status === 'published' && topic?.status === 'published' && topic.hidden_at === null) {
        await this.#repository.adjustTopicPosts(post.topic_id, hide ? -1 : 1, trx);
        await this.#repository.adjustForumCounts(topic.forum_id, 0, hide ? -1 : 1, trx);
      }
      if (!how.logged) return;
      await this.#log.record(
        {
          actorId: actor.id,
          action: hide ? 'hide_post' : 'restore_post',
          forumId: topic?.forum_id ?? null,
          topicId: post.topic_id,
          postId: post.id,
          subject: post.body,
        },
        at,
        trx,
      );
    });
  }

  async topic(id: number, moderator: AuthUser, hide: boolean): Promise<TopicWithAuthor> {
    assertModerator(moderator, REFUSAL);
    const topic = await this.#topics.get(id, moderator);
    assertModerates(moderator, topic.forum_id, REFUSAL);
    if ((topic.hidden_at !== null) === hide) return topic;
    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      await this.#repository.setHidden('topics', id, hide ? { at, by: moderator.id } : null, trx);
      if (topic.status === 'published')
        await this.#repository.adjustForumCounts(topic.forum_id, hide ? -1 : 1, hide ? -topic.posts_count : topic.posts_count, trx);
      await this.#log.record(
        { actorId: moderator.id, action: hide ? 'hide_topic' : 'restore_topic', forumId: topic.forum_id, topicId: id, subject: topic.title },
        at,
        trx,
      );
    });
    await this.#topics.visibilityChanged();
    return this.#topics.get(id, moderator);
  }
}
