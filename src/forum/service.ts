// The forum module's entry point: builds the services it is split into, one
// per job, and keeps the names its callers (routes, pages, admin, tracker)
// use. The rules live in the job services:
//
//   forums.ts      forums                     access.ts      who sees, who may change
//   categories.ts  the index's headings
//   topics.ts      topics                     publishing.ts  word filters, holds, counters
//   posts.ts       posts and replies          repository.ts  every query (typed, Kysely)
//   moderation.ts  the moderation queue
//   topic-moderation.ts  lock, pin, move   moderation-log.ts  what moderators did
//   hiding.ts      hide and restore posts and topics
//   moderators.ts  forum moderators: who moderates which forum
//   permissions.ts the access rule (forum-access.ts keeps it current; forum-permissions.ts: admins set it)
//   watchlist.ts   the watchlist
//   post-notifications.ts  what posts and moderators' actions tell members
//   unread.ts      members' read marks and unread posts
//   polls/         topics' polls and their votes
//   moderator-comments.ts  moderators' notes under posts
//
// New code may call the job services directly (`forum.topics.get(...)`).
import type { ChangeFeed } from '../db/change-feed.ts';
import type { Clock } from '../clock.ts';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Mailer } from '../mail/mailer.ts';
import { assertMayChange, type Listed } from './access.ts';
import { Categories } from './categories.ts';
import type { CategoryRepository } from './category-repository.ts';
import type { ForumAccess } from './forum-access.ts';
import type { AccessRepository } from './access-repository.ts';
import { ForumPermissionSettings } from './forum-permissions.ts';
import { Forums, type ForumInput } from './forums.ts';
import { ModerationQueue } from './moderation.ts';
import { ForumModerators } from './moderators.ts';
import type { ModerationLog } from './moderation-log.ts';
import { TopicModeration } from './topic-moderation.ts';
import { Hiding } from './hiding.ts';
import { Posts } from './posts.ts';
import { Publishing } from './publishing.ts';
import type { ForumRepository, ForumRow, PostOnPage, PostWithAuthor, TopicInList, TopicWithAuthor } from './repository.ts';
import type { TextScreen } from '../word-filters/text-screen.ts';
import type { SearchRepository } from './search/repository.ts';
import { Topics, type NewTopicInput } from './topics.ts';
import { Polls } from './polls/polls.ts';
import { SplitMerge } from './split-merge.ts';
import { Reports } from './reports.ts';
import { ReleaseTemplates } from './release-templates.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { ModeratorComments } from './moderator-comments.ts';
import type { PollRepository } from './polls/repository.ts';
import { Unread } from './unread.ts';
import { Watchlist } from './watchlist.ts';
import type { TopicNaming } from './mails.ts';
import { PostNotifications } from './post-notifications.ts';
import type { NotificationStore } from '../notifications/store.ts';

export { isStaff, moderates, type Listed } from './access.ts';
export type { ForumInput } from './forums.ts';
export type { NewTopicInput } from './topics.ts';
export type { TopicNaming } from './mails.ts';

export interface ForumServiceOptions {
  /** New topics and replies are `posts` writes (FLOOD_INTERVAL_SECONDS). */
  flood: FloodControl;
  naming: TopicNaming;
  /** Where changes of which topics exist and who sees them are announced to every instance (TOPIC_VISIBILITY_TOPIC). */
  changes: ChangeFeed;
  /** The search index, written in the transaction of every post and title write. */
  searchIndex: SearchRepository;
  /** Where moderators' actions are recorded, in their transactions. */
  moderationLog: ModerationLog;
  /** Forum categories' rows (categories.ts). */
  categories: CategoryRepository;
  /** Who may do what in each forum (docs/access.md): asked by every read and write. */
  access: ForumAccess;
  /** The levels and grants behind it, which admins set (forum-permissions.ts). */
  accessRepository: AccessRepository;
  /** Topics' polls (polls/). */
  polls: PollRepository;
  /** The notification centre's rows and settings (notifications/store.ts). */
  notifications: NotificationStore;
  /** The database, for the modules that keep their own few queries (release templates). */
  db: Kysely<Database>;
  /** Its write watch and change feed, for what is kept in memory (release templates). */
  database: { writes: WriteWatch; changes: ChangeFeed };
  /** Where a failure to tell other instances of a change is reported. */
  onError: (error: unknown) => void;
}

export class ForumService {
  readonly forums: Forums;
  readonly categories: Categories;
  readonly topics: Topics;
  readonly posts: Posts;
  readonly moderation: ModerationQueue;
  readonly topicModeration: TopicModeration;
  readonly hiding: Hiding;
  readonly moderators: ForumModerators;
  readonly moderationLog: ModerationLog;
  readonly watchlist: Watchlist;
  /** What posts and moderators' actions tell members (post-notifications.ts). */
  readonly notifications: PostNotifications;
  readonly unread: Unread;
  readonly access: ForumAccess;
  readonly permissions: ForumPermissionSettings;
  readonly polls: Polls;
  readonly moderatorComments: ModeratorComments;
  readonly splitMerge: SplitMerge;
  /** Members' reports of posts to their moderators (reports.ts). */
  readonly reports: Reports;
  /** Release templates of forums (release-templates.ts). */
  readonly releases: ReleaseTemplates;

