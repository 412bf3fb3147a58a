// SQL for forums, topics, posts and the watchlist. Counters on forums and
// topics count published content only and change in the same transaction as
// the rows they count (see service.ts).
import { sql, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import { countOf } from '../db/count.ts';
import { inForums } from './permissions.ts';
import { INT32_MAX } from '../http/integers.ts';
import { indexInLayout, layoutTotal, lockTopicPositions, renumberPositions, sliceOfLayout, type LayoutSlice, type PostLayout } from './post-positions.ts';
import { prepare, type PreparedQuery } from '../db/prepared.ts';
import type { ContentStatus, Database, ModeratorCommentKind, ForumsTable, PostRevisionsTable, PostsTable, Role, TopicsTable } from '../db/schema.ts';

export type ForumRow = Selectable<ForumsTable>;
export type TopicRow = Selectable<TopicsTable>;
export type PostRow = Selectable<PostsTable>;

export interface Author {
  author_name: string | null;
}
export type TopicWithAuthor = TopicRow & Author;
/** A post with what the API and mails show of its author; a mail to them goes in their language and zone (`author_locale`, `author_time_zone`). */
export type PostWithAuthor = PostRow &
  Author & {
    author_signature: string | null;
    author_email: string | null;
    author_locale: string | null;
    author_time_zone: string | null;
    /** Who wrote the moderator's comment (null when deleted since, or when there is none). */
    mod_comment_by_name: string | null;
  };
/** What a list of topics on a page shows of each: fewer columns than the API's row. */
export type TopicInList = Pick<
  TopicRow,
  'id' | 'title' | 'author_id' | 'guest_name' | 'status' | 'locked' | 'pinned' | 'announced' | 'hidden_at' | 'posts_count' | 'views_count' | 'last_post_at'
> &
  Author;
/** A text an edit replaced. */
export type PostRevision = Pick<Selectable<PostRevisionsTable>, 'id' | 'body' | 'editor_id' | 'replaced_at'> & { editor_name: string | null };
/** A list's "Last post … by …": the newest published post of a topic. */
export type LastPost = Pick<PostRow, 'topic_id' | 'author_id' | 'guest_name' | 'created_at'> & Author & { post_id: number };
/** What a topic page shows of a post: fewer columns than the API's row, read fifty at a time on every view. */
export type PostOnPage = Pick<
  PostRow,
  | 'id'
  | 'author_id'
  | 'guest_name'
  | 'body'
  | 'status'
  | 'hidden_at'
  | 'hidden_by'
  | 'edited_at'
  | 'created_at'
  | 'mod_comment'
  | 'mod_comment_kind'
  | 'mod_comment_by'
  | 'mod_comment_at'
> &
  Author & {
    /** Who wrote the moderator's comment (null when deleted since, or when there is none). */
    mod_comment_by_name: string | null;
    author_signature: string | null;
    author_avatar: string | null;
    /** For the author panel beside the post: when they joined, how many posts, staff or not. */
    author_joined_at: string | null;
    author_post_count: number | null;
    author_role: Role | null;
    /** The special rank an admin gave them (users/ranks.ts rankOf). */
    author_rank_id: number | null;
  };
/** A topic as a feed lists it: with its opening post's text and when that was last edited. */
export type TopicInFeed = Pick<TopicRow, 'id' | 'forum_id' | 'title' | 'author_id' | 'created_at' | 'updated_at'> &
  Author & { body: string; body_updated_at: string };
/** A post as a topic's feed lists it. */
export type PostInFeed = Pick<PostRow, 'id' | 'author_id' | 'body' | 'created_at' | 'updated_at'> & Author;

/** A member who moderates a forum, as the forum's page names them. */
export interface ForumModerator {
  id: number;
  username: string;
}

/** A member to mail about a watched topic's new reply, in their language. */
export interface Watcher {
  id: number;
  role: Role;
  email: string;
  locale: string | null;
  time_zone: string | null;
}

/** A member's unread posts in one topic: how many, and the first of them. */
export interface TopicUnread {
  topic_id: number;
  first_unread_id: number;
  unread_posts: number;
}

/** Who may see pending content: everyone sees published; authors their own; moderators all. */
export interface Visibility {
  viewerId: number | null;
  seesAllPending: boolean;
}

/**
 * A read across forums (search, unread counts, the watchlist, feeds): what
 * Visibility says, in the forums the reader may read only (docs/access.md).
 * `forums` is the reader's readScope(): null for every forum, else the ids
 * (empty: none). A separate type, its scope required, so that no read across
 * forums can forget it.
 */
export interface ScopedVisibility extends Visibility {
  forums: readonly number[] | null;
}

type Db = Kysely<Database> | Transaction<Database>;

const GUESTS: Visibility = { viewerId: null, seesAllPending: false };

/** Longest id list whose query is kept compiled (a page lists at most 50 topics). */
const PREPARED_LIST_MAX = 100;
/** How many compiled unread queries are kept (per list length, pending rule and set of readable forums). */
const PREPARED_UNREAD_MAX = 1_000;

type UnreadInTopicsValues = { userId: number; since: string } & Record<`topic${number}`, number>;
interface UnreadInTopicsRow {
  topic_id: number;
  first_unread_id: number;
  unread_posts: number;
}

export class ForumRepository {
  readonly #db: Kysely<Database>;
  // The reads behind every page a guest views, compiled once (db/prepared.ts).
  readonly #forumById: PreparedQuery<{ id: number }, ForumRow>;
  readonly #topicById: PreparedQuery<{ id: number }, TopicWithAuthor>;
  // A guest's page of a forum's list, read from the start or from the far end (listSlice).
  readonly #publishedTopicsInList: Record<ListDirection, PreparedQuery<{ forumId: number; offset: number; limit: number }, TopicInList>>;
  readonly #publishedPagePostRows: PreparedQuery<{ topicId: number; from: number; to: number; limit: number }, PostOnPage>;
  readonly #unreadInTopicsPrepared = new Map<string, PreparedQuery<UnreadInTopicsValues, UnreadInTopicsRow>>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
    this.#forumById = prepare(db, (slot) => this.#forumQuery(db, slot('id')));
    this.#topicById = prepare(db, (slot) => this.#topicQuery(db, slot('id')));
    const guestsPage = (direction: ListDirection) =>
      prepare<Database, { forumId: number; offset: number; limit: number }, TopicInList>(db, (slot) =>
        this.#topicsInListQuery(slot('forumId'), GUESTS, { offset: slot('offset'), limit: slot('limit'), direction }),
      );
    this.#publishedTopicsInList = { desc: guestsPage('desc'), asc: guestsPage('asc') };
    this.#publishedPagePostRows = prepare(db, (slot) =>
      withPageColumns(
        db
          .selectFrom('posts')
          .where('posts.topic_id', '=', slot('topicId'))
          .where('posts.position', '>=', slot('from'))
          .where('posts.position', '<=', slot('to')),
      )
        .orderBy('posts.position')
        .limit(slot('limit')),
    );
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  // Forums

  async findForum(id: number, db: Db = this.#db): Promise<ForumRow | undefined> {
    if (db === this.#db) return (await this.#forumById({ id }))[0];
    return this.#forumQuery(db, id).executeTakeFirst();
  }

  #forumQuery(db: Db, id: number) {
    return db.selectFrom('forums').selectAll().where('id', '=', id);
  }

  /** The forums in `scope` (null: every one; `topLevel`: only those that are no subforum), in display order. */
  async listForums(offset: number, limit: number, scope: readonly number[] | null, topLevel = false): Promise<{ rows: ForumRow[]; total: number }> {
    const all = this.#db.selectFrom('forums').where(inForums('forums.id', scope));
    const base = topLevel ? all.where('parent_id', 'is', null) : all;
    const [rows, total] = await Promise.all([base.selectAll().orderBy('display_order').orderBy('id').offset(offset).limit(limit).execute(), countOf(base)]);
    return { rows, total };
  }

  /** The subforums of these forums in `scope` (null: all), in display order. */
  subforumsOf(parentIds: readonly number[], scope: readonly number[] | null = null): Promise<ForumRow[]> {
    if (parentIds.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('forums')
      .selectAll()
      .where('parent_id', 'in', parentIds)
      .where(inForums('forums.id', scope))
      .orderBy('display_order')
      .orderBy('id')
      .execute();
  }

  insertForum(
    values: { name: string; description: string; display_order: number; parent_id: number | null; category_id: number | null },
    now: string,
  ): Promise<ForumRow> {
    return this.#db
      .insertInto('forums')
      .values({ ...values, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** `onlyTopLevel`: changes nothing (undefined) unless the forum is top-level as the row is written. */
  updateForum(
    id: number,
    values: Partial<{ name: string; description: string; display_order: number; parent_id: number | null; category_id: number | null }>,
    now: string,
    { onlyTopLevel = false } = {},
  ): Promise<ForumRow | undefined> {
    const update = this.#db
      .updateTable('forums')
      .set({ ...values, updated_at: now })
      .where('id', '=', id);
    return (onlyTopLevel ? update.where('parent_id', 'is', null) : update).returningAll().executeTakeFirst();
  }

  /** Deletes the forum when it has no topics and no subforums; false otherwise. */
  async deleteEmptyForum(id: number): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('forums')
      .where('id', '=', id)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('topics').select('topics.id').whereRef('topics.forum_id', '=', 'forums.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('forums as child').select('child.id').whereRef('child.parent_id', '=', 'forums.id'))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async adjustForumCounts(id: number, topics: number, posts: number, db: Db): Promise<void> {
    if (topics === 0 && posts === 0) return;
    await db
      .updateTable('forums')
      .set((eb) => ({ topics_count: eb('topics_count', '+', topics), posts_count: eb('posts_count', '+', posts) }))
      .where('id', '=', id)
      .execute();
  }

  // Forum moderators (docs/moderation.md, "Forum moderators")

  /** The moderators of each of these forums, by name: the members whose own grant there moderates (forums without any are absent). */
  async moderatorsOf(forumIds: readonly number[]): Promise<Map<number, ForumModerator[]>> {
    if (forumIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('forum_grants')
      .innerJoin('users', 'users.id', 'forum_grants.user_id')
      .select(['forum_grants.forum_id', 'users.id', 'users.username'])
      .where('forum_grants.forum_id', 'in', forumIds)
      .where('forum_grants.moderate', '=', true)
      .orderBy('users.username_key')
      .orderBy('users.id')
      .execute();
    const byForum = new Map<number, ForumModerator[]>();
    for (const { forum_id, ...moderator } of rows) {
      const list = byForum.get(forum_id) ?? [];
      list.push(moderator);
      byForum.set(forum_id, list);
    }
    return byForum;
  }

  /** The users with these ids, by id (for checking a list of moderators before it is written). */
  async usersById(ids: readonly number[], db: Db = this.#db): Promise<Map<number, ForumModerator>> {
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The users with these names, by name key (users/repository.ts `usernameKey`: any letter case). */
  async usersByNameKey(keys: readonly string[]): Promise<Map<string, ForumModerator>> {
    if (keys.length === 0) return new Map();
    const rows = await this.#db.selectFrom('users').select(['id', 'username', 'username_key']).where('username_key', 'in', keys).execute();
    return new Map(rows.map(({ username_key, ...user }) => [username_key, user]));
  }

  /**
   * The forum's moderators become exactly these users: their own grants there
   * moderate, no other member's does (a grant left with nothing is deleted;
   * the actions a grant holds stay).
   */
  async replaceModerators(forumId: number, userIds: readonly number[], db: Db): Promise<void> {
    const ofMembers = () => db.updateTable('forum_grants').where('forum_id', '=', forumId).where('user_id', 'is not', null);
    await ofMembers().set({ moderate: false }).execute();
    if (userIds.length > 0) {
      await ofMembers().set({ moderate: true }).where('user_id', 'in', userIds).execute();
      const held = new Set(
        (await db.selectFrom('forum_grants').select('user_id').where('forum_id', '=', forumId).where('user_id', 'in', userIds).execute()).map(
          (row) => row.user_id,
        ),
      );
      const added = userIds.filter((id) => !held.has(id));
      if (added.length > 0)
        await db
          .insertInto('forum_grants')
          .values(added.map((userId) => ({ forum_id: forumId, user_id: userId, group_id: null, actions: 0, moderate: true })))
          .execute();
    }
    await db
      .deleteFrom('forum_grants')
      .where('forum_id', '=', forumId)
      .where('user_id', 'is not', null)
      .where('actions', '=', 0)
      .where('moderate', '=', false)
      .execute();
  }

  // Topics

  async findTopic(id: number, db: Db = this.#db): Promise<TopicWithAuthor | undefined> {
    if (db === this.#db) return (await this.#topicById({ id }))[0];
    return this.#topicQuery(db, id).executeTakeFirst();
  }

  #topicQuery(db: Db, id: number) {
    return topicsWithAuthor(db.selectFrom('topics')).where('topics.id', '=', id);
  }

  async listTopics(forum: ForumRow, visibility: Visibility, offset: number, limit: number): Promise<{ rows: TopicWithAuthor[]; total: number }> {
    const total = await this.countTopics(forum, visibility);
    const slice = listSlice(offset, limit, total);
    const rows = await listingOrder(
      topicsWithAuthor(this.#db.selectFrom('topics')).where('topics.id', 'in', this.#pageOfTopicIds(forum.id, visibility, slice)),
    ).execute();
    return { rows, total };
  }

  #visibleTopics(forumId: number, visibility: Visibility) {
    return this.#db.selectFrom('topics').where('topics.forum_id', '=', forumId).where(visible('topics', visibility));
  }

  /**
   * The ids of one page of a forum's list, read from the listing index alone
   * (for guests, its published, shown part: migration 0031), so that a deep
   * page skips index entries rather than rows; the page's rows are then read
   * by id (a "deferred join").
   */
  #pageOfTopicIds(forumId: number, visibility: Visibility, slice: ListSlice) {
    return listingOrder(this.#visibleTopics(forumId, visibility).select('topics.id'), slice.direction).offset(slice.offset).limit(slice.limit);
  }

  /** One page of a forum's topics as a forum page lists them; `total` is what countTopics gives this viewer. */
  topicsInList(forumId: number, visibility: Visibility, offset: number, limit: number, total: number): Promise<TopicInList[]> {
    const slice = listSlice(offset, limit, total);
    if (isGuest(visibility)) return this.#publishedTopicsInList[slice.direction]({ forumId, offset: slice.offset, limit: slice.limit });
    return this.#topicsInListQuery(forumId, visibility, slice).execute();
  }

  #topicsInListQuery(forumId: number, visibility: Visibility, slice: ListSlice) {
    const query = this.#db
      .selectFrom('topics')
      .where('topics.id', 'in', this.#pageOfTopicIds(forumId, visibility, slice))
      .leftJoin('users', 'users.id', 'topics.author_id')
      .select([
        'topics.id',
        'topics.title',
        'topics.author_id',
        'topics.guest_name',
        'topics.status',
        'topics.locked',
        'topics.pinned',
        'topics.announced',
        'topics.hidden_at',
        'topics.posts_count',
        'topics.views_count',
        'topics.last_post_at',
        'users.username as author_name',
      ]);
    return listingOrder(query);
  }

  /** The newest published post of each topic, with its author: a list's "Last post" line. */
  async lastPostsOfTopics(topicIds: readonly number[]): Promise<Map<number, LastPost>> {
    if (topicIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('posts as p')
      .leftJoin('users as u', 'u.id', 'p.author_id')
      .select(['p.id as post_id', 'p.topic_id', 'p.author_id', 'p.guest_name', 'p.created_at', 'u.username as author_name'])
      .where('p.id', 'in', (eb) =>
        eb
          .selectFrom('topics as t')
          .where('t.id', 'in', topicIds)
          .select((inner) =>
            inner
              .selectFrom('posts as newest')
              .select('newest.id')
              .whereRef('newest.topic_id', '=', 't.id')
              .where('newest.status', '=', 'published')
              .where('newest.hidden_at', 'is', null)
              .orderBy('newest.id', 'desc')
              .limit(1)
              .as('id'),
          ),
      )
      .execute();
    return new Map(rows.map((row) => [row.topic_id, row]));
  }

  /** Each forum's published topic with the latest activity (topics_forum_activity, one step per forum). */
  async latestTopicsOfForums(forumIds: readonly number[]): Promise<Map<number, { id: number; title: string }>> {
    if (forumIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('topics')
      .select(['topics.id', 'topics.title', 'topics.forum_id'])
      .where('topics.id', 'in', (eb) =>
        eb
          .selectFrom('forums as f')
          .where('f.id', 'in', forumIds)
          .select((inner) =>
            inner
              .selectFrom('topics as latest')
              .select('latest.id')
              .whereRef('latest.forum_id', '=', 'f.id')
              .where('latest.status', '=', 'published')
              .where('latest.hidden_at', 'is', null)
              .orderBy('latest.last_post_at', 'desc')
              .orderBy('latest.id', 'desc')
              .limit(1)
              .as('id'),
          ),
      )
      .execute();
    return new Map(rows.map((row) => [row.forum_id, { id: row.id, title: row.title }]));
  }

  /**
   * How many of the forum's topics this viewer sees. The forum's counter counts the published, shown
   * topics (what guests see); a member adds their own held ones, read by author; only moderators,
   * who also see hidden topics, count the forum's rows.
   */
  async countTopics(forum: Pick<ForumRow, 'id' | 'topics_count'>, visibility: Visibility): Promise<number> {
    if (visibility.seesAllPending) return countOf(this.#visibleTopics(forum.id, visibility));
    if (visibility.viewerId === null) return forum.topics_count;
    const own = await countOf(
      this.#db
        .selectFrom('topics')
        .where('topics.author_id', '=', visibility.viewerId)
        .where('topics.forum_id', '=', forum.id)
        .where('topics.status', '!=', 'published')
        .where('topics.hidden_at', 'is', null),
    );
    return forum.topics_count + own;
  }

  insertTopic(values: { forum_id: number; title: string; author_id: number; status: ContentStatus }, now: string, db: Db): Promise<TopicRow> {
    return db
      .insertInto('topics')
      .values({ ...values, posts_count: 0, last_post_at: now, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateTopic(
    id: number,
    values: Partial<{
      title: string;
      status: ContentStatus;
      updated_at: string;
      last_post_at: string;
      locked: boolean;
      pinned: boolean;
      announced: boolean;
      forum_id: number;
    }>,
    db: Db,
  ): Promise<void> {
    await db.updateTable('topics').set(values).where('id', '=', id).execute();
  }

  /** Hides a post or a topic (`by` a moderator), or shows it again (null). */
  async setHidden(table: 'posts' | 'topics', id: number, hidden: { at: string; by: number } | null, db: Db): Promise<void> {
    const update = () =>
      db
        .updateTable(table)
        .set({ hidden_at: hidden?.at ?? null, hidden_by: hidden?.by ?? null })
        .where('id', '=', id)
        .execute();
    if (table === 'topics') await update();
    else await this.#renumbering(id, db, update);
  }

  async adjustTopicPosts(id: number, posts: number, db: Db): Promise<void> {
    if (posts === 0) return;
    await db
      .updateTable('topics')
      .set((eb) => ({ posts_count: eb('posts_count', '+', posts) }))
      .where('id', '=', id)
      .execute();
  }

  /** These posts of the topic (those of another topic are left out), in id order. */
  postsOfTopic(topicId: number, ids: readonly number[]): Promise<Array<Pick<PostRow, 'id' | 'author_id' | 'guest_name' | 'created_at'>>> {
    return this.#db
      .selectFrom('posts')
      .select(['id', 'author_id', 'guest_name', 'created_at'])
      .where('topic_id', '=', topicId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** How many of these topics have a release (`torrents`) or a poll (`polls`): each holds at most one. */
  async countAttached(table: 'torrents' | 'polls', topicIds: readonly number[]): Promise<number> {
    const row = await this.#db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('topic_id', 'in', topicIds)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Where a merged topic's address leads now (migration 0042). */
  async topicRedirect(id: number): Promise<number | undefined> {
    const row = await this.#db.selectFrom('topic_redirects').select('to_topic_id').where('from_topic_id', '=', id).executeTakeFirst();
    return row?.to_topic_id;
  }

  async deleteTopic(id: number, db: Db): Promise<void> {
    await db.deleteFrom('topics').where('id', '=', id).execute();
  }

  /** One transaction for the whole batch, so a failed flush can be retried without counting twice. */
  async addViews(counts: ReadonlyMap<number, number>): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      for (const [topicId, views] of counts) {
        await trx
          .updateTable('topics')
          .set((eb) => ({ views_count: eb('views_count', '+', views) }))
          .where('id', '=', topicId)
          .execute();
      }
    });
  }

  // Posts

  findPost(id: number, db: Db = this.#db): Promise<PostWithAuthor | undefined> {
    return postsWithAuthor(db.selectFrom('posts')).where('posts.id', '=', id).executeTakeFirst();
  }

  async listPosts(topicId: number, visibility: Visibility, offset: number, limit: number): Promise<{ rows: PostWithAuthor[]; total: number }> {
    const layout = await this.postLayout(topicId, visibility);
    const slice = sliceOfLayout(layout, offset, limit);
    const query = await this.#postsOfSlice(topicId, visibility, slice);
    const rows = query === null ? [] : await postsWithAuthor(query).execute();
    return { rows, total: layoutTotal(layout) };
  }

  #visiblePosts(topicId: number, visibility: Visibility) {
    return this.#db.selectFrom('posts').where('posts.topic_id', '=', topicId).where(visible('posts', visibility));
  }

  /**
   * How this viewer's posts of the topic lie around its numbered ones
   * (post-positions.ts): the highest number, and the few posts they see
   * beyond the numbered ones, each with the number of the post it follows.
   * Index look-ups, whatever the topic's size.
   */
  async postLayout(topicId: number, visibility: Visibility): Promise<PostLayout> {
    const [last, extras] = await Promise.all([
      this.#db
        .selectFrom('posts')
        .select('position')
        .where('topic_id', '=', topicId)
        .where('position', 'is not', null)
        .orderBy('position', 'desc')
        .limit(1)
        .executeTakeFirst(),
      isGuest(visibility)
        ? []
        : this.#visiblePosts(topicId, visibility)
            .where('posts.position', 'is', null)
            .select((eb) => [
              'posts.id',
              eb
                .selectFrom('posts as numbered')
                .select('numbered.position')
                .whereRef('numbered.topic_id', '=', 'posts.topic_id')
                .whereRef('numbered.id', '<', 'posts.id')
                .where('numbered.position', 'is not', null)
                .orderBy('numbered.id', 'desc')
                .limit(1)
                .as('after'),
            ])
            .orderBy('posts.id')
            .execute(),
    ]);
    return { numbered: last?.position ?? 0, extras: extras.map((extra) => ({ id: extra.id, after: Number(extra.after ?? 0) })) };
  }

  /**
   * The posts of one slice of a viewer's list: by number alone when the slice
   * holds no other post (every guest's page), else every post the viewer sees
   * between the slice's first and last post (one range of the topic's index).
   */
  async #postsOfSlice(topicId: number, visibility: Visibility, slice: LayoutSlice) {
    const inTopic = this.#db.selectFrom('posts').where('posts.topic_id', '=', topicId);
    if (slice.extraIds.length === 0) {
      // Past the last post (a page number past the end can ask for numbers past any 32-bit column).
      if (slice.from > slice.to) return null;
      // In number order with a limit: PostgreSQL guesses the range's size from every topic's numbers (most
      // topics have a post numbered 1 to 50), and without these reads all of a big topic's posts for page 1.
      return inTopic
        .where('posts.position', '>=', slice.from)
        .where('posts.position', '<=', slice.to)
        .orderBy('posts.position')
        .limit(slice.to - slice.from + 1);
    }
    const ends =
      slice.from > slice.to
        ? []
        : await this.#db.selectFrom('posts').select('id').where('topic_id', '=', topicId).where('position', 'in', [slice.from, slice.to]).execute();
    const ids = [...ends.map((row) => row.id), ...slice.extraIds];
    return inTopic
      .where(visible('posts', visibility))
      .where('posts.id', '>=', Math.min(...ids))
      .where('posts.id', '<=', Math.max(...ids))
      .orderBy('posts.id');
  }

  /** One page of a topic's posts as the topic page shows them. */
  async pagePostRows(topicId: number, visibility: Visibility, offset: number, limit: number): Promise<PostOnPage[]> {
    if (isGuest(visibility)) {
      if (offset >= INT32_MAX) return []; // no post is numbered past a 32-bit column's range
      return this.#publishedPagePostRows({ topicId, from: offset + 1, to: Math.min(offset + limit, INT32_MAX), limit });
    }
    const query = await this.#postsOfSlice(topicId, visibility, sliceOfLayout(await this.postLayout(topicId, visibility), offset, limit));
    return query === null ? [] : withPageColumns(query).execute();
  }

  /** How many of the topic's posts this viewer sees. */
  async countPosts(topicId: number, visibility: Visibility): Promise<number> {
    return layoutTotal(await this.postLayout(topicId, visibility));
  }

  /** How many posts of the topic this viewer sees before this one (its index in the topic's post list); null when they do not see it. */
  async postsBefore(topicId: number, post: { id: number; position: number | null }, visibility: Visibility): Promise<number | null> {
    return indexInLayout(await this.postLayout(topicId, visibility), post);
  }

  /** Published posts of a topic, whatever the topic's own status: what a topic brings to its forum when it is published. */
  publishedPostsIn(topicId: number, db: Db): Promise<number> {
    return countOf(db.selectFrom('posts').where('posts.topic_id', '=', topicId).where('posts.status', '=', 'published').where('posts.hidden_at', 'is', null));
  }

  /** The first post of a topic: its opening message. */
  async firstPostId(topicId: number, db: Db = this.#db): Promise<number | undefined> {
    const row = await db.selectFrom('posts').select('id').where('topic_id', '=', topicId).orderBy('id').limit(1).executeTakeFirst();
    return row?.id;
  }

  /** Posts waiting for a moderator, oldest first, with their topic; in these forums only, unless `forumIds` is null. */
  async listPending(
    offset: number,
    limit: number,
    forumIds: readonly number[] | null,
  ): Promise<{ rows: Array<PostWithAuthor & { topic_title: string }>; total: number }> {
    if (forumIds !== null && forumIds.length === 0) return { rows: [], total: 0 };
    let base = this.#db.selectFrom('posts').where('posts.status', '=', 'pending');
    if (forumIds !== null) {
      base = base.where('posts.topic_id', 'in', (eb) => eb.selectFrom('topics').select('topics.id').where('topics.forum_id', 'in', forumIds));
    }
    const [rows, total] = await Promise.all([
      postsWithAuthor(base)
        .innerJoin('topics', 'topics.id', 'posts.topic_id')
        .select('topics.title as topic_title')
        .orderBy('posts.id')
        .offset(offset)
        .limit(limit)
        .execute(),
      countOf(base),
    ]);
    return { rows, total };
  }

  async insertPost(
    values: { topic_id: number; author_id: number; body: string; status: ContentStatus; held_by_filter_id: number | null },
    now: string,
    db: Db,
  ): Promise<PostRow> {
    const numbered = values.status === 'published';
    if (numbered) await lockTopicPositions(db, values.topic_id);
    const post = await db
      .insertInto('posts')
      .values({ ...values, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!numbered) return post;
    // A new published post is shown and the last of its topic: it follows the last numbered one.
    return { ...post, position: (await renumberPositions(db, post.topic_id, post.id)) + 1 };
  }

  /** Changes a post in a way that may number it or take its number away (post-positions.ts): its topic is renumbered from it on. */
  async #renumbering(id: number, db: Db, change: () => Promise<unknown>): Promise<void> {
    const post = await db.selectFrom('posts').select('topic_id').where('id', '=', id).executeTakeFirst();
    if (post === undefined) return;
    await lockTopicPositions(db, post.topic_id);
    await change();
    await renumberPositions(db, post.topic_id, id);
  }

  /** Keeps the text an edit replaces. */
  async insertRevision(revision: { post_id: number; body: string; editor_id: number; replaced_at: string }, db: Db): Promise<void> {
    await db.insertInto('post_revisions').values(revision).execute();
  }

  /** The texts a post's edits replaced, newest first, with who edited. */
  postRevisions(postId: number): Promise<PostRevision[]> {
    return this.#db
      .selectFrom('post_revisions as r')
      .leftJoin('users as u', 'u.id', 'r.editor_id')
      .select(['r.id', 'r.body', 'r.editor_id', 'r.replaced_at', 'u.username as editor_name'])
      .where('r.post_id', '=', postId)
      .orderBy('r.id', 'desc')
      .execute();
  }

  async updatePost(
    id: number,
    values: Partial<{
      body: string;
      status: ContentStatus;
      held_by_filter_id: number | null;
      updated_at: string;
      edited_at: string;
      mod_comment: string | null;
      mod_comment_kind: ModeratorCommentKind | null;
      mod_comment_by: number | null;
      mod_comment_at: string | null;
    }>,
    db: Db,
  ): Promise<void> {
    const update = () => db.updateTable('posts').set(values).where('id', '=', id).execute();
    if (values.status === undefined) await update();
    else await this.#renumbering(id, db, update);
  }

  async deletePost(id: number, db: Db): Promise<void> {
    await this.#renumbering(id, db, () => db.deleteFrom('posts').where('id', '=', id).execute());
  }

  // Feeds: what guests see, whoever asks (a feed is shared and cached by readers).

  /**
   * The newest published topics, of one forum or of all, newest first, each
   * with its opening post; only in the forums of `scope` (guests' readScope():
   * null for every forum).
   */
  publishedTopicsWithOpening(forumId: number | null, scope: readonly number[] | null, limit: number): Promise<TopicInFeed[]> {
    let query = this.#db
      .selectFrom('topics')
      .innerJoin('posts', 'posts.topic_id', 'topics.id')
      .leftJoin('users', 'users.id', 'topics.author_id')
      .where(visible('topics', GUESTS))
      .where(inForums('topics.forum_id', scope))
      .where('posts.id', '=', (eb) =>
        eb
          .selectFrom('posts as opening')
          .select((inner) => inner.fn.min<number>('opening.id').as('first_id'))
          .whereRef('opening.topic_id', '=', 'topics.id'),
      );
    if (forumId !== null) query = query.where('topics.forum_id', '=', forumId);
    return query
      .select([
        'topics.id',
        'topics.forum_id',
        'topics.title',
        'topics.author_id',
        'topics.created_at',
        'topics.updated_at',
        'users.username as author_name',
        'posts.body',
        'posts.updated_at as body_updated_at',
      ])
      .orderBy('topics.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The newest published posts of a topic, newest first. */
  publishedPostsOf(topicId: number, limit: number): Promise<PostInFeed[]> {
    return this.#db
      .selectFrom('posts')
      .leftJoin('users', 'users.id', 'posts.author_id')
      .where('posts.topic_id', '=', topicId)
      .where(visible('posts', GUESTS))
      .select(['posts.id', 'posts.author_id', 'posts.body', 'posts.created_at', 'posts.updated_at', 'users.username as author_name'])
      .orderBy('posts.id', 'desc')
      .limit(limit)
      .execute();
  }

  // Unread (docs/unread.md): a post is unread for a member when they may see
  // it, someone else wrote it, it is newer than `since`, and its id is above
  // all three of their marks (topic, forum, everything).

  /** Unread posts per topic, for the topics given (one query for a whole list). */
  async unreadInTopics(userId: number, visibility: ScopedVisibility, topicIds: readonly number[], since: string): Promise<Map<number, TopicUnread>> {
    if (topicIds.length === 0) return new Map();
    const rows =
      topicIds.length > PREPARED_LIST_MAX
        ? await this.#unreadInTopicsQuery(userId, visibility, topicIds, since).execute()
        : await this.#preparedUnreadInTopics(
            visibility.seesAllPending,
            visibility.forums,
            topicIds.length,
          )({
            userId,
            since,
            ...Object.fromEntries(topicIds.map((id, index) => [`topic${index}`, id])),
          });
    return new Map(
      rows.map((row) => [row.topic_id, { topic_id: row.topic_id, first_unread_id: Number(row.first_unread_id), unread_posts: Number(row.unread_posts) }]),
    );
  }

  /** Per forum, how many of the topics this member may see have unread posts; forums without any are absent. */
  async unreadTopicsPerForum(userId: number, visibility: ScopedVisibility, since: string): Promise<Map<number, number>> {
    const rows = await this.#unreadPosts(userId, visibility, since)
      .where(visible('topics', visibility))
      // Only topics active since then can hold such posts: the activity index narrows the scan.
      .where('topics.last_post_at', '>', since)
      .groupBy('topics.forum_id')
      .select((eb) => ['topics.forum_id', eb.fn.count<number>('posts.topic_id').distinct().as('unread_topics')])
      .execute();
    return new Map(rows.map((row) => [row.forum_id, Number(row.unread_topics)]));
  }

  #unreadInTopicsQuery(userId: number, visibility: ScopedVisibility, topicIds: readonly number[], since: string) {
    return this.#unreadPosts(userId, visibility, since)
      .where('posts.topic_id', 'in', topicIds)
      .groupBy('posts.topic_id')
      .select((eb) => ['posts.topic_id', eb.fn.min<number>('posts.id').as('first_unread_id'), eb.fn.countAll<number>().as('unread_posts')]);
  }

  /**
   * Every signed-in list page asks for its topics' unread counts; the query's
   * SQL differs only by the list's length, whether the member sees all
   * pending posts and the forums they may read (members with the same rights
   * share one), so one compiled query is kept per such triple.
   */
  #preparedUnreadInTopics(seesAllPending: boolean, forums: readonly number[] | null, length: number): PreparedQuery<UnreadInTopicsValues, UnreadInTopicsRow> {
    const key = `${seesAllPending}:${forums?.join(',') ?? '*'}:${length}`;
    let query = this.#unreadInTopicsPrepared.get(key);
    if (query === undefined) {
      // Kept for a bounded number of rights (each a few forum lists); past it, compiled again as they come.
      if (this.#unreadInTopicsPrepared.size >= PREPARED_UNREAD_MAX) this.#unreadInTopicsPrepared.clear();
      query = prepare(this.#db, (slot) =>
        this.#unreadInTopicsQuery(
          slot('userId'),
          { viewerId: slot('userId'), seesAllPending, forums },
          Array.from({ length }, (_, index) => slot(`topic${index}`)),
          slot('since'),
        ),
      );
      this.#unreadInTopicsPrepared.set(key, query);
    }
    return query;
  }

  /** The posts unread by the member, in the forums they may read only (nothing counts from another). */
  #unreadPosts(userId: number, visibility: ScopedVisibility, since: string) {
    return this.#db
      .selectFrom('posts')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .leftJoin('topic_reads', (join) => join.onRef('topic_reads.topic_id', '=', 'posts.topic_id').on('topic_reads.user_id', '=', userId))
      .leftJoin('forum_reads', (join) => join.onRef('forum_reads.forum_id', '=', 'topics.forum_id').on('forum_reads.user_id', '=', userId))
      .leftJoin('read_marks', (join) => join.on('read_marks.user_id', '=', userId))
      .where(inForums('topics.forum_id', visibility.forums))
      .where(visible('posts', visibility))
      .where('posts.created_at', '>', since)
      .where((eb) => eb.or([eb('posts.author_id', 'is', null), eb('posts.author_id', '!=', userId)]))
      .where((eb) => eb('posts.id', '>', eb.fn.coalesce('topic_reads.last_read_post_id', eb.lit(0))))
      .where((eb) => eb('posts.id', '>', eb.fn.coalesce('forum_reads.up_to_post_id', eb.lit(0))))
      .where((eb) => eb('posts.id', '>', eb.fn.coalesce('read_marks.up_to_post_id', eb.lit(0))));
  }

  /**
   * The member's first unread post of one topic: their marks first (three
   * look-ups by key), then the topic's posts from the highest mark on, in id
   * order, up to the first that counts. Never reads the posts before the mark.
   */
  async firstUnreadPostId(
    userId: number,
    visibility: Visibility,
    topic: { id: number; forum_id: number; last_post_at: string },
    since: string,
  ): Promise<number | undefined> {
    // Nothing in a topic quiet since then is unread: no post of it is read at all.
    if (topic.last_post_at <= since) return undefined;
    const [topicMark, forumMark, everywhere] = await Promise.all([
      this.#db.selectFrom('topic_reads').select('last_read_post_id as mark').where('user_id', '=', userId).where('topic_id', '=', topic.id).executeTakeFirst(),
      this.#db
        .selectFrom('forum_reads')
        .select('up_to_post_id as mark')
        .where('user_id', '=', userId)
        .where('forum_id', '=', topic.forum_id)
        .executeTakeFirst(),
      this.#db.selectFrom('read_marks').select('up_to_post_id as mark').where('user_id', '=', userId).executeTakeFirst(),
    ]);
    const mark = Math.max(topicMark?.mark ?? 0, forumMark?.mark ?? 0, everywhere?.mark ?? 0);
    const row = await this.#visiblePosts(topic.id, visibility)
      .where('posts.id', '>', mark)
      .where('posts.created_at', '>', since)
      .where((eb) => eb.or([eb('posts.author_id', 'is', null), eb('posts.author_id', '!=', userId)]))
      .select('posts.id')
      .orderBy('posts.id')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** The last post of the topic this viewer sees (where "first unread" goes when all is read). */
  async lastVisiblePostId(topicId: number, visibility: Visibility): Promise<number | undefined> {
    const row = await this.#visiblePosts(topicId, visibility).select('posts.id').orderBy('posts.id', 'desc').limit(1).executeTakeFirst();
    return row?.id;
  }

  /** The newest post id of all: what "mark read" marks up to. */
  async newestPostId(): Promise<number> {
    const row = await this.#db
      .selectFrom('posts')
      .select((eb) => eb.fn.max<number | null>('id').as('newest'))
      .executeTakeFirstOrThrow();
    return Number(row.newest ?? 0);
  }

  /** Raises the member's read mark in a topic to `postId`; never lowers it (reading page 1 after page 3). */
  async markTopicRead(userId: number, topicId: number, postId: number, now: string): Promise<void> {
    await this.#db
      .insertInto('topic_reads')
      .values({ user_id: userId, topic_id: topicId, last_read_post_id: postId, read_at: now })
      .onConflict((oc) =>
        oc.columns(['user_id', 'topic_id']).doUpdateSet({ last_read_post_id: postId, read_at: now }).where('topic_reads.last_read_post_id', '<', postId),
      )
      .execute();
  }

  /** Every post of the forum up to `postId` is read; the member's topic marks there that it covers are dropped. */
  async markForumRead(userId: number, forumId: number, postId: number, now: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('forum_reads')
        .values({ user_id: userId, forum_id: forumId, up_to_post_id: postId, marked_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'forum_id']).doUpdateSet({ up_to_post_id: postId, marked_at: now }))
        .execute();
      await trx
        .deleteFrom('topic_reads')
        .where('user_id', '=', userId)
        .where('last_read_post_id', '<=', postId)
        .where('topic_id', 'in', (eb) => eb.selectFrom('topics').select('topics.id').where('topics.forum_id', '=', forumId))
        .execute();
    });
  }

  /** Every post up to `postId` is read; the member's forum and topic marks it covers are dropped. */
  async markAllRead(userId: number, postId: number, now: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('read_marks')
        .values({ user_id: userId, up_to_post_id: postId, marked_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ up_to_post_id: postId, marked_at: now }))
        .execute();
      await trx.deleteFrom('forum_reads').where('user_id', '=', userId).where('up_to_post_id', '<=', postId).execute();
      await trx.deleteFrom('topic_reads').where('user_id', '=', userId).where('last_read_post_id', '<=', postId).execute();
    });
  }

  // Watchlist

  async watch(userId: number, topicId: number, now: string): Promise<void> {
    await this.#db
      .insertInto('watchlist')
      .values({ user_id: userId, topic_id: topicId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'topic_id']).doNothing())
      .execute();
  }

  async unwatch(userId: number, topicId: number): Promise<void> {
    await this.#db.deleteFrom('watchlist').where('user_id', '=', userId).where('topic_id', '=', topicId).execute();
  }

  async isWatching(userId: number, topicId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('watchlist').select('topic_id').where('user_id', '=', userId).where('topic_id', '=', topicId).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The topics a user watches that they may see (a topic held for moderation
   * after they began watching is not listed, nor one in a forum they may no
   * longer read: the row stays, and the topic is back once they may again).
   */
  async watchedTopics(userId: number, visibility: ScopedVisibility, offset: number, limit: number): Promise<{ rows: TopicWithAuthor[]; total: number }> {
    const base = this.#db
      .selectFrom('topics')
      .where('topics.id', 'in', (eb) => eb.selectFrom('watchlist').select('watchlist.topic_id').where('watchlist.user_id', '=', userId))
      .where(visible('topics', visibility))
      .where(inForums('topics.forum_id', visibility.forums));
    const [rows, total] = await Promise.all([latestFirst(topicsWithAuthor(base)).offset(offset).limit(limit).execute(), countOf(base)]);
    return { rows, total };
  }

  /** The active members watching the topic but one: who they are (to ask what they may read), where to mail them, and in what language (their settings). */
  /** The active members of these name keys (usernameKey), as mails and access checks need them. */
  activeMembersNamed(keys: readonly string[]): Promise<Watcher[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'locale', 'time_zone'])
      .where('username_key', 'in', [...new Set(keys)])
      .where('status', '=', 'active')
      .execute();
  }

  /** The active members of these ids, as activeMembersNamed. */
  activeMembersById(ids: readonly number[]): Promise<Watcher[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#db.selectFrom('users').select(['id', 'role', 'email', 'locale', 'time_zone']).where('id', 'in', ids).where('status', '=', 'active').execute();
  }

  watchers(topicId: number, exceptUserId: number): Promise<Watcher[]> {
    return this.#db
      .selectFrom('watchlist')
      .innerJoin('users', 'users.id', 'watchlist.user_id')
      .select(['users.id', 'users.role', 'users.email', 'users.locale', 'users.time_zone'])
      .where('watchlist.topic_id', '=', topicId)
      .where('users.id', '!=', exceptUserId)
      .where('users.status', '=', 'active')
      .execute();
  }
}

// The shapes every read of topics and posts shares: one definition each.

/** A topic row with its author's name (the API's topic). */
function topicsWithAuthor<O>(query: SelectQueryBuilder<Database, 'topics', O>) {
  return query.leftJoin('users', 'users.id', 'topics.author_id').selectAll('topics').select('users.username as author_name');
}

/** A post row with what the API and mails show of its author. */
function postsWithAuthor<O>(query: SelectQueryBuilder<Database, 'posts', O>) {
  return query
    .leftJoin('users', 'users.id', 'posts.author_id')
    .leftJoin('users as commenter', 'commenter.id', 'posts.mod_comment_by')
    .selectAll('posts')
    .select([
      'commenter.username as mod_comment_by_name',
      'users.username as author_name',
      'users.signature as author_signature',
      'users.email as author_email',
      'users.locale as author_locale',
      'users.time_zone as author_time_zone',
    ]);
}

/** A post row with what the topic page shows of it and its author. */
function withPageColumns<O>(query: SelectQueryBuilder<Database, 'posts', O>) {
  return query
    .leftJoin('users', 'users.id', 'posts.author_id')
    .leftJoin('users as commenter', 'commenter.id', 'posts.mod_comment_by')
    .select([
      'posts.id',
      'posts.author_id',
      'posts.guest_name',
      'posts.body',
      'posts.status',
      'posts.hidden_at',
      'posts.hidden_by',
      'posts.edited_at',
      'posts.created_at',
      'users.username as author_name',
      'users.signature as author_signature',
      'users.avatar as author_avatar',
      'users.created_at as author_joined_at',
      'users.post_count as author_post_count',
      'users.role as author_role',
      'users.rank_id as author_rank_id',
      'posts.mod_comment',
      'posts.mod_comment_kind',
      'posts.mod_comment_by',
      'posts.mod_comment_at',
      'commenter.username as mod_comment_by_name',
    ]);
}

/** Topics across forums (the watchlist): latest activity first. */
function latestFirst<O>(query: SelectQueryBuilder<Database, 'topics' | 'users', O>) {
  return query.orderBy('topics.last_post_at', 'desc').orderBy('topics.id', 'desc');
}

/**
 * A forum's topics: announcements first, then pinned ones, then latest activity first (the
 * topics_forum_listing index read backwards); 'asc' reads the list from its end (listSlice).
 */
function listingOrder<O>(query: SelectQueryBuilder<Database, 'topics' | 'users', O>, direction: ListDirection = 'desc') {
  return query
    .orderBy('topics.announced', direction)
    .orderBy('topics.pinned', direction)
    .orderBy('topics.last_post_at', direction)
    .orderBy('topics.id', direction);
}

type ListDirection = 'desc' | 'asc';

interface ListSlice {
  offset: number;
  limit: number;
  direction: ListDirection;
}

/**
 * Where one page of a list of `total` rows is read from. Skipping rows costs
 * what it skips, even in an index, so a page past the middle is read from the
 * far end, skipping the rows after it instead (phpBB's forum view does the
 * same): the last page of a 100,000-topic forum costs what the first does.
 */
export function listSlice(offset: number, limit: number, total: number): ListSlice {
  if (offset * 2 + limit <= total) return { offset, limit, direction: 'desc' };
  const end = Math.min(total, offset + limit);
  return { offset: total - end, limit: Math.max(0, end - offset), direction: 'asc' };
}

function isGuest(visibility: Visibility): boolean {
  return visibility.viewerId === null && !visibility.seesAllPending;
}

/** Published rows, plus the viewer's own pending ones, never hidden ones; or every row for moderators. */
export function visible(table: 'topics' | 'posts', visibility: Visibility): RawBuilder<boolean> {
  if (visibility.seesAllPending) return sql<boolean>`1 = 1`;
  const shown = sql<boolean>`${sql.ref(`${table}.hidden_at`)} is null`;
  const published = sql<boolean>`${sql.ref(`${table}.status`)} = 'published'`;
  if (visibility.viewerId === null) return sql<boolean>`(${published} and ${shown})`;
  return sql<boolean>`((${published} or ${sql.ref(`${table}.author_id`)} = ${visibility.viewerId}) and ${shown})`;
}
