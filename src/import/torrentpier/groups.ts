// bb_groups and bb_user_group → user_groups and group_members (docs/access.md),
// same group ids. Only real groups move (group_single_user = 0); a personal
// group is one member's own permissions, and its grants become that member's
// (grants.ts). group_type 0, 1, 2 are open, closed, hidden; any other value
// is reported and made hidden, the most closed. Names are decoded and made
// unique ignoring case (the later group renamed "name (id)", reported).
//
// Memberships: user_pending = 1 is a request (pending), else an accepted
// member; the group's group_moderator is its leader. Upstream always makes the
// leader a member too (admin_groups.php add_user_into_group). A leader who is
// not an accepted member upstream holds none of the group's forum grants
// there, and a leader here is always an accepted member (group_members'
// check): so one is added as the leader only when the group holds no grant,
// which opens nothing; otherwise the group moves without a leader (an admin
// can appoint one), reported.
import type { Insertable } from 'kysely';
import type { GroupMembersTable, GroupType, UserGroupsTable } from '../../db/schema.ts';
import { hasVisibleCharacter } from '../../http/validation.ts';
import { usernameKey } from '../../users/repository.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import { flagSet, type AccessPlan, type UpstreamGroup } from './grants.ts';
import { countRows, readBatches } from './source.ts';
import { decodeEntities, firstTime } from './text.ts';

/** GROUP_OPEN 0, GROUP_CLOSED 1, GROUP_HIDDEN 2 (library/includes/init_bb.php). */
export const GROUP_TYPE_BY_CODE: ReadonlyMap<number, GroupType> = new Map([
  [0, 'open'],
  [1, 'closed'],
  [2, 'hidden'],
]);

/** A group name's longest length here (docs/access.md); upstream's VARCHAR(40) always fits. */
export const GROUP_NAME_MAX = 60;

export const PERSONAL_GROUP_REASON = "a member's personal group (group_single_user = 1): its grants are that member's own here";

type GroupRow = Insertable<UserGroupsTable> & { id: number; name: string; name_key: string };

/** One real group as it arrives, before names are made unique across groups (settleGroupName). */
export function mapGroup(group: UpstreamGroup, now: string): Mapped<GroupRow> {
  if (group.group_single_user !== 0) return skip(PERSONAL_GROUP_REASON);
  const notes: string[] = [];
  let name = decodeEntities(group.group_name).trim();
  if (!hasVisibleCharacter(name)) {
    name = `Group ${group.group_id}`;
    notes.push('its name is empty upstream: named “Group <id>”');
  } else if ([...name].length > GROUP_NAME_MAX) {
    name = [...name].slice(0, GROUP_NAME_MAX).join('').trim();
    notes.push(`its name is longer than ${GROUP_NAME_MAX} characters: cut`);
  }
  let type = GROUP_TYPE_BY_CODE.get(group.group_type);
  if (type === undefined) {
    type = 'hidden';
    notes.push(`group_type = ${group.group_type} is no TorrentPier group type: hidden (invitation only)`);
  }
  const created = firstTime(now, group.group_time);
  return keep(
    {
      id: group.group_id,
      name,
      name_key: usernameKey(name),
      description: decodeEntities(group.group_description).trim(),
      type,
      created_at: created,
      updated_at: firstTime(created, group.mod_time),
    },
    notes,
  );
}

/** Names are unique ignoring case here (NFKC, lower case: name_key); a later group whose name clashes becomes "name (id)". */
export function settleGroupName(row: GroupRow, taken: Set<string>): string[] {
  const notes: string[] = [];
  if (taken.has(row.name_key)) {
    const suffix = ` (${row.id})`;
    const base = [...row.name].slice(0, GROUP_NAME_MAX - suffix.length).join('');
    let candidate = `${base}${suffix}`;
    for (let n = 2; taken.has(usernameKey(candidate)); n++)
      candidate = `${[...row.name].slice(0, GROUP_NAME_MAX - suffix.length - 3).join('')} (${row.id}-${n})`;
    row.name = candidate;
    row.name_key = usernameKey(candidate);
    notes.push('its name clashes with an earlier group ignoring case: renamed to "name (id)"');
  }
  taken.add(row.name_key);
  return notes;
}

export interface UpstreamMembership {
  group_id: number;
  user_id: number;
  user_pending: number;
  user_time: number;
}

/** What a membership's mapping needs to know of its group. */
export interface MembershipGroup {
  personal: boolean;
  /** group_moderator. */
  leader: number;
  /** The group holds some forum grant (an accepted leader would hold it too). */
  holdsGrants: boolean;
}

type MemberRow = Insertable<GroupMembersTable>;

