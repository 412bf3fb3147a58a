// Polls in topics (docs/polls.md): the rules. A poll is read through its
// topic (Topics.get: the forum's rule, 404 where the topic does not exist for
// the reader); voting needs the forum's `vote` right, an open poll and an
// unlocked topic; starting one needs `poll_create` (with a new topic, or
// later by the topic's author); its author and the forum's moderators close,
// reopen and delete it (moderators' acts logged). One ballot per member is the
// database's rule (the ballots' primary key), so racing votes count once.
import { type Clock, isoNow } from '../../clock.ts';
import type { AuthUser } from '../../auth/service.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/dialect.ts';
import type { PollResults } from '../../db/schema.ts';
import { ApiError, FieldErrorBag, ModelNotFoundError } from '../../http/errors.ts';
import { t, tn } from '../../i18n/messages.ts';
import { moderates } from '../access.ts';
import type { ForumAccess } from '../forum-access.ts';
import type { ModerationLog } from '../moderation-log.ts';
import type { Publishing } from '../publishing.ts';
import type { TopicWithAuthor } from '../repository.ts';
import type { Topics } from '../topics.ts';
import { checkedPoll, type PollInput } from './definition.ts';
import type { PollCounts, PollRepository, StoredPoll } from './repository.ts';

/** A poll as one reader sees it. */
export interface PollView {
  id: number;
  topicId: number;
  question: string;
  maxChoices: number;
  results: PollResults;
  allowChange: boolean;
  endsAt: string | null;
  closedAt: string | null;
  createdAt: string;
  /** Votes are taken now: not closed, not past its end. */
  open: boolean;
  voters: number;
  /** Whether this reader sees the counts (`votes` null otherwise). */
  resultsShown: boolean;
  options: Array<{ id: number; position: number; text: string; votes: number | null }>;
  /** The options this reader chose; null when they have not voted (an imported ballot: []). */
  myChoices: number[] | null;
  /** What this reader may do with it now. */
  may: { vote: boolean; change: boolean; manage: boolean };
}

export class Polls {
  readonly #repository: PollRepository;
  readonly #topics: Topics;
  readonly #access: ForumAccess;
  readonly #publishing: Publishing;
  readonly #log: ModerationLog;
  readonly #clock: Clock;

  constructor(repository: PollRepository, deps: { topics: Topics; access: ForumAccess; publishing: Publishing; log: ModerationLog }, clock: Clock) {
    this.#repository = repository;
    this.#topics = deps.topics;
    this.#access = deps.access;
    this.#publishing = deps.publishing;
    this.#log = deps.log;
    this.#clock = clock;
  }

  /** The topic's poll as this reader sees it; null when it has none. */
  async of(topic: TopicWithAuthor, viewer: AuthUser | null): Promise<PollView | null> {
    const standing = await this.#repository.standing(topic.id);
    return standing === undefined ? null : this.#view(standing.stored, topic, viewer, standing.counts);
  }

  /** The poll of a topic this reader may read (404 as for an unknown topic otherwise, or when it has no poll). */
  async get(topicId: number, viewer: AuthUser | null): Promise<PollView> {
    const topic = await this.#topics.get(topicId, viewer);
    const view = await this.of(topic, viewer);
    if (view === null) throw new ModelNotFoundError('Poll', topicId);
    return view;
  }

