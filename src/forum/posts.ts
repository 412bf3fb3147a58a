// Posts: a topic's pages of posts, replies, edits and deletes.
import { type Clock, isoNow } from '../clock.ts';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import type { ContentStatus } from '../db/schema.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import { assertMay, assertMayChange, assertModerates, assertModerator, canSee, moderates, visibility, type Listed } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { Publishing } from './publishing.ts';
import type { ForumRepository, PostOnPage, PostRevision, PostWithAuthor, TopicWithAuthor } from './repository.ts';
import type { SearchRepository } from './search/repository.ts';
import type { Topics } from './topics.ts';
import type { PostNotifications } from './post-notifications.ts';

/** Why a member's reply to a locked topic is refused (403), in the reader's language (the API's: English). */
export function lockedMessage(): string {
  return t('reply.locked');
}

export class Posts {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #publishing: Publishing;
  readonly #notifications: PostNotifications;
  readonly #flood: FloodControl;
  readonly #searchIndex: SearchRepository;
  readonly #log: ModerationLog;
  readonly #access: ForumAccess;

  constructor(
    repository: ForumRepository,
    topics: Topics,
    publishing: Publishing,
    notifications: PostNotifications,
    writes: { flood: FloodControl; searchIndex: SearchRepository; moderationLog: ModerationLog; access: ForumAccess },
    clock: Clock,
  ) {
    this.#access = writes.access;
    this.#clock = clock;
    this.#repository = repository;
    this.#topics = topics;
    this.#publishing = publishing;
    this.#notifications = notifications;
    this.#flood = writes.flood;
    this.#searchIndex = writes.searchIndex;
    this.#log = writes.moderationLog;
  }

