// bb_categories and bb_forums → categories and forums (same ids). Categories
// keep their title and cat_order. Forums are numbered in the order the
// upstream index shows them (categories by cat_order, forums by forum_order
// inside each, ties by id), which is also their order inside each category.
// Subforums (forum_parent) stay subforums, one level deep as upstream; a
// parent that is missing upstream leaves its subforum at the top level. A
// top-level forum is in its cat_id's category; a subforum is listed in its
// parent's, as upstream keeps it (docs/access.md). Counters are recounted
// after the posts (see posts.ts).
//
// Each forum's auth_* columns become its levels (docs/access.md): TorrentPier's
// 0, 1, 2, 3, 5 are all, members, private, moderators, admins. Upstream's
// auth() lets nobody through a value it does not know, admins neither; the
// closest here is `admins` (admins may do everything everywhere), and each such
// value is reported: never a forum more open than it was. A locked forum
// (forum_status 1) let only its moderators post, reply, edit or delete
// (posting.php); there is no lock here, so those levels (and upload, which
// comes with posting) are raised to `moderators`.
import type mysql from 'mysql2/promise';
import type { Insertable } from 'kysely';
import type { AccessLevel, CategoriesTable, ForumsTable } from '../../db/schema.ts';
import { ACCESS_ACTIONS, ACCESS_LEVELS, type AccessAction, type ForumLevels } from '../../forum/permissions.ts';
import { hasVisibleCharacter } from '../../http/validation.ts';
import { chunks, int, type ImportContext } from './context.ts';
import { decodeEntities } from './text.ts';

export interface UpstreamCategory {
  cat_id: number;
  cat_title: string;
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

/** Each action's bb_forums column (TorrentPier's names: sticky is pin, pollcreate poll_create, attachments upload). */
export const AUTH_COLUMNS: Readonly<Record<AccessAction, string>> = {
  view: 'auth_view',
  read: 'auth_read',
  post: 'auth_post',
  reply: 'auth_reply',
  edit: 'auth_edit',
  delete: 'auth_delete',
  pin: 'auth_sticky',
  announce: 'auth_announce',
  vote: 'auth_vote',
  poll_create: 'auth_pollcreate',
  upload: 'auth_attachments',
  download: 'auth_download',
};

/** AUTH_ALL 0, AUTH_REG 1, AUTH_ACL 2, AUTH_MOD 3, AUTH_ADMIN 5 (library/includes/init_bb.php); there is no 4. */
export const LEVEL_BY_CODE: ReadonlyMap<number, AccessLevel> = new Map([
  [0, 'all'],
  [1, 'members'],
  [2, 'private'],
  [3, 'moderators'],
  [5, 'admins'],
]);

/** What a locked forum let only its moderators do (posting.php refuses the rest with FORUM_LOCKED). */
export const LOCKED_ACTIONS: readonly AccessAction[] = ['post', 'reply', 'edit', 'delete', 'upload'];

/** Who passes a level passes every level before it in ACCESS_LEVELS: its index is how closed it is. */
function closedness(level: AccessLevel): number {
  return ACCESS_LEVELS.indexOf(level);
}

/** One forum's auth_* values (by action) as its levels, with a note for each value that is no level and for a lock. */
export function mapForumLevels(codes: Readonly<Record<AccessAction, number>>, locked = false): { levels: ForumLevels; notes: string[] } {
  const notes: string[] = [];
  const levels = {} as ForumLevels;
  for (const action of ACCESS_ACTIONS) {
    const level = LEVEL_BY_CODE.get(codes[action]);
    if (level !== undefined) {
      levels[action] = level;
      continue;
    }
    levels[action] = 'admins';
    notes.push(`${AUTH_COLUMNS[action]} = ${codes[action]} is no TorrentPier level (upstream lets nobody through, admins neither): admins only`);
  }
  if (locked) {
    for (const action of LOCKED_ACTIONS) if (closedness(levels[action]) < closedness('moderators')) levels[action] = 'moderators';
    notes.push('locked upstream: only its moderators posted, replied, edited or deleted there; post, reply, edit, delete and upload raised to moderators');
  }
  return { levels, notes };
}

/** An auth_* value as a number; not int(), which reads anything that is no number as 0, everyone: NaN instead, no level. */
function levelCode(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
}

/** The forums table's level columns holding these levels. */
export function levelColumns(levels: ForumLevels): { [K in `level_${AccessAction}`]: AccessLevel } {
  return Object.fromEntries(ACCESS_ACTIONS.map((action) => [`level_${action}`, levels[action]])) as { [K in `level_${AccessAction}`]: AccessLevel };
}

/** A category as it arrives, with what changed on the way (a title it had to be given). */
export function mapCategory(category: UpstreamCategory, now: string): { row: Insertable<CategoriesTable> & { id: number }; notes: string[] } {
  const title = decodeEntities(category.cat_title);
  // The service's titles need a visible character, as the API's do.
  const blank = !hasVisibleCharacter(title);
  return {
    row: { id: category.cat_id, title: blank ? `Category ${category.cat_id}` : title, display_order: category.cat_order, created_at: now, updated_at: now },
    notes: blank ? [`its title is empty upstream: named “Category ${category.cat_id}”`] : [],
  };
}

/**
 * The forums in the upstream index's order, each with its display_order and
 * category: its cat_id's for a top-level forum (none when that category is
 * missing), none for a subforum (`parents`: it is listed in its parent's).
 * Forums of a missing category come last.
 */
export function orderForums(
  categories: readonly Pick<UpstreamCategory, 'cat_id' | 'cat_order'>[],
  forums: readonly UpstreamForum[],
  parents: ReadonlyMap<number, number>,
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
      category_id: parents.has(forum.forum_id) || !rank.has(forum.cat_id) ? null : forum.cat_id,
      created_at: now,
      updated_at: now,
    }));
}