  /** Starts a poll in an existing topic: its author with the forum's `poll_create` right, or a moderator (409 if it has one). */
  async add(topicId: number, user: AuthUser, input: PollInput): Promise<PollView> {
    const topic = await this.#topics.get(topicId, user);
    const permissions = await this.#access.of(user);
    if (!moderates(user, topic.forum_id)) {
      if (topic.author_id !== user.id) throw new ApiError('FORBIDDEN', t('access.author_or_moderator'));
      if (!permissions.may(topic.forum_id, 'poll_create')) throw new ApiError('FORBIDDEN', t('poll.create_needed'));
    }
    const errors = new FieldErrorBag();
    const { definition, heldBy } = await checkedPoll(input, errors, this.#publishing, this.#clock.now());
    // A topic's text waits for a moderator when a rule holds it; a poll added later has nothing to wait with.
    if (heldBy !== null && !moderates(user, topic.forum_id)) errors.add('poll.question', t('poll.error.held'));
    errors.throwIfAny();
    try {
      await this.#repository.transaction((trx) => this.#repository.insert(trx, topicId, definition, isoNow(this.#clock)));
    } catch (error) {
      // The topic has one already: one poll a topic is the database's rule (a unique topic_id), racing requests too.
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', t('poll.exists'));
      throw error;
    }
    return this.#current(topic, user);
  }

  /** Casts (or, where the poll allows, changes) the member's vote. */
  async vote(topicId: number, user: AuthUser, optionIds: readonly number[]): Promise<PollView> {
    const { topic, stored, view } = await this.#stored(topicId, user);
    this.#assertMayVote(view, topic, user, await this.#permissions(user, topic.forum_id));
    const errors = new FieldErrorBag();
    const known = new Set(stored.options.map((option) => option.id));
    const chosen = [...new Set(optionIds)];
    if (chosen.length === 0 || chosen.some((id) => !known.has(id))) errors.add('option_ids', t('poll.error.choose'));
    else if (chosen.length > stored.poll.max_choices) errors.add('option_ids', tn('poll.error.too_many', stored.poll.max_choices));
    errors.throwIfAny();
    let cast: boolean;
    try {
      cast = await this.#repository.cast(stored.poll.id, user.id, chosen, Boolean(stored.poll.allow_change), isoNow(this.#clock));
    } catch (error) {
      // The poll (or the topic with it) was deleted while the vote was on its way.
      if (isForeignKeyViolation(error)) throw new ModelNotFoundError('Poll', topicId);
      throw error;
    }
    if (!cast) throw new ApiError('CONFLICT', t('poll.already_voted'));
    return this.#current(topic, user);
  }

  /** Takes the member's vote back, where the poll lets voters change it. */
  async retract(topicId: number, user: AuthUser): Promise<PollView> {
    const { topic, stored, view } = await this.#stored(topicId, user);
    this.#assertMayVote(view, topic, user, await this.#permissions(user, topic.forum_id));
    if (!view.allowChange) throw new ApiError('FORBIDDEN', t('poll.no_change'));
    if (!(await this.#repository.retract(stored.poll.id, user.id))) throw new ApiError('CONFLICT', t('poll.not_voted'));
    return this.#current(topic, user);
  }

  /** Ends voting now, or lets it go on (an end already past stays past: set a poll's end by starting a new one). */
  async setClosed(topicId: number, user: AuthUser, closed: boolean): Promise<PollView> {
    const { topic, stored } = await this.#stored(topicId, user);
    this.#assertManages(topic, user);
    if ((stored.poll.closed_at !== null) !== closed) {
      await this.#repository.transaction(async (trx) => {
        const at = isoNow(this.#clock);
        await this.#repository.setClosed(stored.poll.id, closed ? at : null, trx);
        await this.#logged(topic, user, closed ? 'close_poll' : 'reopen_poll', at, trx);
      });
    }
    return this.#current(topic, user);
  }

  async delete(topicId: number, user: AuthUser): Promise<void> {
    const { topic, stored } = await this.#stored(topicId, user);
    this.#assertManages(topic, user);
    await this.#repository.transaction(async (trx) => {
      await this.#repository.delete(stored.poll.id, trx);
      await this.#logged(topic, user, 'delete_poll', isoNow(this.#clock), trx);
    });
  }

