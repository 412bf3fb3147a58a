// bb_categories and bb_forums → forums. The service has no categories, so
// the board's order is kept by numbering the forums in the order the
// upstream index shows them: categories by cat_order, forums by forum_order
// inside each (ties by id). Category titles do not move; the report says so.
// Subforums (forum_parent) stay subforums, one level deep as upstream; a
// parent that is missing upstream leaves its subforum at the top level.
// Counters are recounted after the posts (see posts.ts).
import type mysql from 'mysql2/promise';
import type { Insertable } from 'kysely';
import type { ForumsTable } from '../../db/schema.ts';
import { chunks, int, type ImportContext } from './context.ts';
import { decodeEntities } from './text.ts';

export interface UpstreamCategory {
  cat_id: number;
  cat_order: number;
}

export interface UpstreamForum {
  forum_id: number;
  cat_id: number;
  forum_name: string;
  forum_desc: string;
  forum_order: number;
  forum_status: number;
  /** 0: top level. */
  forum_parent: number;
}

/** The forums in the upstream index's order, each with its display_order; forums of a missing category come last. */
export function orderForums(
  categories: readonly UpstreamCategory[],
  forums: readonly UpstreamForum[],
  now: string,
): (Insertable<ForumsTable> & { id: number })[] {
  const rank = new Map([...categories].sort((a, b) => a.cat_order - b.cat_order || a.cat_id - b.cat_id).map((c, index) => [c.cat_id, index] as const));
  const missing = categories.length;
  return [...forums]
    .sort((a, b) => (rank.get(a.cat_id) ?? missing) - (rank.get(b.cat_id) ?? missing) || a.forum_order - b.forum_order || a.forum_id - b.forum_id)
    .map((forum, index) => ({
      id: forum.forum_id,
      name: decodeEntities(forum.forum_name),
      description: decodeEntities(forum.forum_desc),
      display_order: index,
      created_at: now,
      updated_at: now,
    }));
}

export async function importForums(ctx: ImportContext): Promise<void> {
  const { report } = ctx;
  const [catRows] = await ctx.source.query<mysql.RowDataPacket[]>('SELECT cat_id, cat_order FROM bb_categories ORDER BY cat_id');
  const [forumRows] = await ctx.source.query<mysql.RowDataPacket[]>(
    'SELECT forum_id, cat_id, forum_name, forum_desc, forum_order, forum_status, forum_parent FROM bb_forums ORDER BY forum_id',
  );
  const categories = catRows.map((row) => ({ cat_id: int(row['cat_id']), cat_order: int(row['cat_order']) }));
  const forums = forumRows.map((row) => ({
    forum_id: int(row['forum_id']),
    cat_id: int(row['cat_id']),
    forum_name: String(row['forum_name'] ?? ''),
    forum_desc: String(row['forum_desc'] ?? ''),
    forum_order: int(row['forum_order']),
    forum_status: int(row['forum_status']),
    forum_parent: int(row['forum_parent']),
  }));
  report.table('bb_categories');
  for (const category of categories) {
    report.read('bb_categories');
    report.skipped('bb_categories', "the service has no categories: their order is kept in the forums' order", category.cat_id);
  }
  report.table('bb_forums');
  const known = new Set(categories.map((c) => c.cat_id));
  for (const forum of forums) {
    report.read('bb_forums');
    if (!known.has(forum.cat_id)) report.note('bb_forums', 'its category does not exist upstream: listed after the others', forum.forum_id);
    if (forum.forum_status === 1) report.note('bb_forums', 'locked upstream: the service has no locked forums, imported open', forum.forum_id);
  }
  const rows = orderForums(categories, forums, ctx.now);
  const parents = parentsOf(forums, (forumId, reason) => report.note('bb_forums', reason, forumId));
  ctx.progress.start('bb_forums', rows.length);
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks(rows, 500)) await trx.insertInto('forums').values(part).execute();
    // Every forum exists by now, so each subforum's reference holds whatever the order of the rows.
    for (const [forumId, parentId] of parents) await trx.updateTable('forums').set({ parent_id: parentId }).where('id', '=', forumId).execute();
  });
  for (const row of rows) {
    ctx.imported.forums.add(row.id);
    report.imported('bb_forums');
  }
  ctx.progress.advance(rows.length);
  ctx.progress.finish();
}

/** Each subforum's parent: one level deep (a subforum of a subforum goes into the top-level forum above), missing parents dropped. */
export function parentsOf(forums: readonly UpstreamForum[], note: (forumId: number, reason: string) => void): Map<number, number> {
  const byId = new Map(forums.map((forum) => [forum.forum_id, forum]));
  const parents = new Map<number, number>();
  for (const forum of forums) {
    if (forum.forum_parent === 0) continue;
    let parent = byId.get(forum.forum_parent);
    const seen = new Set([forum.forum_id]);
    while (parent !== undefined && parent.forum_parent !== 0 && !seen.has(parent.forum_id)) {
      seen.add(parent.forum_id);
      parent = byId.get(parent.forum_parent);
    }
    if (parent === undefined || parent.forum_parent !== 0) {
      note(forum.forum_id, 'its parent forum does not exist upstream: imported as a top-level forum');
      continue;
    }
    if (parent.forum_id !== forum.forum_parent) note(forum.forum_id, 'nested two levels deep upstream: imported as a subforum of the top-level forum above');
    parents.set(forum.forum_id, parent.forum_id);
  }
  return parents;
}
