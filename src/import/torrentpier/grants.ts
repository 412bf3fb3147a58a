// bb_auth_access → forum_grants (docs/access.md). Each entry grants a group
// some actions in one forum (forum_perm: bit n set = permission n granted) and,
// with the AUTH_MOD bit, the moderation of that forum. A real group's entry
// becomes a grant to that group, so its later members hold it too, as
// upstream; a personal group's (group_single_user = 1: one member's own
// permissions) a grant to that member. Upstream counts only accepted members
// (bb_auth_access_snap is built from user_pending = 0), and so does the rule
// here (group_members.status = 'accepted').
//
// Grants only ever add: a level of `private` lets through whoever holds the
// action, a grant's `moderate` whoever moderates, and nothing takes a right
// away. So an entry that cannot move (its forum, group or member is gone) is
// skipped, and that leaves its forum closed to the holder, never open.
//
// Read before the users: who moderates forums is in their role's note (users.ts).
import type mysql from 'mysql2/promise';
import { ACCESS_ACTIONS, actionMask, type AccessAction } from '../../forum/permissions.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';

/** forum_perm's bit of each action (library/includes/init_bb.php AUTH_VIEW … AUTH_DOWNLOAD; `1 << bit`). */
export const PERM_BITS: Readonly<Record<AccessAction, number>> = {
  view: 1,
  read: 2,
  post: 4,
  reply: 5,
  edit: 6,
  delete: 7,
  pin: 8,
  announce: 9,
  vote: 10,
  poll_create: 11,
  upload: 12,
  download: 13,
};

/** forum_perm bit 3, AUTH_MOD: the group's members moderate the forum. */
export const AUTH_MOD = 1 << 3;

const KNOWN_BITS = ACCESS_ACTIONS.reduce((bits, action) => bits | (1 << PERM_BITS[action]), AUTH_MOD);

/** What a forum_perm grants here: the actions' mask (permissions.ts bit order), moderation, and whether it held bits that name nothing. */
export function permissionsOf(forumPerm: number): { actions: number; moderate: boolean; unknownBits: boolean } {
  return {
    actions: actionMask(ACCESS_ACTIONS.filter((action) => (forumPerm & (1 << PERM_BITS[action])) !== 0)),
    moderate: (forumPerm & AUTH_MOD) !== 0,
    unknownBits: (forumPerm & ~KNOWN_BITS) !== 0,
  };
}

/**
 * A 0/1 flag that only an explicit 0 clears (user_pending, group_single_user):
 * read with int(), a value that is no number would be 0 and make a request an
 * accepted member, or a personal group a real one whose later members gain
 * its grants.
 */
export function flagSet(value: unknown): boolean {
  return !(value === 0 || value === '0');
}

export interface UpstreamAuthEntry {
  group_id: number;
  forum_id: number;
  forum_perm: number;
}

/** What mapping an entry needs to know of the upstream, read once. */
export interface UpstreamAccess {
  /** Every group: whether it is a member's personal one (group_single_user = 1). */
  personal: ReadonlyMap<number, boolean>;
  /** The members of personal groups, by group. */
  personalMembers: ReadonlyMap<number, readonly { userId: number; pending: boolean }[]>;
  /** Every upstream forum. */
  forums: ReadonlySet<number>;
}

/** A grant to one holder: a group or a member, never both. */
export interface GrantRow {
  forum_id: number;
  group_id: number | null;
  user_id: number | null;
  actions: number;
  moderate: boolean;
}

/** One entry as the grants it makes (one for a group, one per accepted member of a personal group), or why it stays behind. */
export function mapAuthEntry(entry: UpstreamAuthEntry, upstream: UpstreamAccess): Mapped<GrantRow[]> {
  const { actions, moderate, unknownBits } = permissionsOf(entry.forum_perm);
  if (actions === 0 && !moderate) return skip('grants nothing: no permission bit is set');
  if (!upstream.forums.has(entry.forum_id)) return skip('the forum does not exist upstream');
  const personal = upstream.personal.get(entry.group_id);
  if (personal === undefined) return skip('the group does not exist upstream');
  const notes = unknownBits ? ['forum_perm bits that name no permission (bit 0, bits 14 and up) dropped'] : [];
  if (!personal) return keep([{ forum_id: entry.forum_id, group_id: entry.group_id, user_id: null, actions, moderate }], notes);
  const members = (upstream.personalMembers.get(entry.group_id) ?? []).filter((member) => !member.pending);
  if (members.length === 0) return skip('the personal group has no accepted member (upstream grants a pending one nothing)');
  if (members.length > 1) notes.push('a personal group of several members: each gets the grant');
  return keep(
    members.map((member) => ({ forum_id: entry.forum_id, group_id: null, user_id: member.userId, actions, moderate })),
    notes,
  );
}

/** Every upstream group as the access import needs it (bb_groups, read whole: groups are few). */
export interface UpstreamGroup {
  group_id: number;
  group_type: number;
  group_name: string;
  group_description: string;
  group_moderator: number;
  group_single_user: number;
  group_time: number;
  mod_time: number;
}

/** The entries, what each grants, the groups, and who moderates: read before anything is written. */
export interface AccessPlan {
  groups: readonly UpstreamGroup[];
  entries: Array<{ entry: UpstreamAuthEntry; mapped: Mapped<GrantRow[]> }>;
  /** Real groups some entry grants something (a leader added to one would gain it: groups.ts). */
  grantHolders: ReadonlySet<number>;
  /** Every user some entry makes a forum moderator, through a personal or a real group (upstream ids). */
  moderators: ReadonlySet<number>;
}

