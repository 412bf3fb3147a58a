// Splitting and merging topics (docs/moderation.md, "Split and merge";
// TorrentPier's modcp split and merge): a moderator moves chosen replies of a
// topic into a new topic or into an existing one, or moves all of a topic's
// posts into another and the emptied topic goes, leaving a redirect.
//
// Posts keep their ids and times, and a topic's posts are in id order, so a
// topic's opening post (its title, its release, its poll) stays first only if
// nothing older moves in: posts older than the target's opening post are
// refused (merge the newer topic into the older one). Everything that hangs on
// posts follows in the same transaction: positions (post-positions.ts), the
// topics' and forums' counts, the search index's titles, members' unread
// marks and watches, the poll, the views; and the moderation log.
import { sql, type Transaction } from 'kysely';
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError } from '../http/errors.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';
import { assertModerates } from './access.ts';
import type { ModerationLog } from './moderation-log.ts';
import { lockTopicPositions, renumberPositions } from './post-positions.ts';
import type { Publishing } from './publishing.ts';
import type { ForumRepository, TopicWithAuthor } from './repository.ts';
import type { SearchRepository } from './search/repository.ts';
import type { Topics } from './topics.ts';

/** Posts one split moves at most: a page of posts many times over, and one transaction a database takes in its stride. */
export const SPLIT_POSTS_MAX = 500;

/** Where split posts go: a new topic (its title and forum) or an existing one. */
export type SplitDestination = { title: string; forum_id: number } | { topic_id: number };

/** What a topic adds to its forum's counts: a published, shown topic counts itself and its counted posts. */
interface Counted {
  forumId: number;
  topics: number;
  posts: number;
}

export class SplitMerge {
  readonly #repository: ForumRepository;
  readonly #topics: Topics;
  readonly #publishing: Publishing;
  readonly #searchIndex: SearchRepository;
  readonly #log: ModerationLog;
  readonly #clock: Clock;

  constructor(
    repository: ForumRepository,
    topics: Topics,
    writes: { publishing: Publishing; searchIndex: SearchRepository; moderationLog: ModerationLog },
    clock: Clock,
  ) {
    this.#repository = repository;
    this.#topics = topics;
    this.#publishing = writes.publishing;
    this.#searchIndex = writes.searchIndex;
    this.#log = writes.moderationLog;
    this.#clock = clock;
  }