export async function importForums(ctx: ImportContext): Promise<void> {
  const { report } = ctx;
  const [catRows] = await ctx.source.query<mysql.RowDataPacket[]>('SELECT cat_id, cat_title, cat_order FROM bb_categories ORDER BY cat_id');
  const [forumRows] = await ctx.source.query<mysql.RowDataPacket[]>(
    `SELECT forum_id, cat_id, forum_name, forum_desc, forum_order, forum_status, forum_parent, ${Object.values(AUTH_COLUMNS).join(', ')} FROM bb_forums ORDER BY forum_id`,
  );
  const categories = catRows.map((row) => ({ cat_id: int(row['cat_id']), cat_title: String(row['cat_title'] ?? ''), cat_order: int(row['cat_order']) }));
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
  const categoryRows = categories.map((category) => {
    report.read('bb_categories');
    const { row, notes } = mapCategory(category, ctx.now);
    for (const note of notes) report.note('bb_categories', note, category.cat_id);
    return row;
  });
  report.table('bb_forums');
  const levels = new Map<number, ForumLevels>();
  for (const row of forumRows) {
    const forumId = int(row['forum_id']);
    const codes = Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, levelCode(row[AUTH_COLUMNS[action]])])) as Record<AccessAction, number>;
    const mapped = mapForumLevels(codes, int(row['forum_status']) === 1);
    levels.set(forumId, mapped.levels);
    for (const note of mapped.notes) report.note('bb_forums', note, forumId);
  }
  const parents = parentsOf(forums, (forumId, reason) => report.note('bb_forums', reason, forumId));
  const known = new Set(categories.map((c) => c.cat_id));
  const byId = new Map(forums.map((forum) => [forum.forum_id, forum]));
  for (const forum of forums) {
    report.read('bb_forums');
    const parent = parents.get(forum.forum_id);
    if (parent === undefined && !known.has(forum.cat_id)) {
      report.note('bb_forums', 'its category does not exist upstream: listed under “Other forums”', forum.forum_id);
    }
    if (parent !== undefined && byId.get(parent)!.cat_id !== forum.cat_id) {
      report.note('bb_forums', "in another category than its parent forum upstream: listed with its parent, in the parent's category", forum.forum_id);
    }
  }
  const rows = orderForums(categories, forums, parents, ctx.now).map((row) => ({ ...row, ...levelColumns(levels.get(row.id)!) }));
  ctx.progress.start('bb_forums', rows.length);
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks(categoryRows, 500)) await trx.insertInto('categories').values(part).execute();
    for (const part of chunks(rows, 500)) await trx.insertInto('forums').values(part).execute();
    // Every forum exists by now, so each subforum's reference holds whatever the order of the rows.
    for (const [forumId, parentId] of parents) await trx.updateTable('forums').set({ parent_id: parentId }).where('id', '=', forumId).execute();
  });
  for (let i = 0; i < categoryRows.length; i++) report.imported('bb_categories');
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