  constructor(repository: ForumRepository, screen: TextScreen, mailer: Mailer, options: ForumServiceOptions, clock: Clock) {
    const publishing = new Publishing(repository, screen, clock);
    this.access = options.access;
    this.permissions = new ForumPermissionSettings(options.accessRepository, options.moderationLog, clock);
    this.categories = new Categories(options.categories, clock);
    this.forums = new Forums(repository, this.categories, clock);
    this.moderators = new ForumModerators(repository, this.forums);
    this.notifications = new PostNotifications(
      repository,
      options.notifications,
      mailer,
      options.naming,
      { rules: options.access, repository: options.accessRepository },
      clock,
    );
    this.releases = new ReleaseTemplates(options.db, options.database, clock, options.onError);
    this.topics = new Topics(repository, this.forums, publishing, { ...options, notifications: this.notifications, releases: this.releases }, clock);
    this.watchlist = new Watchlist(repository, this.topics, options.access, clock);
    this.unread = new Unread(repository, this.forums, this.topics, options.access, clock);
    this.posts = new Posts(repository, this.topics, publishing, this.notifications, options, clock);
    this.moderationLog = options.moderationLog;
    this.topicModeration = new TopicModeration(repository, this.topics, options.moderationLog, options.access, clock);
    this.hiding = new Hiding(repository, this.topics, this.posts, options.moderationLog, this.notifications, clock);
    this.moderatorComments = new ModeratorComments(repository, this.posts, options.moderationLog, this.notifications, clock);
    this.reports = new Reports(options.db, this.posts, { access: options.access, log: options.moderationLog, notifications: options.notifications }, clock);
    this.splitMerge = new SplitMerge(repository, this.topics, { publishing, searchIndex: options.searchIndex, moderationLog: options.moderationLog }, clock);
    this.polls = new Polls(options.polls, { topics: this.topics, access: options.access, publishing, log: options.moderationLog }, clock);
    this.moderation = new ModerationQueue({
      repository,
      topics: this.topics,
      posts: this.posts,
      publishing,
      notifications: this.notifications,
      screen,
      mailer,
      naming: options.naming,
      log: options.moderationLog,
      clock,
    });
  }

  // The names callers use, each one job service's method.

  /** The forums that exist for this reader. */
  async listForums(page: PageRequest, viewer: AuthUser | null): Promise<Listed<ForumRow>> {
    return this.forums.list(page, await this.access.of(viewer));
  }
  getForum(id: number): Promise<ForumRow> {
    return this.forums.get(id);
  }
  async createForum(input: ForumInput): Promise<ForumRow> {
    const row = await this.forums.create(input);
    this.access.changed();
    return row;
  }
  async updateForum(id: number, input: Partial<ForumInput>): Promise<ForumRow> {
    const row = await this.forums.update(id, input);
    this.access.changed();
    return row;
  }
  deleteForum(id: number): Promise<void> {
    return this.forums.delete(id);
  }

  listTopics(forumId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    return this.topics.list(forumId, viewer, page);
  }
  topicsOf(forum: ForumRow, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicInList>> {
    return this.topics.of(forum, viewer, page);
  }
  getTopic(id: number, viewer: AuthUser | null): Promise<TopicWithAuthor> {
    return this.topics.get(id, viewer);
  }
  createTopic(author: AuthUser, input: NewTopicInput): Promise<TopicWithAuthor> {
    return this.topics.create(author, input);
  }
  renameTopic(id: number, editor: AuthUser, title: string): Promise<TopicWithAuthor> {
    return this.topics.rename(id, editor, title);
  }
  deleteTopic(id: number, viewer: AuthUser): Promise<void> {
    return this.topics.delete(id, viewer);
  }

  listPosts(topicId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostWithAuthor>> {
    return this.posts.list(topicId, viewer, page);
  }
  postsOf(topic: TopicWithAuthor, viewer: AuthUser | null, page: PageRequest): Promise<Listed<PostOnPage>> {
    return this.posts.of(topic, viewer, page);
  }
  pageOfPost(topic: TopicWithAuthor, postId: number, viewer: AuthUser | null, perPage: number): Promise<number | null> {
    return this.posts.pageOf(topic, postId, viewer, perPage);
  }
  getPost(id: number, viewer: AuthUser | null): Promise<PostWithAuthor> {
    return this.posts.get(id, viewer);
  }
  reply(topicId: number, author: AuthUser, body: string): Promise<PostWithAuthor> {
    return this.posts.reply(topicId, author, body);
  }
  editPost(id: number, editor: AuthUser, body: string): Promise<PostWithAuthor> {
    return this.posts.edit(id, editor, body);
  }
  /**
   * An author's own published reply is withdrawn (hidden, restorable by
   * moderators); anything else a moderator deletes is gone. Either needs
   * the forum's `delete` right of an author who does not moderate it.
   */
  async deletePost(id: number, viewer: AuthUser): Promise<void> {
    const { post, topic } = await this.posts.withTopic(id, viewer);
    assertMayChange(post.author_id, viewer, topic.forum_id, await this.access.of(viewer), 'delete');
    if (post.author_id === viewer.id && post.status === 'published') return this.hiding.withdraw(post, viewer);
    return this.posts.delete(id, viewer);
  }

  approvePost(id: number, moderator: AuthUser): Promise<PostWithAuthor> {
    return this.moderation.approve(id, moderator);
  }
  rejectPost(id: number, moderator: AuthUser): Promise<void> {
    return this.moderation.reject(id, moderator);
  }
  /** Held posts this moderator decides on (all for staff, their forums' for a forum moderator). */
  async listPending(moderator: AuthUser, page: PageRequest) {
    return this.moderation.list(moderator, page, await this.access.of(moderator));
  }

  watch(user: AuthUser, topicId: number): Promise<void> {
    return this.watchlist.watch(user, topicId);
  }
  unwatch(user: AuthUser, topicId: number): Promise<void> {
    return this.watchlist.unwatch(user, topicId);
  }
  isWatching(user: AuthUser, topicId: number): Promise<boolean> {
    return this.watchlist.isWatching(user, topicId);
  }
  watchedTopics(user: AuthUser, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    return this.watchlist.topicsOf(user, page);
  }
}
