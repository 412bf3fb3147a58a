// bb_poll_votes and bb_poll_users → polls, poll_options, poll_ballots
// (docs/polls.md, docs/migrating-from-torrentpier.md). Upstream a topic's poll
// is its bb_poll_votes rows: vote_id 0 holds the question, 1… the answers
// with their totals (vote_result); bb_poll_users records who voted, not for
// what. So each answer keeps its total as `imported_votes`, and each voter
// becomes a ballot without choices (they cannot vote again, as upstream).
// bb_topics.topic_vote says whether the poll stands: 0 deleted (its rows are
// leftovers, skipped), 1 running, 2 finished (closed here). Upstream a poll
// also stops taking votes poll_max_days after its topic was started (180 by
// default, config/forum.php): that becomes its end. Upstream polls are single
// choice, with results shown to everyone: so are the imported ones.
import type { Insertable } from 'kysely';
import type mysql from 'mysql2/promise';
import type { PollBallotsTable } from '../../db/schema.ts';
import { chunks, int, type ImportContext } from './context.ts';
import { readBatches } from './source.ts';
import { decodeEntities } from './text.ts';

/** TorrentPier's default poll_max_days: a poll takes votes this long after its topic was started. */
export const UPSTREAM_POLL_DAYS = 180;
const DAY_SECONDS = 86_400;

interface UpstreamVote {
  topic_id: number;
  vote_id: number;
  vote_text: string;
  vote_result: number;
}

/** One topic's poll as upstream keeps it, and what becomes of it. */
export interface UpstreamPoll {
  topicId: number;
  /** bb_topics.topic_vote and topic_time (null: no such topic upstream). */
  topic: { vote: number; time: number } | null;
  votes: UpstreamVote[];
}

export type MappedPoll =
  | { ok: true; question: string; options: Array<{ text: string; votes: number }>; endsAt: string; closed: boolean; createdAt: string }
  | { ok: false; reason: string };

export function mapPoll(poll: UpstreamPoll, imported: { has(id: number): boolean }): MappedPoll {
  if (poll.topic === null || !imported.has(poll.topicId)) return { ok: false, reason: "the poll's topic was not imported" };
  if (poll.topic.vote === 0) return { ok: false, reason: 'the poll was deleted upstream (topic_vote 0): its rows are leftovers' };
  const question = poll.votes.find((vote) => vote.vote_id === 0);
  if (question === undefined) return { ok: false, reason: 'the poll has no question (no vote_id 0)' };
  const options = poll.votes
    .filter((vote) => vote.vote_id > 0)
    .sort((a, b) => a.vote_id - b.vote_id)
    .map((vote) => ({ text: decodeEntities(vote.vote_text).trim() || `#${vote.vote_id}`, votes: Math.max(0, vote.vote_result) }));
  if (options.length === 0) return { ok: false, reason: 'the poll has no answers' };
  return {
    ok: true,
    question: decodeEntities(question.vote_text).trim() || '?',
    options,
    endsAt: new Date((poll.topic.time + UPSTREAM_POLL_DAYS * DAY_SECONDS) * 1000).toISOString(),
    closed: poll.topic.vote === 2,
    createdAt: new Date(poll.topic.time * 1000).toISOString(),
  };
}

/** Imports the polls, then their voters. */
export async function importPolls(ctx: ImportContext, totals: { votes: number; voters: number }): Promise<void> {
  const pollOfTopic = await importPollRows(ctx, totals.votes);
  await importVoters(ctx, totals.voters, pollOfTopic);
}