  /** The poll of a topic this member may read, as stored and as they see it (404 as for an unknown topic, or without one). */
  async #stored(topicId: number, user: AuthUser): Promise<{ topic: TopicWithAuthor; stored: StoredPoll; view: PollView }> {
    const topic = await this.#topics.get(topicId, user);
    const standing = await this.#repository.standing(topic.id);
    if (standing === undefined) throw new ModelNotFoundError('Poll', topicId);
    return { topic, stored: standing.stored, view: await this.#view(standing.stored, topic, user, standing.counts) };
  }

  /** The poll as it stands now (after a vote), as this reader sees it. */
  async #current(topic: TopicWithAuthor, viewer: AuthUser): Promise<PollView> {
    const view = await this.of(topic, viewer);
    if (view === null) throw new ModelNotFoundError('Poll', topic.id);
    return view;
  }

  async #permissions(user: AuthUser | null, forumId: number): Promise<{ vote: boolean }> {
    return { vote: user !== null && (await this.#access.of(user)).may(forumId, 'vote') };
  }

  #assertMayVote(view: PollView, topic: TopicWithAuthor, user: AuthUser, rights: { vote: boolean }): void {
    if (!rights.vote) throw new ApiError('FORBIDDEN', t('poll.vote_needed'));
    if (topic.locked && !moderates(user, topic.forum_id)) throw new ApiError('FORBIDDEN', t('poll.topic_locked'));
    if (!view.open) throw new ApiError('FORBIDDEN', t('poll.ended'));
  }

  #assertManages(topic: TopicWithAuthor, user: AuthUser): void {
    if (!moderates(user, topic.forum_id) && topic.author_id !== user.id) throw new ApiError('FORBIDDEN', t('access.author_or_moderator'));
  }

  /** A moderator's act on someone else's poll is logged; an author's on their own is not moderation. */
  async #logged(
    topic: TopicWithAuthor,
    user: AuthUser,
    action: 'close_poll' | 'reopen_poll' | 'delete_poll',
    at: string,
    trx: Parameters<ModerationLog['record']>[2],
  ) {
    if (topic.author_id === user.id || !moderates(user, topic.forum_id)) return;
    await this.#log.record({ actorId: user.id, action, forumId: topic.forum_id, topicId: topic.id, subject: topic.title }, at, trx);
  }

  /** The poll as this reader sees it, from what was read of it (PollRepository.standing). */
  async #view(stored: StoredPoll, topic: TopicWithAuthor, viewer: AuthUser | null, counts: PollCounts): Promise<PollView> {
    const { poll } = stored;
    const now = this.#clock.now().getTime();
    const ended = poll.closed_at !== null || (poll.ends_at !== null && new Date(poll.ends_at).getTime() <= now);
    const [myChoices, rights] = await Promise.all([
      viewer === null ? null : this.#repository.ballotOf(poll.id, viewer.id),
      this.#permissions(viewer, topic.forum_id),
    ]);
    const moderator = moderates(viewer, topic.forum_id);
    const resultsShown = moderator || ended || poll.results === 'always' || (poll.results === 'after_vote' && myChoices !== null);
    const mayVote = viewer !== null && rights.vote && !ended && (!topic.locked || moderator);
    const allowChange = Boolean(poll.allow_change);
    return {
      id: poll.id,
      topicId: topic.id,
      question: poll.question,
      maxChoices: poll.max_choices,
      results: poll.results,
      allowChange,
      endsAt: poll.ends_at,
      closedAt: poll.closed_at,
      createdAt: poll.created_at,
      open: !ended,
      voters: counts.voters,
      resultsShown,
      options: stored.options.map((option) => ({
        id: option.id,
        position: option.position,
        text: option.text,
        votes: resultsShown ? (counts.votes.get(option.id) ?? 0) : null,
      })),
      myChoices,
      may: {
        vote: mayVote && myChoices === null,
        change: mayVote && myChoices !== null && allowChange,
        manage: viewer !== null && (moderator || topic.author_id === viewer.id),
      },
    };
  }
}
