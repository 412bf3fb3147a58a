// Forums, topics and posts: who may do what, word filters on every write of
// user text, and the published counters kept in step inside transactions.
//
// A topic's status mirrors its first post's: a topic is pending exactly while
// its opening message (or its title) waits for a moderator.
import type { Transaction } from 'kysely';
import type { AuthUser } from '../auth/service.ts';
import type { ContentStatus, Database } from '../db/schema.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { ForumRepository, ForumRow, PostOnPage, PostWithAuthor, TopicInList, TopicWithAuthor, Visibility } from './repository.ts';
import { blockedMessage, type ContentType, type TextScreen } from './text-screen.ts';

export interface Listed<T> {
  rows: T[];
  total: number;
}

export interface ForumInput {
  name: string;
  description?: string | undefined;
  display_order?: number | undefined;
}

export interface NewTopicInput {
  forum_id: number;
  title: string;
  body: string;
}

const STAFF = new Set(['moderator', 'admin']);

export function isStaff(user: AuthUser | null): boolean {
  return user !== null && STAFF.has(user.role);
}

export class ForumService {
  readonly #repository: ForumRepository;
  readonly #screen: TextScreen;
  readonly #mailer: Mailer;

  constructor(repository: ForumRepository, screen: TextScreen, mailer: Mailer) {
    this.#repository = repository;
    this.#screen = screen;
    this.#mailer = mailer;
  }

  // Forums

  listForums(page: PageRequest): Promise<Listed<ForumRow>> {
    return this.#repository.listForums(page.offset, page.perPage);
  }

  async getForum(id: number): Promise<ForumRow> {
    const forum = await this.#repository.findForum(id);
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  createForum(input: ForumInput): Promise<ForumRow> {
    return this.#repository.insertForum(
      { name: input.name, description: input.description ?? '', display_order: input.display_order ?? 0 },
      now(),
    );
  }

