// The moderation queue: posts (and the topics they open) held by a word
// filter, and the moderators' approve and reject. Staff see and decide every
// held post; a forum moderator those of the forums they moderate.
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Mailer } from '../mail/mailer.ts';
import { assertModerates, assertModerator, moderatedScope } from './access.ts';
import { notApprovedMail } from './mails.ts';
import type { ReaderPermissions } from './permissions.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { Posts } from './posts.ts';
import type { Publishing } from './publishing.ts';
import type { ForumRepository, PostWithAuthor, TopicWithAuthor } from './repository.ts';
import type { TextScreen } from '../word-filters/text-screen.ts';
import type { Topics } from './topics.ts';
import type { TopicNaming } from './mails.ts';
import type { PostNotifications } from './post-notifications.ts';

export interface ModerationDeps {
  repository: ForumRepository;
  topics: Topics;
  posts: Posts;
  publishing: Publishing;
  notifications: PostNotifications;
  screen: TextScreen;
  mailer: Mailer;
  naming: TopicNaming;
  log: ModerationLog;
  clock: Clock;
}

const REFUSAL: TextKey = 'access.moderation';

export class ModerationQueue {
  readonly #deps: ModerationDeps;

  constructor(deps: ModerationDeps) {
    this.#deps = deps;
  }

  /**
   * Held posts, oldest first: all of them for staff, for a forum moderator
   * those of the forums they moderate by the forums' rule (`permissions`:
   * docs/access.md; a moderated forum that does not exist for them, under a
   * parent they may not view, is not theirs to see), none for anyone else.
   */
  list(moderator: AuthUser, page: PageRequest, permissions: Pick<ReaderPermissions, 'moderates'>) {
    return this.#deps.repository.listPending(page.offset, page.perPage, moderatedScope(moderator, permissions));
  }

  /** A moderator publishes a held post (and its topic, when it is the opening post). */
  async approve(id: number, moderator: AuthUser): Promise<PostWithAuthor> {
    const { repository, publishing, posts, topics } = this.#deps;
    const { post } = await this.#held(id, moderator);
    if (post.status === 'published') return post;
    await repository.transaction(async (trx) => {
      const topic = await repository.findTopic(post.topic_id, trx);
      if (topic === undefined) throw new ModelNotFoundError('Topic', post.topic_id);
      const opening = (await repository.firstPostId(topic.id, trx)) === id;
      await repository.updatePost(id, { status: 'published', held_by_filter_id: null }, trx);
      if (opening) {
        // The topic comes out with every reply already published inside it.
        await repository.updateTopic(topic.id, { status: 'published' }, trx);
        const published = await repository.publishedPostsIn(topic.id, trx);
        await publishing.published(trx, topic.forum_id, topic.id, { topics: 1, posts: published });
      } else if (topic.status === 'published') {
        await publishing.published(trx, topic.forum_id, topic.id, { topics: 0, posts: 1 });
      }
      const subject = opening ? topic.title : post.body;
      await this.#deps.log.record(
        { actorId: moderator.id, action: 'approve', forumId: topic.forum_id, topicId: topic.id, postId: id, subject },
        isoNow(this.#deps.clock),
        trx,
      );
    });
    const approved = await posts.get(id, moderator);
    const topic = await topics.get(approved.topic_id, moderator);
    if (topic.status === 'published' && (await repository.firstPostId(topic.id)) === id) await topics.visibilityChanged();
    await this.#deps.notifications.moderated(approved, moderator, 'approve');
    if (approved.author_id !== null) await this.#deps.notifications.published(topic, approved.author_id, approved);
    return approved;
  }

  /** A moderator rejects a held post: it is deleted and its author told by mail, in the author's language. */
  async reject(id: number, moderator: AuthUser): Promise<void> {
    const { repository, topics } = this.#deps;
    const { post, topic } = await this.#held(id, moderator);
    if (post.status !== 'pending') throw ValidationError.field('post', t('validation.reject_published'));
    const opening = (await repository.firstPostId(post.topic_id)) === id;
    await repository.transaction(async (trx) => {
      if (opening) await repository.deleteTopic(post.topic_id, trx);
      else await repository.deletePost(id, trx);
      await this.#deps.log.record(
        { actorId: moderator.id, action: 'reject', forumId: topic.forum_id, topicId: topic.id, postId: id, subject: opening ? topic.title : post.body },
        isoNow(this.#deps.clock),
        trx,
      );
    });
    if (opening) await topics.visibilityChanged();
    await this.#deps.notifications.moderated({ id: null, topic_id: opening ? null : topic.id, author_id: post.author_id }, moderator, 'reject');
    const to = post.author_email;
    if (to !== null) {
      const [heading, body] = await Promise.all([this.#deps.naming.heading(topic), this.#deps.screen.check(post.body, 'posts')]);
      const author = memberReader({ locale: post.author_locale, time_zone: post.author_time_zone });
      await this.#deps.mailer.send(asReader(author, () => notApprovedMail(to, post.author_name ?? '', heading, opening, body.text)));
    }
  }

  /** The post with its topic, when this user moderates the forum the topic is in. */
  async #held(id: number, moderator: AuthUser): Promise<{ post: PostWithAuthor; topic: TopicWithAuthor }> {
    assertModerator(moderator, REFUSAL);
    const found = await this.#deps.posts.withTopic(id, moderator);
    assertModerates(moderator, found.topic.forum_id, REFUSAL);
    return found;
  }
}
