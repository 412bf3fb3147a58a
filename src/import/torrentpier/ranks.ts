// bb_ranks → ranks (same ids), and bb_users.user_rank → each member's special
// rank (docs/members.md, "Ranks"). Upstream every rank is special: an admin
// gives it (user_rank); there is no rank by post count. The title is decoded
// like other names; rank_image is a file of the old installation (`styles/…`
// or `assets/images/ranks/…`), which does not move: the rank comes without
// its image (noted), and an admin sets one on /admin/ranks/. rank_style (a
// CSS class of the old theme) has no equivalent.
import type { Insertable } from 'kysely';
import type mysql from 'mysql2/promise';
import type { RanksTable } from '../../db/schema.ts';
import { chunks, int, type ImportContext } from './context.ts';
import { decodeEntities } from './text.ts';

export async function importRanks(ctx: ImportContext): Promise<void> {
  const { report, source } = ctx;
  report.table('bb_ranks');
  const [rows] = await source.query<mysql.RowDataPacket[]>('SELECT rank_id, rank_title, rank_image FROM bb_ranks ORDER BY rank_id');
  const imported = new Set<number>();
  const values: Insertable<RanksTable>[] = [];
  for (const row of rows) {
    report.read('bb_ranks');
    const id = int(row['rank_id']);
    const title =
      decodeEntities(String(row['rank_title'] ?? ''))
        .trim()
        .slice(0, 50) || `Rank ${id}`;
    if (String(row['rank_image'] ?? '').trim() !== '')
      report.note('bb_ranks', "the rank's image is a file of the old installation: set it again on /admin/ranks/", id);
    values.push({ id, title, min_posts: null, image_url: null, created_at: ctx.now, updated_at: ctx.now });
    imported.add(id);
  }
  if (values.length > 0) {
    await ctx.target.db.transaction().execute(async (trx) => {
      // Ids are kept; PostgreSQL's sequences are moved past them at the end of the import.
      for (const part of chunks(values, 500)) await trx.insertInto('ranks').values(part).execute();
    });
  }
  report.imported('bb_ranks', values.length);

  // Members' special ranks: those of imported members whose rank came too.
  const [holders] = await source.query<mysql.RowDataPacket[]>('SELECT user_id, user_rank FROM bb_users WHERE user_rank > 0');
  const given: Array<{ userId: number; rankId: number }> = [];
  for (const holder of holders) {
    const userId = int(holder['user_id']);
    const rankId = int(holder['user_rank']);
    if (!ctx.imported.users.has(userId)) continue;
    if (imported.has(rankId)) given.push({ userId, rankId });
    else report.note('bb_ranks', `member ${userId} held rank ${rankId}, which does not exist upstream: they show their earned rank`, rankId);
  }
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const [rankId, holding] of Map.groupBy(given, (holder) => holder.rankId))
      for (const part of chunks(holding, 500))
        await trx
          .updateTable('users')
          .set({ rank_id: rankId })
          .where(
            'id',
            'in',
            part.map((holder) => holder.userId),
          )
          .execute();
  });
}
