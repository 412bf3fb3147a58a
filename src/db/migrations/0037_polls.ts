// Polls in topics (docs/polls.md), TorrentPier's bb_vote_desc / bb_poll_votes
// family done with one row per choice: a topic holds at most one poll; a
// member's ballot is one row (the primary key is what makes one vote per
// member a rule of the database, whatever the requests race), and each option
// they chose one row under it. Counts are read from the choices, so no
// counter can drift; an imported poll keeps TorrentPier's totals in
// `imported_votes` (upstream recorded who voted, not for what), and its voters
// are ballots without choices. Deleting a member takes their ballot with them.
// The moderation log takes the poll's close, reopen and delete.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';
import { LOG_ACTIONS, widenModerationLog } from './0029_forum_access.ts';

const POLL_RESULTS = ['always', 'after_vote', 'after_end'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  await db.schema
    .createTable('polls')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('topic_id', 'integer', (c) => c.notNull().unique().references('topics.id').onDelete('cascade'))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('max_choices', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql<boolean>`max_choices >= 1`),
    )
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('after_vote').check(oneOfCheck('results', POLL_RESULTS)))
    .addColumn('allow_change', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ends_at', ts)
    .addColumn('closed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('poll_options')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('imported_votes', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('poll_options_position', ['poll_id', 'position'])
    .execute();
  await db.schema
    .createTable('poll_ballots')
    .addColumn('poll_id', 'integer', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('voted_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_ballots_pk', ['poll_id', 'user_id'])
    .execute();
  await db.schema.createIndex('poll_ballots_user').on('poll_ballots').column('user_id').execute();
  await db.schema
    .createTable('poll_choices')
    .addColumn('poll_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('option_id', 'integer', (c) => c.notNull().references('poll_options.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('poll_choices_pk', ['poll_id', 'user_id', 'option_id'])
    .addForeignKeyConstraint('poll_choices_ballot', ['poll_id', 'user_id'], 'poll_ballots', ['poll_id', 'user_id'], (c) => c.onDelete('cascade'))
    .execute();
  // The counts of a poll's options: an index-only read of its choices.
  await db.schema.createIndex('poll_choices_counts').on('poll_choices').columns(['poll_id', 'option_id']).execute();

  await widenModerationLog(db, [...LOG_ACTIONS, 'announce', 'unannounce', 'close_poll', 'reopen_poll', 'delete_poll']);
}
