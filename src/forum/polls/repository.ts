// The polls' SQL (migration 0037): a topic's poll with its options, the
// counts read from the choices, a member's ballot, and the writes, each
// multi-row write in one transaction.
import type { Compilable, Kysely, Selectable, Transaction } from 'kysely';
import { prepare, type PreparedQuery } from '../../db/prepared.ts';
import type { Database, PollOptionsTable, PollsTable } from '../../db/schema.ts';
import type { PollDefinition } from './definition.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type PollRow = Selectable<PollsTable>;
export type PollOptionRow = Selectable<PollOptionsTable>;

export interface StoredPoll {
  poll: PollRow;
  /** In the order shown. */
  options: PollOptionRow[];
}

/** How a poll stands: votes per option (imported totals included) and how many members voted. */
export interface PollCounts {
  votes: Map<number, number>;
  voters: number;
}

/** One row per option of a topic's poll, with the poll's columns and the counts (PollRepository.standing). */
interface StandingRow {
  id: number;
  topic_id: number;
  question: string;
  max_choices: number;
  results: PollRow['results'];
  allow_change: PollRow['allow_change'];
  ends_at: string | null;
  closed_at: string | null;
  created_at: string;
  option_id: number;
  position: number;
  text: string;
  imported_votes: number;
  chosen: number | string;
  voters: number | string;
}

export class PollRepository {
  readonly #db: Kysely<Database>;
  // Read on every view of a topic's first page (with or without a poll): built and compiled once (db/prepared.ts).
  readonly #standing: PreparedQuery<{ topicId: number }, StandingRow>;
  readonly #ballot: PreparedQuery<{ pollId: number; userId: number }, { option_id: number | null }>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
    this.#standing = prepare(
      db,
      (slot) =>
        db
          .selectFrom('polls')
          .innerJoin('poll_options', 'poll_options.poll_id', 'polls.id')
          .select([
            'polls.id',
            'polls.topic_id',
            'polls.question',
            'polls.max_choices',
            'polls.results',
            'polls.allow_change',
            'polls.ends_at',
            'polls.closed_at',
            'polls.created_at',
            'poll_options.id as option_id',
            'poll_options.position',
            'poll_options.text',
            'poll_options.imported_votes',
            (eb) =>
              eb
                .selectFrom('poll_choices')
                .select((inner) => inner.fn.countAll<number | string>().as('n'))
                .whereRef('poll_choices.poll_id', '=', 'polls.id')
                .whereRef('poll_choices.option_id', '=', 'poll_options.id')
                .as('chosen'),
            (eb) =>
              eb
                .selectFrom('poll_ballots')
                .select((inner) => inner.fn.countAll<number | string>().as('n'))
                .whereRef('poll_ballots.poll_id', '=', 'polls.id')
                .as('voters'),
          ])
          .where('polls.topic_id', '=', slot('topicId'))
          .orderBy('poll_options.position') as unknown as Compilable<StandingRow>,
    );
    this.#ballot = prepare(db, (slot) =>
      db
        .selectFrom('poll_ballots')
        .leftJoin('poll_choices', (join) =>
          join.onRef('poll_choices.poll_id', '=', 'poll_ballots.poll_id').onRef('poll_choices.user_id', '=', 'poll_ballots.user_id'),
        )
        .select('poll_choices.option_id')
        .where('poll_ballots.poll_id', '=', slot('pollId'))
        .where('poll_ballots.user_id', '=', slot('userId')),
    );
  }

  /** A topic's poll with its counts, in one read; undefined when it has none. */
  async standing(topicId: number): Promise<{ stored: StoredPoll; counts: PollCounts } | undefined> {
    const rows = await this.#standing({ topicId });
    const first = rows[0];
    if (first === undefined) return undefined;
    const poll: PollRow = {
      id: first.id,
      topic_id: first.topic_id,
      question: first.question,
      max_choices: first.max_choices,
      results: first.results,
      allow_change: first.allow_change,
      ends_at: first.ends_at,
      closed_at: first.closed_at,
      created_at: first.created_at,
    };
    const options = rows.map((row) => ({ id: row.option_id, poll_id: row.id, position: row.position, text: row.text, imported_votes: row.imported_votes }));
    const votes = new Map(rows.map((row) => [row.option_id, row.imported_votes + Number(row.chosen)]));
    return { stored: { poll, options }, counts: { votes, voters: Number(first.voters) } };
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  /** Writes a topic's poll and its options, in the caller's transaction. */
  async insert(db: Db, topicId: number, definition: PollDefinition, at: string): Promise<number> {
    const poll = await db
      .insertInto('polls')
      .values({
        topic_id: topicId,
        question: definition.question,
        max_choices: definition.maxChoices,
        results: definition.results,
        allow_change: definition.allowChange,
        ends_at: definition.endsAt,
        closed_at: null,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('poll_options')
      .values(definition.options.map((text, index) => ({ poll_id: poll.id, position: index + 1, text })))
      .execute();
    return poll.id;
  }

  /** The options a member chose, or null if they have not voted (an imported ballot chose none that are known). */
  async ballotOf(pollId: number, userId: number): Promise<number[] | null> {
    const ballot = await this.#ballot({ pollId, userId });
    if (ballot.length === 0) return null;
    return ballot.flatMap((row) => (row.option_id === null ? [] : [row.option_id])).sort((a, b) => a - b);
  }

  /**
   * A member's ballot with these options. A first ballot is inserted; when one exists it is replaced only if
   * `replace` (the poll lets voters change): its row is updated first, which holds it for this transaction, so two
   * changes by the same member run one after the other. Answers false when a ballot existed and was kept.
   */
  async cast(pollId: number, userId: number, optionIds: readonly number[], replace: boolean, at: string): Promise<boolean> {
    return this.transaction(async (trx) => {
      const inserted = await trx
        .insertInto('poll_ballots')
        .values({ poll_id: pollId, user_id: userId, voted_at: at })
        .onConflict((conflict) => conflict.columns(['poll_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        if (!replace) return false;
        await trx.updateTable('poll_ballots').set({ voted_at: at }).where('poll_id', '=', pollId).where('user_id', '=', userId).execute();
        await trx.deleteFrom('poll_choices').where('poll_id', '=', pollId).where('user_id', '=', userId).execute();
      }
      await trx
        .insertInto('poll_choices')
        .values(optionIds.map((optionId) => ({ poll_id: pollId, user_id: userId, option_id: optionId })))
        .execute();
      return true;
    });
  }

  /** Takes a member's ballot back (its choices go with it); false when they had none. */
  async retract(pollId: number, userId: number): Promise<boolean> {
    const deleted = await this.#db.deleteFrom('poll_ballots').where('poll_id', '=', pollId).where('user_id', '=', userId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  async setClosed(pollId: number, closedAt: string | null, db: Db = this.#db): Promise<void> {
    await db.updateTable('polls').set({ closed_at: closedAt }).where('id', '=', pollId).execute();
  }

  async delete(pollId: number, db: Db = this.#db): Promise<void> {
    await db.deleteFrom('polls').where('id', '=', pollId).execute();
  }
}
