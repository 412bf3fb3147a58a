// Topics: lists as the API and the forum pages show them, and the author's
// and moderators' writes. A new topic opens with its first post.
import { type Clock, isoNow } from '../clock.ts';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { ContentStatus } from '../db/schema.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import { assertMay, assertMayChange, assertModerates, canSee, visibility, type Listed } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { Forums } from './forums.ts';
import type { ModerationLog } from './moderation-log.ts';
import type { Publishing } from './publishing.ts';
import type { ForumRepository, ForumRow, LastPost, TopicInList, TopicWithAuthor } from './repository.ts';
import type { PostNotifications } from './post-notifications.ts';
import { composeRelease, type ReleaseTemplates } from './release-templates.ts';
import type { SearchRepository } from './search/repository.ts';
import { checkedPoll, type PollInput } from './polls/definition.ts';
import type { PollRepository } from './polls/repository.ts';

/**
 * Published (change feed) after topics are deleted, hidden, restored or
 * published by an approval: what hangs on them, such as a torrent, follows
 * (the tracker's caches listen).
 */
export const TOPIC_VISIBILITY_TOPIC = 'forum_topic_visibility';

export interface NewTopicInput {
  forum_id: number;
  title: string;
  body: string;
  /** A poll opened with the topic (docs/polls.md): needs the forum's `poll_create` right. */
  poll?: PollInput | undefined;
  /** The release template's fields, by key (docs/release-templates.md): the title and opening post are laid out from them. */
  release?: Readonly<Record<string, string>> | undefined;
}

export class Topics {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #forums: Forums;
  readonly #publishing: Publishing;
  readonly #flood: FloodControl;
  readonly #changes: ChangeFeed;
  readonly #searchIndex: SearchRepository;
  readonly #log: ModerationLog;
  readonly #access: ForumAccess;
  readonly #polls: PollRepository;
  readonly #notifications: PostNotifications;
  readonly #releases: ReleaseTemplates;

  constructor(
    repository: ForumRepository,
    forums: Forums,
    publishing: Publishing,
    writes: {
      flood: FloodControl;
      changes: ChangeFeed;
      searchIndex: SearchRepository;
      moderationLog: ModerationLog;
      access: ForumAccess;
      polls: PollRepository;
      notifications: PostNotifications;
      releases: ReleaseTemplates;
    },
    clock: Clock,
  ) {
    this.#notifications = writes.notifications;
    this.#releases = writes.releases;
    this.#access = writes.access;
    this.#polls = writes.polls;
    this.#changes = writes.changes;
    this.#clock = clock;
    this.#repository = repository;
    this.#forums = forums;
    this.#publishing = publishing;
    this.#flood = writes.flood;
    this.#searchIndex = writes.searchIndex;
    this.#log = writes.moderationLog;
  }