  /**
   * Moves these replies of the topic into a new topic or an existing one; the
   * moderator moderates both forums. Answers the topic they went into and
   * whether it is new.
   */
  async split(sourceId: number, moderator: AuthUser, postIds: readonly number[], to: SplitDestination): Promise<{ topic: TopicWithAuthor; created: boolean }> {
    const source = await this.#moderated(sourceId, moderator);
    const errors = new FieldErrorBag();
    const ids = [...new Set(postIds)].sort((a, b) => a - b);
    if (ids.length === 0 || ids.length > SPLIT_POSTS_MAX) errors.add('post_ids', t('split.count', { max: SPLIT_POSTS_MAX }));
    const moved = ids.length === 0 ? [] : await this.#repository.postsOfTopic(sourceId, ids);
    if (moved.length !== ids.length) errors.add('post_ids', t('split.not_in_topic'));
    if (ids[0] === (await this.#repository.firstPostId(sourceId))) errors.add('post_ids', t('split.opening_post'));

    let target: TopicWithAuthor | undefined;
    if ('topic_id' in to) {
      target = await this.#destination(to.topic_id, sourceId, moderator, errors);
      const opening = target === undefined ? undefined : await this.#repository.firstPostId(target.id);
      if (opening !== undefined && ids[0] !== undefined && ids[0] < opening) errors.add('post_ids', t('split.older_than_target'));
    } else {
      if ((await this.#repository.findForum(to.forum_id)) === undefined) {
        errors.add('forum_id', t('validation.selected', { field: fieldName('forum_id') }));
      } else {
        assertModerates(moderator, to.forum_id, 'access.moderators_only');
      }
      // Blocked words are refused as in any title; a rule that would hold it does not: the moderator is who would approve it.
      await this.#publishing.screenField(errors, 'title', to.title, 'topics');
    }
    errors.throwIfAny();

    const first = moved[0]!;
    const destinationId = await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      // Locked first, so that what they counted before is what this split changes (a new topic is this transaction's alone).
      const existing = target === undefined ? [sourceId] : [sourceId, target.id];
      await lockAll(trx, existing);
      await stillThere(trx, existing);
      const before = await countedAll(trx, existing);
      const destination =
        'topic_id' in to
          ? to.topic_id
          : (
              await trx
                .insertInto('topics')
                .values({
                  forum_id: to.forum_id,
                  title: to.title,
                  author_id: first.author_id,
                  guest_name: first.guest_name,
                  status: 'published',
                  posts_count: 0,
                  last_post_at: first.created_at,
                  created_at: first.created_at,
                  updated_at: at,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id;
      await trx.updateTable('posts').set({ topic_id: destination }).where('topic_id', '=', sourceId).where('id', 'in', ids).execute();
      await renumberPositions(trx, sourceId, first.id);
      await renumberPositions(trx, destination, first.id);
      await recount(trx, sourceId, false);
      await recount(trx, destination, target !== undefined);
      await this.#adjustForums(trx, before, await countedAll(trx, [sourceId, destination]));
      if (target === undefined) {
        // The new topic's opening post now carries its title in the index; what its readers had read of it they still have.
        await this.#searchIndex.refresh(trx, [first.id]);
        await copyRows(trx, 'topic_reads', sourceId, destination);
      }
      await this.#log.record(
        {
          actorId: moderator.id,
          action: 'split_topic',
          forumId: source.forum_id,
          toForumId: target?.forum_id ?? ('forum_id' in to ? to.forum_id : source.forum_id),
          topicId: destination,
          postId: first.id,
          subject: target?.title ?? ('title' in to ? to.title : ''),
        },
        at,
        trx,
      );
      return destination;
    });
    return { topic: await this.#topics.get(destinationId, moderator), created: target === undefined };
  }

  /**
   * Moves every post of the topic into the target, which keeps its title,
   * opening post, release and poll (the source's poll comes along when the
   * target has none); the source topic goes, and its address leads to the
   * target from now on.
   */
  async merge(sourceId: number, moderator: AuthUser, targetId: number): Promise<TopicWithAuthor> {
    const source = await this.#moderated(sourceId, moderator);
    const errors = new FieldErrorBag();
    const target = await this.#destination(targetId, sourceId, moderator, errors);
    if (target !== undefined) {
      const [sourceOpening, targetOpening] = await Promise.all([this.#repository.firstPostId(sourceId), this.#repository.firstPostId(targetId)]);
      if (sourceOpening !== undefined && targetOpening !== undefined && sourceOpening < targetOpening) errors.add('topic_id', t('merge.newer_into_older'));
      const [releases, polls] = await Promise.all([
        this.#repository.countAttached('torrents', [sourceId]),
        this.#repository.countAttached('polls', [sourceId, targetId]),
      ]);
      if (releases > 0) errors.add('topic_id', t('merge.release'));
      if (polls > 1) errors.add('topic_id', t('merge.two_polls'));
    }
    errors.throwIfAny();

    await this.#repository.transaction(async (trx) => {
      const at = isoNow(this.#clock);
      await lockAll(trx, [sourceId, targetId]);
      await stillThere(trx, [sourceId, targetId]);
      const before = await countedAll(trx, [sourceId, targetId]);
      const opening = await this.#repository.firstPostId(sourceId, trx);
      await trx.updateTable('posts').set({ topic_id: targetId }).where('topic_id', '=', sourceId).execute();
      if (opening !== undefined) {
        await renumberPositions(trx, targetId, opening);
        // The source's opening post is a reply now: its title leaves the index.
        await this.#searchIndex.refresh(trx, [opening]);
      }
      await recount(trx, targetId, true);
      await trx.updateTable('polls').set({ topic_id: targetId }).where('topic_id', '=', sourceId).execute();
      await copyRows(trx, 'watchlist', sourceId, targetId);
      await copyRows(trx, 'topic_reads', sourceId, targetId);
      await trx
        .updateTable('topics')
        .set((eb) => ({ views_count: eb('views_count', '+', source.views_count) }))
        .where('id', '=', targetId)
        .execute();
      await trx.updateTable('topic_redirects').set({ to_topic_id: targetId }).where('to_topic_id', '=', sourceId).execute();
      await trx.insertInto('topic_redirects').values({ from_topic_id: sourceId, to_topic_id: targetId, created_at: at }).execute();
      await this.#log.record(
        { actorId: moderator.id, action: 'merge_topic', forumId: source.forum_id, toForumId: target!.forum_id, topicId: targetId, subject: source.title },
        at,
        trx,
      );
      await this.#repository.deleteTopic(sourceId, trx);
      await this.#adjustForums(trx, before, await countedAll(trx, [sourceId, targetId]));
    });
    await this.#topics.visibilityChanged();
    return this.#topics.get(targetId, moderator);
  }

  /** Where a merged topic's address leads now (undefined: it was never merged). */
  async redirectOf(topicId: number): Promise<number | undefined> {
    return this.#repository.topicRedirect(topicId);
  }

  /** The topic, when this user moderates its forum. */
  async #moderated(id: number, moderator: AuthUser): Promise<TopicWithAuthor> {
    const topic = await this.#topics.get(id, moderator);
    assertModerates(moderator, topic.forum_id, 'access.moderators_only');
    return topic;
  }

  /** The existing topic posts go into: another topic the moderator sees and moderates (an unknown one is the field's error). */
  async #destination(id: number, sourceId: number, moderator: AuthUser, errors: FieldErrorBag): Promise<TopicWithAuthor | undefined> {
    if (id === sourceId) {
      errors.add('topic_id', t('merge.same_topic'));
      return undefined;
    }
    const topic = await this.#topics.get(id, moderator).catch((error: unknown) => {
      if (error instanceof ModelNotFoundError) return undefined;
      throw error;
    });
    if (topic === undefined) {
      errors.add('topic_id', t('validation.selected', { field: fieldName('topic_id') }));
      return undefined;
    }
    assertModerates(moderator, topic.forum_id, 'access.moderators_only');
    return topic;
  }

