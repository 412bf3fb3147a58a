// bb_thx (TorrentPier 2.4.0-rc1 and later) → thanks: a member's thanks for a
// release topic, at its time. Older databases have no such table: nothing to
// bring. A thanks from a member or for a topic not imported is skipped and
// reported, as upstream kept rows of deleted topics.
import type { Insertable } from 'kysely';
import type { ThanksTable } from '../../db/schema.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readBatches, tableColumns } from './source.ts';
import { unixToIso } from './text.ts';

export function mapThanks(
  row: { topic_id: number; user_id: number; time: number },
  known: { topics: IdSet; users: IdSet },
  now: string,
): Mapped<Insertable<ThanksTable>> {
  if (!known.users.has(row.user_id)) return skip('the thanking user was not imported');
  if (!known.topics.has(row.topic_id)) return skip('the thanked topic was not imported');
  return keep({ topic_id: row.topic_id, user_id: row.user_id, created_at: unixToIso(row.time) ?? now });
}

export async function importThanks(ctx: ImportContext): Promise<void> {
  const columns = await tableColumns(ctx.source, 'bb_thx');
  if (!columns.has('topic_id')) return;
  const { report } = ctx;
  report.table('bb_thx');
  const batches = readBatches(ctx.source, { table: 'bb_thx', key: ['topic_id', 'user_id'], columns: ['time'], batchSize: ctx.batchSize });
  for await (const batch of batches) {
    const rows: Insertable<ThanksTable>[] = [];
    for (const raw of batch) {
      const upstream = { topic_id: int(raw['topic_id']), user_id: int(raw['user_id']), time: int(raw['time']) };
      report.read('bb_thx');
      const mapped = mapThanks(upstream, ctx.imported, ctx.now);
      if (mapped.ok) rows.push(mapped.row);
      else report.skipped('bb_thx', mapped.reason, `${upstream.topic_id}/${upstream.user_id}`);
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, 1000)) await trx.insertInto('thanks').values(part).execute();
    });
    report.imported('bb_thx', rows.length);
  }
}