  /** A forum's topics: 404 as for an unknown forum unless the viewer may view it, 403 unless they may read it. */
  async list(forumId: number, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicWithAuthor>> {
    assertMay(await this.#access.of(viewer), forumId, 'read', () => new ModelNotFoundError('Forum', forumId));
    return this.#repository.listTopics(await this.#forums.get(forumId), visibility(viewer, forumId), page.offset, page.perPage);
  }

  /**
   * A page of topics as a forum page lists them, for a forum the caller has
   * already loaded.
   */
  async of(forum: ForumRow, viewer: AuthUser | null, page: PageRequest): Promise<Listed<TopicInList>> {
    const seen = visibility(viewer, forum.id);
    const total = await this.#repository.countTopics(forum, seen);
    return { rows: await this.#repository.topicsInList(forum.id, seen, page.offset, page.perPage, total), total };
  }

  /** The newest published post of each topic, with its author (lists' "Last post" lines). */
  lastPosts(topicIds: readonly number[]): Promise<Map<number, LastPost>> {
    return this.#repository.lastPostsOfTopics(topicIds);
  }

  /**
   * The topic if this viewer may read it (docs/access.md): in a forum they
   * may not view it is unknown (404, as any unknown id), in one they may
   * view but not read a 403. Pending topics are the author's and its forum's
   * moderators' only. Every read of one topic, and of its posts, comes here.
   */
  async get(id: number, viewer: AuthUser | null): Promise<TopicWithAuthor> {
    const notFound = () => new ModelNotFoundError('Topic', id);
    const topic = await this.#seen(id, viewer);
    if (topic === undefined) throw notFound();
    assertMay(await this.#access.of(viewer), topic.forum_id, 'read', notFound);
    return topic;
  }

  /** The topic if this viewer may see it as pending or hidden rows go, whatever the forum's rules (what was just written for them). */
  async #seen(id: number, viewer: AuthUser | null): Promise<TopicWithAuthor | undefined> {
    const topic = await this.#repository.findTopic(id);
    return topic === undefined || !canSee(topic, viewer, topic.forum_id) ? undefined : topic;
  }

  async create(author: AuthUser, input: NewTopicInput): Promise<TopicWithAuthor> {
    const errors = new FieldErrorBag();
    // A forum the author may not view is named as an unknown one is (422); one they may view but not post in is a 403, whatever the fields.
    const permissions = await this.#access.of(author);
    if (!permissions.may(input.forum_id, 'view') || (await this.#repository.findForum(input.forum_id)) === undefined) {
      errors.add('forum_id', t('validation.selected', { field: fieldName('forum_id') }));
    } else if (!permissions.may(input.forum_id, 'post')) {
      throw new ApiError('FORBIDDEN', t('access.post_needed'));
    } else if (input.poll !== undefined && !permissions.may(input.forum_id, 'poll_create')) {
      throw new ApiError('FORBIDDEN', t('poll.create_needed'));
    }
    // A forum with a release template lays the topic out from its fields (given, or asked for by a required one).
    const template = errors.has('forum_id') ? null : await this.#releases.of(input.forum_id);
    const release =
      template !== null && (input.release !== undefined || template.fields.some((field) => field.required))
        ? errors.collect(() => composeRelease(template, { title: input.title, body: input.body }, input.release ?? {}))
        : undefined;
    if (template === null && input.release !== undefined && !errors.has('forum_id')) errors.add('release', t('release.error.none'));
    const written = { title: release?.title ?? input.title, body: release?.body ?? input.body };
    const title = await this.#publishing.screenField(errors, 'title', written.title, 'topics');
    const body = await this.#publishing.screenField(errors, 'body', written.body, 'posts');
    const poll = input.poll === undefined ? undefined : await checkedPoll(input.poll, errors, this.#publishing, this.#clock.now());
    errors.throwIfAny();

    // A rule that holds the poll's words holds the topic, as one that holds its title does.
    const heldBy = title.heldBy ?? body.heldBy ?? poll?.heldBy ?? null;
    const status: ContentStatus = heldBy === null ? 'published' : 'pending';
    const { topicId, openingId } = await this.#flood.guard(author, 'posts', () =>
      this.#repository.transaction(async (trx) => {
        const at = isoNow(this.#clock);
        const topic = await this.#repository.insertTopic({ forum_id: input.forum_id, title: written.title, author_id: author.id, status }, at, trx);
        const post = await this.#repository.insertPost(
          { topic_id: topic.id, author_id: author.id, body: written.body, status, held_by_filter_id: heldBy },
          at,
          trx,
        );
        await this.#searchIndex.index(trx, [{ id: post.id, title: written.title, body: written.body }]);
        if (release !== undefined) await this.#releases.save(trx, topic.id, release.values);
        if (poll !== undefined) await this.#polls.insert(trx, topic.id, poll.definition, at);
        if (status === 'published') await this.#publishing.published(trx, topic.forum_id, topic.id, { topics: 1, posts: 1 });
        return { topicId: topic.id, openingId: post.id };
      }),
    );
    // Its author may post where they may not read (TorrentPier's auth_post and auth_read are apart): the answer is what they wrote.
    const created = await this.#seen(topicId, author);
    if (created === undefined) throw new ModelNotFoundError('Topic', topicId);
    // The opening post's quotes and @mentions are told as a reply's are (no one watches a new topic yet).
    if (status === 'published') await this.#notifications.published(created, author.id, { id: openingId, body: written.body });
    return created;
  }

  async rename(id: number, editor: AuthUser, title: string): Promise<TopicWithAuthor> {
    const topic = await this.get(id, editor);
    assertMayChange(topic.author_id, editor, topic.forum_id, await this.#access.of(editor), 'edit');
    const errors = new FieldErrorBag();
    const screened = await this.#publishing.screenField(errors, 'title', title, 'topics');
    errors.throwIfAny();

    await this.#repository.transaction(async (trx) => {
      await this.#repository.updateTopic(id, { title, updated_at: isoNow(this.#clock) }, trx);
      await this.#searchIndex.refreshOpening(trx, id);
      const firstPostId = await this.#repository.firstPostId(id, trx);
      if (screened.heldBy !== null && firstPostId !== undefined) await this.#publishing.hold(trx, firstPostId, screened.heldBy);
    });
    return this.get(id, editor);
  }

  async delete(id: number, viewer: AuthUser): Promise<void> {
    const topic = await this.get(id, viewer);
    assertModerates(viewer, topic.forum_id, 'access.delete_topic');
    await this.#repository.transaction(async (trx) => {
      // A hidden topic left the counts when it was hidden.
      if (topic.status === 'published' && topic.hidden_at === null) await this.#repository.adjustForumCounts(topic.forum_id, -1, -topic.posts_count, trx);
      await this.#repository.deleteTopic(id, trx);
      await this.#log.record(
        { actorId: viewer.id, action: 'delete_topic', forumId: topic.forum_id, topicId: id, subject: topic.title },
        isoNow(this.#clock),
        trx,
      );
    });
    await this.visibilityChanged();
  }

  /** Tells every instance that topics were deleted, hidden, restored or published. */
  async visibilityChanged(): Promise<void> {
    await this.#changes.publish(TOPIC_VISIBILITY_TOPIC);
  }
}