  /** Each forum's counts moved by what its topics count now against what they counted before. */
  async #adjustForums(trx: Transaction<Database>, before: readonly Counted[], after: readonly Counted[]): Promise<void> {
    const deltas = new Map<number, { topics: number; posts: number }>();
    const add = (counted: Counted, sign: 1 | -1) => {
      const delta = deltas.get(counted.forumId) ?? { topics: 0, posts: 0 };
      delta.topics += sign * counted.topics;
      delta.posts += sign * counted.posts;
      deltas.set(counted.forumId, delta);
    };
    for (const counted of before) add(counted, -1);
    for (const counted of after) add(counted, 1);
    for (const [forumId, delta] of deltas) await this.#repository.adjustForumCounts(forumId, delta.topics, delta.posts, trx);
  }
}

/** Takes the topics' row locks in id order, so that two moderators working on the same two topics wait rather than deadlock. */
async function lockAll(trx: Transaction<Database>, topicIds: readonly number[]): Promise<void> {
  for (const id of [...new Set(topicIds)].sort((a, b) => a - b)) await lockTopicPositions(trx, id);
}

/**
 * The topics, locked, are still there: another moderator's merge or delete
 * that committed while this one waited for the locks leaves nothing to do
 * here but answer 404, as the request would have been answered a moment later.
 */
async function stillThere(trx: Transaction<Database>, topicIds: readonly number[]): Promise<void> {
  const found = new Set((await trx.selectFrom('topics').select('id').where('id', 'in', topicIds).execute()).map((row) => row.id));
  const gone = topicIds.find((id) => !found.has(id));
  if (gone !== undefined) throw new ModelNotFoundError('Topic', gone);
}

/** What each of these topics adds to its forum's counts now (a deleted topic adds nothing). */
async function countedAll(trx: Transaction<Database>, topicIds: readonly number[]): Promise<Counted[]> {
  const rows = await trx.selectFrom('topics').select(['forum_id', 'status', 'hidden_at', 'posts_count']).where('id', 'in', topicIds).execute();
  return rows.map((row) => {
    const counted = row.status === 'published' && row.hidden_at === null;
    return { forumId: row.forum_id, topics: counted ? 1 : 0, posts: counted ? row.posts_count : 0 };
  });
}

/**
 * The topic's count of posts (its numbered ones, post-positions.ts) and its
 * last activity, from its posts as they now are. A topic that received posts
 * keeps a later last activity it had (`keepLater`): an approval time, say.
 */
async function recount(trx: Transaction<Database>, topicId: number, keepLater: boolean): Promise<void> {
  const figures = await trx
    .selectFrom('posts')
    .select((eb) => [eb.fn.count<number | string>('id').as('posts'), eb.fn.max('created_at').as('latest')])
    .where('topic_id', '=', topicId)
    .where('position', 'is not', null)
    .executeTakeFirstOrThrow();
  const topic = await trx.selectFrom('topics').select(['created_at', 'last_post_at']).where('id', '=', topicId).executeTakeFirstOrThrow();
  const latest = figures.latest === null ? String(topic.created_at) : String(figures.latest);
  const lastPostAt = keepLater && String(topic.last_post_at) > latest ? String(topic.last_post_at) : latest;
  await trx
    .updateTable('topics')
    .set({ posts_count: Number(figures.posts), last_post_at: lastPostAt })
    .where('id', '=', topicId)
    .execute();
}

/** Copies members' rows about one topic (watches, read marks) to another; a member with a row there already keeps theirs. */
async function copyRows(trx: Transaction<Database>, table: 'watchlist' | 'topic_reads', fromTopicId: number, toTopicId: number): Promise<void> {
  if (table === 'watchlist') {
    await sql`insert into watchlist (user_id, topic_id, created_at)
      select user_id, ${toTopicId}, created_at from watchlist where topic_id = ${fromTopicId}
      on conflict (user_id, topic_id) do nothing`.execute(trx);
    return;
  }
  await sql`insert into topic_reads (user_id, topic_id, last_read_post_id, read_at)
    select user_id, ${toTopicId}, last_read_post_id, read_at from topic_reads where topic_id = ${fromTopicId}
    on conflict (user_id, topic_id) do nothing`.execute(trx);
}