  async updateForum(id: number, input: Partial<ForumInput>): Promise<ForumRow> {
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.display_order !== undefined ? { display_order: input.display_order } : {}),
    };
    const forum = await this.#repository.updateForum(id, changes, now());
    if (forum === undefined) throw new ModelNotFoundError('Forum', id);
    return forum;
  }

  async deleteForum(id: number): Promise<void> {
    await this.getForum(id);
    if (!(await this.#repository.deleteEmptyForum(id))) {
      throw new ApiError('CONFLICT', 'The forum still has topics. Move or delete them first.');
    }
  }

  // Topics

  async listTopics(forumId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    await this.getForum(forumId);
    return this.#repository.listTopics(forumId, visibility(viewer), page.offset, page.perPage);
  }

  /**
   * A page of topics as a forum page lists them, for a forum the caller has
   * already loaded. Guests see exactly the published topics, which the
   * forum's counter counts: no COUNT query for them.
   */
  async topicsOf(forum: ForumRow, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicInList>> {
    const seen = visibility(viewer);
    const [rows, total] = await Promise.all([
      this.#repository.topicsInList(forum.id, seen, page.offset, page.perPage),
      viewer === null ? forum.topics_count : this.#repository.countTopics(forum.id, seen),
    ]);
    return { rows, total };
  }

  /** The topic if this viewer may see it; pending topics are the author's and the moderators' only. */
  async getTopic(id: number, viewer: AuthUser | null): Promise<TopicWithAuthor> {
    const topic = await this.#repository.findTopic(id);
    if (topic === undefined || !canSee(topic, viewer)) throw new ModelNotFoundError('Topic', id);
    return topic;
  }

  async createTopic(author: AuthUser, input: NewTopicInput): Promise<TopicWithAuthor> {
    const errors = new FieldErrorBag();
    if ((await this.#repository.findForum(input.forum_id)) === undefined) errors.add('forum_id', 'The selected forum id is invalid.');
    const title = await this.#screenField(errors, 'title', input.title, 'topics');
    const body = await this.#screenField(errors, 'body', input.body, 'posts');
    errors.throwIfAny();

    const heldBy = title.heldBy ?? body.heldBy;
    const status: ContentStatus = heldBy === null ? 'published' : 'pending';
    const at = now();
    const topicId = await this.#repository.transaction(async (trx) => {
      const topic = await this.#repository.insertTopic({ forum_id: input.forum_id, title: input.title, author_id: author.id, status }, at, trx);
      await this.#repository.insertPost({ topic_id: topic.id, author_id: author.id, body: input.body, status, held_by_filter_id: heldBy }, at, trx);
      if (status === 'published') await this.#published(trx, topic.forum_id, topic.id, author.id, { topics: 1, posts: 1 });
      return topic.id;
    });
    return this.getTopic(topicId, author);
  }

  async renameTopic(id: number, editor: AuthUser, title: string): Promise<TopicWithAuthor> {
    const topic = await this.getTopic(id, editor);
    assertMayEdit(topic.author_id, editor);
    const errors = new FieldErrorBag();
    const screened = await this.#screenField(errors, 'title', title, 'topics');
    errors.throwIfAny();

    await this.#repository.transaction(async (trx) => {
      await this.#repository.updateTopic(id, { title, updated_at: now() }, trx);
      const firstPostId = await this.#repository.firstPostId(id, trx);
      if (screened.heldBy !== null && firstPostId !== undefined) await this.#hold(trx, firstPostId, screened.heldBy);
    });
    return this.getTopic(id, editor);
  }

  async deleteTopic(id: number, viewer: AuthUser): Promise<void> {
    const topic = await this.getTopic(id, viewer);
    if (!isStaff(viewer)) throw new ApiError('FORBIDDEN', 'Only moderators can delete topics.');
    await this.#repository.transaction(async (trx) => {
      if (topic.status === 'published') await this.#repository.adjustForumCounts(topic.forum_id, -1, -topic.posts_count, trx);
      await this.#repository.deleteTopic(id, trx);
    });
  }

  // Posts

  async listPosts(topicId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostWithAuthor>> {
    await this.getTopic(topicId, viewer);
    return this.#repository.listPosts(topicId, visibility(viewer), page.offset, page.perPage);
  }

  /**
   * A page of posts as the topic page shows them, for a topic the caller has
   * already loaded with getTopic for this viewer. Guests see exactly the
   * published posts of a published topic, which the topic's counter counts:
   * no COUNT query for them.
   */
  async postsOf(topic: TopicWithAuthor, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostOnPage>> {
    const seen = visibility(viewer);
    const guestView = viewer === null && topic.status === 'published';
    const [rows, total] = await Promise.all([
      this.#repository.pagePostRows(topic.id, seen, page.offset, page.perPage),
      guestView ? topic.posts_count : this.#repository.countPosts(topic.id, seen),
    ]);
    return { rows, total };
  }

  /** The page (of `perPage` posts) of the topic that holds the post; null when this viewer sees no such post in it. */
  async pageOfPost(topic: TopicWithAuthor, postId: number, viewer: AuthUser | null, perPage: number): Promise<number | null> {
    const post = await this.#repository.findPost(postId);
    if (post === undefined || post.topic_id !== topic.id || !canSee(post, viewer)) return null;
    const before = await this.#repository.postsBefore(topic.id, postId, visibility(viewer));
    return Math.floor(before / perPage) + 1;
  }

  /** Published posts of a user, for their profile. */
  publishedPostsBy(userId: number): Promise<number> {
    return this.#repository.publishedPostsBy(userId);
  }

  async getPost(id: number, viewer: AuthUser | null): Promise<PostWithAuthor> {
    const post = await this.#repository.findPost(id);
    if (post === undefined || !canSee(post, viewer)) throw new ModelNotFoundError('Post', id);
    return post;
  }

  async reply(topicId: number, author: AuthUser, body: string): Promise<PostWithAuthor> {
    const topic = await this.getTopic(topicId, author);
    const errors = new FieldErrorBag();
    const screened = await this.#screenField(errors, 'body', body, 'posts');
    errors.throwIfAny();

    const status: ContentStatus = screened.heldBy === null ? 'published' : 'pending';
    const postId = await this.#repository.transaction(async (trx) => {
      const post = await this.#repository.insertPost({ topic_id: topic.id, author_id: author.id, body, status, held_by_filter_id: screened.heldBy }, now(), trx);
      if (status === 'published' && topic.status === 'published') {
        await this.#published(trx, topic.forum_id, topic.id, author.id, { topics: 0, posts: 1 });
      }
      return post.id;
    });
    if (status === 'published') await this.#notifyWatchers(topic, author, postId);
    return this.getPost(postId, author);
  }

  async editPost(id: number, editor: AuthUser, body: string): Promise<PostWithAuthor> {
    const post = await this.getPost(id, editor);
    assertMayEdit(post.author_id, editor);
    const errors = new FieldErrorBag();
    const screened = await this.#screenField(errors, 'body', body, 'posts');
    errors.throwIfAny();

    await this.#repository.transaction(async (trx) => {
      await this.#repository.updatePost(id, { body, updated_at: now() }, trx);
      if (screened.heldBy !== null) await this.#hold(trx, id, screened.heldBy);
    });
    return this.getPost(id, editor);
  }

  async deletePost(id: number, viewer: AuthUser): Promise<void> {
    const post = await this.getPost(id, viewer);
    assertMayEdit(post.author_id, viewer);
    if ((await this.#repository.firstPostId(post.topic_id)) === id) {
      throw ValidationError.field('post', 'The first post opens the topic; delete the topic instead.');
    }
    await this.#repository.transaction(async (trx) => {
      const topic = await this.#repository.findTopic(post.topic_id, trx);
      if (post.status === 'published' && topic?.status === 'published') {
        await this.#repository.adjustTopicPosts(post.topic_id, -1, trx);
        await this.#repository.adjustForumCounts(topic.forum_id, 0, -1, trx);
      }
      await this.#repository.deletePost(id, trx);
    });
  }

  /** A moderator publishes a held post (and its topic, when it is the opening post). */
  async approvePost(id: number, moderator: AuthUser): Promise<PostWithAuthor> {
    const post = await this.getPost(id, moderator);
    if (post.status === 'published') return post;
    await this.#repository.transaction(async (trx) => {
      const topic = await this.#repository.findTopic(post.topic_id, trx);
      if (topic === undefined) throw new ModelNotFoundError('Topic', post.topic_id);
      const opening = (await this.#repository.firstPostId(topic.id, trx)) === id;
      await this.#repository.updatePost(id, { status: 'published', held_by_filter_id: null }, trx);
      if (opening) {
        // The topic comes out with every reply already published inside it.
        await this.#repository.updateTopic(topic.id, { status: 'published' }, trx);
        const published = await trx
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('topic_id', '=', topic.id)
          .where('status', '=', 'published')
          .executeTakeFirstOrThrow();
        await this.#published(trx, topic.forum_id, topic.id, post.author_id, { topics: 1, posts: Number(published.count) });
      } else if (topic.status === 'published') {
        await this.#published(trx, topic.forum_id, topic.id, post.author_id, { topics: 0, posts: 1 });
      }
    });
    const approved = await this.getPost(id, moderator);
    const topic = await this.getTopic(approved.topic_id, moderator);
    if (approved.author_id !== null) await this.#notifyWatchers(topic, { id: approved.author_id }, approved.id);
    return approved;
  }

  /** A moderator rejects a held post: it is deleted and its author told by mail. */
  async rejectPost(id: number, moderator: AuthUser): Promise<void> {
    const post = await this.getPost(id, moderator);
    if (post.status !== 'pending') throw ValidationError.field('post', 'Only posts waiting for moderation can be rejected.');
    const opening = (await this.#repository.firstPostId(post.topic_id)) === id;
    const topic = await this.getTopic(post.topic_id, moderator);
    await this.#repository.transaction(async (trx) => {
      if (opening) await this.#repository.deleteTopic(post.topic_id, trx);
      else await this.#repository.deletePost(id, trx);
    });
    if (post.author_email !== null) {
      await this.#mailer.send({
        to: post.author_email,
        subject: opening ? `Your topic "${topic.title}" was not approved` : `Your reply in "${topic.title}" was not approved`,
        text: `Hello ${post.author_name ?? ''},\n\na moderator did not approve what you wrote${opening ? '' : ` in "${topic.title}"`}:\n\n${post.body}\n\nPlease check the forum rules before posting again.\n`,
      });
    }
  }

  listPending(page: PageRequest) {
    return this.#repository.listPending(page.offset, page.perPage);
  }

  // Watchlist

  async watch(user: AuthUser, topicId: number): Promise<void> {
    await this.getTopic(topicId, user);
    await this.#repository.watch(user.id, topicId, now());
  }

  async unwatch(user: AuthUser, topicId: number): Promise<void> {
    await this.#repository.unwatch(user.id, topicId);
  }

  isWatching(user: AuthUser, topicId: number): Promise<boolean> {
    return this.#repository.isWatching(user.id, topicId);
  }

  watchedTopics(user: AuthUser, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    return this.#repository.watchedTopics(user.id, visibility(user), page.offset, page.perPage);
  }

  // Internals

  /** Runs the word filters on one field: block → a field error; moderate → the rule that holds it. */
  async #screenField(errors: FieldErrorBag, field: string, text: string, type: ContentType): Promise<{ heldBy: number | null }> {
    const result = await this.#screen.check(text, type);
    if (result.action === 'block') {
      errors.add(field, blockedMessage(field));
      return { heldBy: null };
    }
    if (result.action === 'moderate') {
      const rule = result.matches.find((match) => match.filter_type === 'moderate');
      return { heldBy: rule?.filter_id ?? 0 };
    }
    return { heldBy: null };
  }

  /** Puts a published post (and, for an opening post, its topic) back into the moderation queue. */
  async #hold(trx: Transaction<Database>, postId: number, filterId: number): Promise<void> {
    const post = await this.#repository.findPost(postId, trx);
    const topic = post === undefined ? undefined : await this.#repository.findTopic(post.topic_id, trx);
    if (post === undefined || topic === undefined) return;
    await this.#repository.updatePost(postId, { status: 'pending', held_by_filter_id: filterId }, trx);
    if (post.status !== 'published' || topic.status !== 'published') return;
    const opening = (await this.#repository.firstPostId(topic.id, trx)) === postId;
    if (opening) {
      await this.#repository.updateTopic(topic.id, { status: 'pending' }, trx);
      await this.#repository.adjustForumCounts(topic.forum_id, -1, -topic.posts_count, trx);
    } else {
      await this.#repository.adjustTopicPosts(topic.id, -1, trx);
      await this.#repository.adjustForumCounts(topic.forum_id, 0, -1, trx);
    }
  }

  /** Counters and activity for content that just became public; its author earns a bonus point per post. */
  async #published(trx: Transaction<Database>, forumId: number, topicId: number, authorId: number | null, added: { topics: number; posts: number }): Promise<void> {
    await this.#repository.adjustForumCounts(forumId, added.topics, added.posts, trx);
    await this.#repository.adjustTopicPosts(topicId, added.posts, trx);
    await this.#repository.updateTopic(topicId, { last_post_at: now() }, trx);
    if (authorId !== null) {
      await trx.updateTable('users').set((eb) => ({ bonus_points: eb('bonus_points', '+', 1) })).where('id', '=', authorId).execute();
    }
  }

  async #notifyWatchers(topic: TopicWithAuthor, author: { id: number }, postId: number): Promise<void> {
    const addresses = await this.#repository.watcherAddresses(topic.id, author.id);
    for (const to of addresses) {
      await this.#mailer.send({
        to,
        subject: `New reply in "${topic.title}"`,
        text: `There is a new reply in a topic you watch: "${topic.title}".\n\n${this.#mailer.link(`/topic/.${topic.id}/?post=${postId}#post-${postId}`)}\n`,
      });
    }
  }
}

function visibility(viewer: AuthUser | null): Visibility {
  return { viewerId: viewer?.id ?? null, seesAllPending: isStaff(viewer) };
}

function canSee(row: { status: ContentStatus; author_id: number | null }, viewer: AuthUser | null): boolean {
  return row.status === 'published' || isStaff(viewer) || (viewer !== null && row.author_id === viewer.id);
}

function assertMayEdit(authorId: number | null, editor: AuthUser): void {
  if (!isStaff(editor) && authorId !== editor.id) throw new ApiError('FORBIDDEN', 'Only the author or a moderator can change this.');
}

function now(): string {
  return new Date().toISOString();
}
