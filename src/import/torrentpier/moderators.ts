// bb_auth_access (with bb_groups and bb_user_group) → forum_moderators.
// TorrentPier grants moderation per forum: an entry of bb_auth_access with
// the AUTH_MOD bit gives it to a group, either a member's hidden personal
// group (group_single_user = 1) or a real group, and every accepted member of
// that group (user_pending = 0) moderates that forum, and only it (a
// subforum has entries of its own). Here each such member becomes one of the
// forum's moderators; a real group's later members are not (groups do not
// move). The other permission bits have no equivalent: forums are open to all.
//
// Read before the users, since who moderates forums decides their role
// (users.ts `roleOf`); written after the forums.
import type mysql from 'mysql2/promise';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';

/** bb_auth_access.forum_perm bit 3, AUTH_MOD (`functions.php`: `1 << bit`). */
export const AUTH_MOD = 1 << 3;

export interface UpstreamAuthEntry {
  group_id: number;
  forum_id: number;
  forum_perm: number;
}

/** What an entry's expansion needs to know of the upstream, read once. */
export interface UpstreamGroups {
  /** Groups that hold a moderation entry: whether each is a personal one (group_single_user). */
  personal: ReadonlyMap<number, boolean>;
  /** Their accepted members (user_pending = 0). */
  members: ReadonlyMap<number, readonly number[]>;
  /** Every upstream forum. */
  forums: ReadonlySet<number>;
}

export interface ModeratorRow {
  forum_id: number;
  user_id: number;
}

/** One entry as the forum moderators it makes: the group's accepted members, each a moderator of the entry's forum. */
export function mapAuthEntry(entry: UpstreamAuthEntry, upstream: UpstreamGroups): Mapped<ModeratorRow[]> {
  if ((entry.forum_perm & AUTH_MOD) === 0) return skip('grants no moderation: the service has no other per-forum permissions (forums are open to all)');
  if (!upstream.forums.has(entry.forum_id)) return skip('the forum does not exist upstream');
  const personal = upstream.personal.get(entry.group_id);
  if (personal === undefined) return skip('the group does not exist upstream');
  const members = upstream.members.get(entry.group_id) ?? [];
  if (members.length === 0) return skip('the group has no accepted members (pending requests do not count)');
  const rows = members.map((userId) => ({ forum_id: entry.forum_id, user_id: userId }));
  return keep(rows, personal ? [] : ["a group's moderation: each of its members moderates the forum (the group itself does not move)"]);
}

/** The moderation entries and what they grant, before anything is written. */
export interface ForumModeration {
  entries: Array<{ entry: UpstreamAuthEntry; mapped: Mapped<ModeratorRow[]> }>;
  /** Every user some entry makes a forum moderator (upstream ids). */
  moderators: ReadonlySet<number>;
}

/** Reads bb_auth_access and the groups and memberships its moderation entries name. */
export async function readForumModeration(ctx: ImportContext): Promise<ForumModeration> {
  const { source } = ctx;
  const modGroups = `SELECT group_id FROM bb_auth_access WHERE (forum_perm & ${AUTH_MOD}) <> 0`;
  const [entryRows] = await source.query<mysql.RowDataPacket[]>('SELECT group_id, forum_id, forum_perm FROM bb_auth_access ORDER BY group_id, forum_id');
  const [groupRows] = await source.query<mysql.RowDataPacket[]>(`SELECT group_id, group_single_user FROM bb_groups WHERE group_id IN (${modGroups})`);
  const [memberRows] = await source.query<mysql.RowDataPacket[]>(
    `SELECT group_id, user_id FROM bb_user_group WHERE user_pending = 0 AND group_id IN (${modGroups}) ORDER BY group_id, user_id`,
  );
  const [forumRows] = await source.query<mysql.RowDataPacket[]>('SELECT forum_id FROM bb_forums');
  const members = new Map<number, number[]>();
  for (const row of memberRows) {
    const list = members.get(int(row['group_id'])) ?? [];
    list.push(int(row['user_id']));
    members.set(int(row['group_id']), list);
  }
  const upstream: UpstreamGroups = {
    personal: new Map(groupRows.map((row) => [int(row['group_id']), int(row['group_single_user']) === 1])),
    members,
    forums: new Set(forumRows.map((row) => int(row['forum_id']))),
  };
  const entries = entryRows.map((row) => {
    const entry = { group_id: int(row['group_id']), forum_id: int(row['forum_id']), forum_perm: int(row['forum_perm']) };
    return { entry, mapped: mapAuthEntry(entry, upstream) };
  });
  const moderators = new Set(entries.flatMap(({ mapped }) => (mapped.ok ? mapped.row.map((row) => row.user_id) : [])));
  return { entries, moderators };
}

/** Writes the forum moderators of the entries read, for the users and forums that were imported; once per forum and member. */
export async function importForumModerators(ctx: ImportContext, moderation: ForumModeration): Promise<void> {
  const { report } = ctx;
  report.table('bb_auth_access');
  ctx.progress.start('bb_auth_access', moderation.entries.length);
  const rows = new Map<string, ModeratorRow>();
  for (const { entry, mapped } of moderation.entries) {
    const id = `${entry.group_id}/${entry.forum_id}`;
    report.read('bb_auth_access');
    if (!mapped.ok) {
      report.skipped('bb_auth_access', mapped.reason, id);
      continue;
    }
    const kept = mapped.row.filter((row) => ctx.imported.users.has(row.user_id) && ctx.imported.forums.has(row.forum_id));
    if (kept.length === 0) {
      report.skipped('bb_auth_access', "none of the group's members was imported", id);
      continue;
    }
    if (kept.length < mapped.row.length) report.note('bb_auth_access', "some of the group's members were not imported: the others moderate the forum", id);
    for (const note of mapped.notes) report.note('bb_auth_access', note, id);
    for (const row of kept) rows.set(`${row.forum_id}/${row.user_id}`, row);
    report.imported('bb_auth_access');
  }
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks([...rows.values()], 1000))
      await trx
        .insertInto('forum_grants')
        .values(part.map((row) => ({ ...row, group_id: null, actions: 0, moderate: true })))
        .execute();
  });
  ctx.progress.advance(moderation.entries.length);
  ctx.progress.finish();
}