export async function readAccess(ctx: ImportContext): Promise<AccessPlan> {
  const { source } = ctx;
  const [groupRows] = await source.query<mysql.RowDataPacket[]>(
    'SELECT group_id, group_type, group_name, group_description, group_moderator, group_single_user, group_time, mod_time FROM bb_groups ORDER BY group_id',
  );
  const [personalRows] = await source.query<mysql.RowDataPacket[]>(
    'SELECT ug.group_id, ug.user_id, ug.user_pending FROM bb_user_group ug JOIN bb_groups g ON g.group_id = ug.group_id AND g.group_single_user = 1 ORDER BY ug.group_id, ug.user_id',
  );
  const [entryRows] = await source.query<mysql.RowDataPacket[]>('SELECT group_id, forum_id, forum_perm FROM bb_auth_access ORDER BY group_id, forum_id');
  const [forumRows] = await source.query<mysql.RowDataPacket[]>('SELECT forum_id FROM bb_forums');
  // Accepted members of real groups that moderate a forum that exists.
  const [groupModeratorRows] = await source.query<mysql.RowDataPacket[]>(
    `SELECT DISTINCT ug.user_id FROM bb_user_group ug
       JOIN bb_groups g ON g.group_id = ug.group_id AND g.group_single_user = 0
       JOIN bb_auth_access aa ON aa.group_id = ug.group_id AND (aa.forum_perm & ${AUTH_MOD}) <> 0
       JOIN bb_forums f ON f.forum_id = aa.forum_id
     WHERE ug.user_pending = 0`,
  );
  const groups = groupRows.map((row) => ({
    group_id: int(row['group_id']),
    group_type: Number(row['group_type'] ?? Number.NaN),
    group_name: String(row['group_name'] ?? ''),
    group_description: String(row['group_description'] ?? ''),
    group_moderator: int(row['group_moderator']),
    group_single_user: flagSet(row['group_single_user']) ? 1 : 0,
    group_time: int(row['group_time']),
    mod_time: int(row['mod_time']),
  }));
  const personalMembers = new Map<number, { userId: number; pending: boolean }[]>();
  for (const row of personalRows) {
    const list = personalMembers.get(int(row['group_id'])) ?? [];
    list.push({ userId: int(row['user_id']), pending: flagSet(row['user_pending']) });
    personalMembers.set(int(row['group_id']), list);
  }
  const upstream: UpstreamAccess = {
    personal: new Map(groups.map((group) => [group.group_id, group.group_single_user === 1])),
    personalMembers,
    forums: new Set(forumRows.map((row) => int(row['forum_id']))),
  };
  const entries = entryRows.map((row) => {
    const entry = { group_id: int(row['group_id']), forum_id: int(row['forum_id']), forum_perm: int(row['forum_perm']) };
    return { entry, mapped: mapAuthEntry(entry, upstream) };
  });
  const grantHolders = new Set<number>();
  const moderators = new Set(groupModeratorRows.map((row) => int(row['user_id'])));
  for (const { mapped } of entries) {
    if (!mapped.ok) continue;
    for (const row of mapped.row) {
      if (row.group_id !== null) grantHolders.add(row.group_id);
      if (row.user_id !== null && row.moderate) moderators.add(row.user_id);
    }
  }
  return { groups, entries, grantHolders, moderators };
}

/** Writes the grants of the entries read, for the forums, groups and members that were imported; one per holder and forum. */
export async function importGrants(ctx: ImportContext, plan: AccessPlan): Promise<void> {
  const { report } = ctx;
  report.table('bb_auth_access');
  ctx.progress.start('bb_auth_access', plan.entries.length);
  const rows = new Map<string, GrantRow>();
  for (const { entry, mapped } of plan.entries) {
    const id = `${entry.group_id}/${entry.forum_id}`;
    report.read('bb_auth_access');
    if (!mapped.ok) {
      report.skipped('bb_auth_access', mapped.reason, id);
      continue;
    }
    if (!ctx.imported.forums.has(entry.forum_id)) {
      report.skipped('bb_auth_access', 'the forum was not imported', id);
      continue;
    }
    const personal = mapped.row[0]!.user_id !== null;
    if (!personal && !ctx.imported.groups.has(entry.group_id)) {
      report.skipped('bb_auth_access', 'the group was not imported', id);
      continue;
    }
    const kept = mapped.row.filter((row) => row.user_id === null || ctx.imported.users.has(row.user_id));
    if (kept.length === 0) {
      report.skipped('bb_auth_access', "the personal group's member was not imported", id);
      continue;
    }
    if (kept.length < mapped.row.length) report.note('bb_auth_access', "some of the personal group's members were not imported: the others hold the grant", id);
    for (const note of mapped.notes) report.note('bb_auth_access', note, id);
    for (const row of kept) {
      const key = row.user_id !== null ? `u${row.user_id}/${row.forum_id}` : `g${row.group_id}/${row.forum_id}`;
      const earlier = rows.get(key);
      if (earlier === undefined) {
        rows.set(key, { ...row });
        continue;
      }
      // A member with two personal groups holding the same forum: upstream ORs them (bb_auth_access_snap's BIT_OR).
      earlier.actions |= row.actions;
      earlier.moderate ||= row.moderate;
      report.note('bb_auth_access', 'the same member and forum as an earlier entry: merged into one grant (upstream ORs them)', id);
    }
    report.imported('bb_auth_access');
  }
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks([...rows.values()], 1000)) await trx.insertInto('forum_grants').values(part).execute();
  });
  ctx.progress.advance(plan.entries.length);
  ctx.progress.finish();
}