/** One bb_user_group row as a member, a leader or a request, or why it stays behind. */
export function mapMembership(
  row: UpstreamMembership,
  group: MembershipGroup | undefined,
  users: { has(id: number): boolean },
  now: string,
): Mapped<MemberRow> {
  if (group === undefined) return skip('the group does not exist upstream');
  if (group.personal) return skip("membership of a member's personal group: its grants are that member's own here");
  if (!users.has(row.user_id)) return skip('the member was not imported');
  const member = { group_id: row.group_id, user_id: row.user_id, created_at: firstTime(now, row.user_time) };
  const leader = row.user_id === group.leader;
  if (row.user_pending === 0) return keep({ ...member, role: leader ? 'leader' : 'member', status: 'accepted' });
  if (!leader) return keep({ ...member, role: 'member', status: 'pending' });
  if (group.holdsGrants) {
    return keep({ ...member, role: 'member', status: 'pending' }, [
      "the group's leader with a request pending upstream: kept as a request, so the group has no leader here (accepting it would give them the group's forum grants)",
    ]);
  }
  return keep({ ...member, role: 'leader', status: 'accepted' }, [
    "the group's leader with a request pending upstream: accepted as its leader (the group holds no forum grant, so this opens nothing)",
  ]);
}

/** Writes the real groups and their members; the plan says which groups hold grants. */
export async function importGroups(ctx: ImportContext, plan: AccessPlan): Promise<void> {
  const { report } = ctx;
  report.table('bb_groups');
  report.table('bb_user_group');
  ctx.progress.start('bb_groups', plan.groups.length);
  const taken = new Set<string>();
  const rows: GroupRow[] = [];
  const groups = new Map<number, MembershipGroup>();
  for (const group of plan.groups) {
    report.read('bb_groups');
    const mapped = mapGroup(group, ctx.now);
    groups.set(group.group_id, {
      personal: group.group_single_user !== 0,
      leader: group.group_moderator,
      holdsGrants: plan.grantHolders.has(group.group_id),
    });
    if (!mapped.ok) {
      report.skipped('bb_groups', mapped.reason, group.group_id);
      continue;
    }
    for (const note of [...mapped.notes, ...settleGroupName(mapped.row, taken)]) report.note('bb_groups', note, group.group_id);
    rows.push(mapped.row);
  }
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks(rows, 500)) await trx.insertInto('user_groups').values(part).execute();
  });
  for (const row of rows) {
    ctx.imported.groups.add(row.id);
    report.imported('bb_groups');
  }
  ctx.progress.advance(plan.groups.length);
  ctx.progress.finish();

  // Memberships can be many (every member of a big board's groups): streamed in key order, one transaction per batch.
  const leaders = new Set<number>();
  ctx.progress.start('bb_user_group', await countRows(ctx.source, 'bb_user_group'));
  const batches = readBatches(ctx.source, {
    table: 'bb_user_group',
    key: ['group_id', 'user_id'],
    columns: ['user_pending', 'user_time'],
    batchSize: ctx.batchSize,
  });
  for await (const batch of batches) {
    const members: MemberRow[] = [];
    for (const raw of batch) {
      const row = {
        group_id: int(raw['group_id']),
        user_id: int(raw['user_id']),
        user_pending: flagSet(raw['user_pending']) ? 1 : 0,
        user_time: int(raw['user_time']),
      };
      const id = `${row.group_id}/${row.user_id}`;
      report.read('bb_user_group');
      const mapped = mapMembership(row, groups.get(row.group_id), ctx.imported.users, ctx.now);
      if (!mapped.ok) {
        report.skipped('bb_user_group', mapped.reason, id);
        continue;
      }
      for (const note of mapped.notes) report.note('bb_user_group', note, id);
      if (row.user_id === groups.get(row.group_id)!.leader) leaders.add(row.group_id);
      members.push(mapped.row);
    }
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(members, 1000)) await trx.insertInto('group_members').values(part).execute();
    });
    report.imported('bb_user_group', members.length);
    ctx.progress.advance(batch.length);
  }
  ctx.progress.finish();

  // Leaders who are no member at all upstream.
  const added: MemberRow[] = [];
  for (const row of rows) {
    if (leaders.has(row.id)) continue;
    const group = groups.get(row.id)!;
    if (!ctx.imported.users.has(group.leader)) {
      report.note('bb_groups', 'its leader (group_moderator) does not exist upstream or was not imported: the group has no leader', row.id);
    } else if (group.holdsGrants) {
      report.note(
        'bb_groups',
        'its leader (group_moderator) is no member upstream and the group holds forum grants: no leader here (making them one would give them the grants)',
        row.id,
      );
    } else {
      report.note(
        'bb_groups',
        'its leader (group_moderator) is no member upstream: added as its leader (the group holds no forum grant, so this opens nothing)',
        row.id,
      );
      added.push({ group_id: row.id, user_id: group.leader, role: 'leader', status: 'accepted', created_at: row.created_at });
    }
  }
  if (added.length > 0) {
    await ctx.target.db.transaction().execute(async (trx) => {
      for (const part of chunks(added, 1000)) await trx.insertInto('group_members').values(part).execute();
    });
  }
}
