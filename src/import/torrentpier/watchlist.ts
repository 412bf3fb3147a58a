// bb_topics_watch → watchlist. Upstream keeps no time for a watch; the
// import's time stands in. notify_status (whether a mail is already pending)
// has no equivalent: every watch here mails on the next reply.
import type { Insertable } from 'kysely';
import type { WatchlistTable } from '../../db/schema.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readBatches } from './source.ts';

export function mapWatch(row: { topic_id: number; user_id: number }, known: { topics: IdSet; users: IdSet }, now: string): Mapped<Insertable<WatchlistTable>> {
  if (!known.users.has(row.user_id)) return skip('the watching user was not imported');
  if (!known.topics.has(row.topic_id)) return skip('the watched topic was not imported');
  return keep({ user_id: row.user_id, topic_id: row.topic_id, created_at: now });
}

export async function importWatchlist(ctx: ImportContext, total: number): Promise<void> {
  const { report } = ctx;
  report.table('bb_topics_watch');
  ctx.progress.start('bb_topics_watch', total);
  const batches = readBatches(ctx.source, { table: 'bb_topics_watch', key: ['topic_id', 'user_id'], columns: [], batchSize: ctx.batchSize });
  for await (const batch of batches) {
    const rows: Insertable<WatchlistTable>[] = [];
    for (const raw of batch) {
      const upstream = { topic_id: int(raw['topic_id']), user_id: int(raw['user_id']) };
      report.read('bb_topics_watch');
      const mapped = mapWatch(upstream, ctx.imported, ctx.now);
      if (mapped.ok) rows.push(mapped.row);
      else report.skipped('bb_topics_watch', mapped.reason, `${upstream.topic_id}/${upstream.user_id}`);
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, 1000)) await trx.insertInto('watchlist').values(part).execute();
    });
    report.imported('bb_topics_watch', rows.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();
}