  async list(topicId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostWithAuthor>> {
    const topic = await this.#topics.get(topicId, viewer);
    return this.#repository.listPosts(topic.id, visibility(viewer, topic.forum_id), page.offset, page.perPage);
  }

  /**
   * A page of posts as the topic page shows them, for a topic the caller has
   * already loaded with Topics.get for this viewer. Guests see exactly the
   * published posts of a published topic, which the topic's counter counts:
   * no COUNT query for them.
   */
  async of(topic: TopicWithAuthor, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostOnPage>> {
    const seen = visibility(viewer, topic.forum_id);
    const guestView = viewer === null && topic.status === 'published';
    const [rows, total] = await Promise.all([
      this.#repository.pagePostRows(topic.id, seen, page.offset, page.perPage),
      guestView ? topic.posts_count : this.#repository.countPosts(topic.id, seen),
    ]);
    return { rows, total };
  }

  /** The page (of `perPage` posts) of the topic that holds the post; null when this viewer sees no such post in it. */
  async pageOf(topic: TopicWithAuthor, postId: number, viewer: AuthUser | null, perPage: number): Promise<number | null> {
    const post = await this.#repository.findPost(postId);
    if (post === undefined || post.topic_id !== topic.id || !canSee(post, viewer, topic.forum_id)) return null;
    const before = await this.#repository.postsBefore(topic.id, post, visibility(viewer, topic.forum_id));
    return before === null ? null : Math.floor(before / perPage) + 1;
  }

  async get(id: number, viewer: AuthUser | null): Promise<PostWithAuthor> {
    return (await this.withTopic(id, viewer)).post;
  }

  /**
   * The post with its topic, whose forum says who moderates it, when this
   * viewer may see both: a post of a topic they may not see (pending, hidden)
   * is not theirs to see either. As for topics (Topics.get), a post in a
   * forum the viewer may not view is unknown (404), in one they may view but
   * not read a 403; the forum is the one its topic is in now.
   */
  async withTopic(id: number, viewer: AuthUser | null): Promise<{ post: PostWithAuthor; topic: TopicWithAuthor }> {
    const notFound = () => new ModelNotFoundError('Post', id);
    const post = await this.#repository.findPost(id);
    const topic = post === undefined ? undefined : await this.#repository.findTopic(post.topic_id);
    if (post === undefined || topic === undefined || !canSee(topic, viewer, topic.forum_id) || !canSee(post, viewer, topic.forum_id)) throw notFound();
    assertMay(await this.#access.of(viewer), topic.forum_id, 'read', notFound);
    return { post, topic };
  }

  async reply(topicId: number, author: AuthUser, body: string): Promise<PostWithAuthor> {
    const topic = await this.#topics.get(topicId, author);
    assertMay(await this.#access.of(author), topic.forum_id, 'reply', () => new ModelNotFoundError('Topic', topicId));
    if (topic.locked && !moderates(author, topic.forum_id)) throw new ApiError('FORBIDDEN', lockedMessage());
    const errors = new FieldErrorBag();
    const screened = await this.#publishing.screenField(errors, 'body', body, 'posts');
    errors.throwIfAny();

    const status: ContentStatus = screened.heldBy === null ? 'published' : 'pending';
    const postId = await this.#flood.guard(author, 'posts', () =>
      this.#repository.transaction(async (trx) => {
        const post = await this.#repository.insertPost(
          { topic_id: topic.id, author_id: author.id, body, status, held_by_filter_id: screened.heldBy },
          isoNow(this.#clock),
          trx,
        );
        await this.#searchIndex.index(trx, [{ id: post.id, title: null, body }]);
        if (status === 'published' && topic.status === 'published') {
          await this.#publishing.published(trx, topic.forum_id, topic.id, { topics: 0, posts: 1 });
        }
        return post.id;
      }),
    );
    if (status === 'published') await this.#notifications.published(topic, author.id, { id: postId, body });
    return this.get(postId, author);
  }

  async edit(id: number, editor: AuthUser, body: string): Promise<PostWithAuthor> {
    const { post, topic } = await this.withTopic(id, editor);
    assertMayChange(post.author_id, editor, topic.forum_id, await this.#access.of(editor), 'edit');
    const errors = new FieldErrorBag();
    const screened = await this.#publishing.screenField(errors, 'body', body, 'posts');
    errors.throwIfAny();

    // The same text again changes nothing: no revision, no "edited" marker.
    if (body === post.body) return post;
    await this.#repository.transaction(async (trx) => {
      const now = isoNow(this.#clock);
      await this.#repository.insertRevision({ post_id: id, body: post.body, editor_id: editor.id, replaced_at: now }, trx);
      await this.#repository.updatePost(id, { body, updated_at: now, edited_at: now }, trx);
      await this.#searchIndex.refresh(trx, [id]);
      if (screened.heldBy !== null) await this.#publishing.hold(trx, id, screened.heldBy);
    });
    // Members the edit newly quotes or mentions are told; those named before, and the watchers, were told of the post then.
    if (post.status === 'published' && screened.heldBy === null && post.author_id !== null) {
      await this.#notifications.published(topic, post.author_id, { id, body }, { before: post.body });
    }
    return this.get(id, editor);
  }

  /** The texts the post's edits replaced, newest first: its forum's moderators only. */
  async revisions(id: number, viewer: AuthUser): Promise<PostRevision[]> {
    const refusal: TextKey = 'access.revisions';
    assertModerator(viewer, refusal);
    const { topic } = await this.withTopic(id, viewer);
    assertModerates(viewer, topic.forum_id, refusal);
    return this.#repository.postRevisions(id);
  }

  async delete(id: number, viewer: AuthUser): Promise<void> {
    const { post, topic: shown } = await this.withTopic(id, viewer);
    assertMayChange(post.author_id, viewer, shown.forum_id, await this.#access.of(viewer), 'delete');
    if ((await this.#repository.firstPostId(post.topic_id)) === id) {
      throw ValidationError.field('post', t('validation.first_post'));
    }
    await this.#repository.transaction(async (trx) => {
      const topic = await this.#repository.findTopic(post.topic_id, trx);
      if (post.status === 'published' && topic?.status === 'published') {
        await this.#repository.adjustTopicPosts(post.topic_id, -1, trx);
        await this.#repository.adjustForumCounts(topic.forum_id, 0, -1, trx);
      }
      await this.#repository.deletePost(id, trx);
      // A moderator removing someone else's post is a moderation action; an author removing their own is not.
      if (post.author_id !== viewer.id) {
        await this.#log.record(
          { actorId: viewer.id, action: 'delete_post', forumId: topic?.forum_id ?? null, topicId: post.topic_id, postId: id, subject: post.body },
          isoNow(this.#clock),
          trx,
        );
      }
    });
  }
}