async function importPollRows(ctx: ImportContext, total: number): Promise<Map<number, number>> {
  const { report } = ctx;
  const pollOfTopic = new Map<number, number>();
  report.table('bb_poll_votes');
  ctx.progress.start('bb_poll_votes', total);
  // Rows come in (topic_id, vote_id) order: a topic's rows are together, though a batch may end inside them.
  let pending: UpstreamVote[] = [];
  const write = async (votes: UpstreamVote[]) => {
    const byTopic = Map.groupBy(votes, (vote) => vote.topic_id);
    const topics = await topicsOf(ctx.source, [...byTopic.keys()]);
    for (const [topicId, rows] of byTopic) {
      const mapped = mapPoll({ topicId, topic: topics.get(topicId) ?? null, votes: rows }, ctx.imported.topics);
      if (!mapped.ok) {
        report.skipped('bb_poll_votes', mapped.reason, topicId, rows.length);
        continue;
      }
      const pollId = await ctx.target.db.transaction().execute(async (trx) => {
        const poll = await trx
          .insertInto('polls')
          .values({
            topic_id: topicId,
            question: mapped.question,
            max_choices: 1,
            results: 'always',
            allow_change: false,
            ends_at: mapped.endsAt,
            closed_at: mapped.closed ? ctx.now : null,
            created_at: mapped.createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('poll_options')
          .values(mapped.options.map((option, index) => ({ poll_id: poll.id, position: index + 1, text: option.text, imported_votes: option.votes })))
          .execute();
        return poll.id;
      });
      pollOfTopic.set(topicId, pollId);
      report.imported('bb_poll_votes', rows.length);
    }
  };
  const batches = readBatches(ctx.source, {
    table: 'bb_poll_votes',
    key: ['topic_id', 'vote_id'],
    columns: ['vote_text', 'vote_result'],
    batchSize: ctx.batchSize,
  });
  for await (const batch of batches) {
    for (const raw of batch) {
      report.read('bb_poll_votes');
      pending.push({
        topic_id: int(raw['topic_id']),
        vote_id: int(raw['vote_id']),
        vote_text: String(raw['vote_text'] ?? ''),
        vote_result: int(raw['vote_result']),
      });
    }
    // Everything but the last topic of the batch is whole.
    const lastTopic = pending.at(-1)?.topic_id;
    const whole = pending.filter((vote) => vote.topic_id !== lastTopic);
    pending = pending.filter((vote) => vote.topic_id === lastTopic);
    await write(whole);
    ctx.progress.advance(batch.length);
  }
  await write(pending);
  ctx.progress.finish();
  return pollOfTopic;
}

async function importVoters(ctx: ImportContext, total: number, pollOfTopic: ReadonlyMap<number, number>): Promise<void> {
  const { report } = ctx;
  report.table('bb_poll_users');
  ctx.progress.start('bb_poll_users', total);
  const batches = readBatches(ctx.source, { table: 'bb_poll_users', key: ['topic_id', 'user_id'], columns: ['vote_dt'], batchSize: ctx.batchSize });
  for await (const batch of batches) {
    const rows: Insertable<PollBallotsTable>[] = [];
    for (const raw of batch) {
      report.read('bb_poll_users');
      const topicId = int(raw['topic_id']);
      const userId = int(raw['user_id']);
      const pollId = pollOfTopic.get(topicId);
      if (pollId === undefined) report.skipped('bb_poll_users', 'its poll was not imported', `${topicId}/${userId}`);
      else if (!ctx.imported.users.has(userId)) report.skipped('bb_poll_users', 'the voter was not imported', `${topicId}/${userId}`);
      else {
        const at = int(raw['vote_dt']);
        rows.push({ poll_id: pollId, user_id: userId, voted_at: at > 0 ? new Date(at * 1000).toISOString() : ctx.now });
      }
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, 1000)) await trx.insertInto('poll_ballots').values(part).execute();
    });
    report.imported('bb_poll_users', rows.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
}

/** bb_topics.topic_vote and topic_time of these topics. */
async function topicsOf(source: mysql.Connection, topicIds: readonly number[]): Promise<Map<number, { vote: number; time: number }>> {
  if (topicIds.length === 0) return new Map();
  const [rows] = await source.query<mysql.RowDataPacket[]>('SELECT topic_id, topic_vote, topic_time FROM bb_topics WHERE topic_id IN (?)', [topicIds]);
  return new Map(rows.map((row) => [int(row['topic_id']), { vote: int(row['topic_vote']), time: int(row['topic_time']) }]));
}
