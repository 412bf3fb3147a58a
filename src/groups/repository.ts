// SQL for groups of members (service.ts): the groups with their accepted
// members counted and their first leader, memberships and join requests.
import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool, Transaction } from 'kysely';
import { countOf } from '../db/count.ts';
import type { Database, GroupType, UserGroupsTable } from '../db/schema.ts';
import type { GroupRole, MemberStatus } from './fields.ts';

export type GroupRow = Selectable<UserGroupsTable>;

/** A member as lists show them. */
export interface GroupPerson {
  id: number;
  name: string;
  avatar: string | null;
}

/** A group with what every listing of it shows. */
export interface GroupListed extends GroupRow {
  /** Accepted members, leaders included. */
  members_count: number;
  /** The leader who joined first; null for a group without one. */
  leader: GroupPerson | null;
}

/** One membership or request, with its member. */
export interface MemberRow {
  group_id: number;
  user_id: number;
  username: string;
  avatar: string | null;
  role: GroupRole;
  status: MemberStatus;
  /** When they joined (accepted), or asked to (pending). */
  created_at: string;
}

/** Which groups a reader may see: every group (admins), or those not hidden and the hidden ones they are in. */
export type GroupScope = { every: true } | { every: false; hiddenIn: readonly number[] };

export interface GroupValues {
  name: string;
  name_key: string;
  description: string;
  type: GroupType;
}

type Db = Kysely<Database> | Transaction<Database>;

export class GroupRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  find(id: number, db: Db = this.#db): Promise<GroupRow | undefined> {
    return db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One page of the groups in scope, by name (then id), and how many there are. */
  async list(scope: GroupScope, offset: number, limit: number): Promise<{ rows: GroupListed[]; total: number }> {
    const visible = this.#db.selectFrom('user_groups').where((eb) => inScope(eb, scope));
    const [rows, total] = await Promise.all([
      visible.selectAll('user_groups').orderBy('name_key').orderBy('id').offset(offset).limit(limit).execute(),
      countOf(visible),
    ]);
    return { rows: await this.withFigures(rows), total };
  }

  /** The groups with their member counts and first leaders (two queries for any number of groups). */
  async withFigures(rows: readonly GroupRow[]): Promise<GroupListed[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [counts, leaders] = await Promise.all([
      this.#db
        .selectFrom('group_members')
        .select((eb) => ['group_id', eb.fn.countAll<number>().as('n')])
        .where('group_id', 'in', ids)
        .where('status', '=', 'accepted')
        .groupBy('group_id')
        .execute(),
      this.#db
        .selectFrom('group_members as gm')
        .innerJoin('users as u', 'u.id', 'gm.user_id')
        .select(['gm.group_id', 'u.id', 'u.username as name', 'u.avatar'])
        .where('gm.group_id', 'in', ids)
        .where('gm.role', '=', 'leader')
        .where('gm.status', '=', 'accepted')
        .orderBy('gm.group_id')
        .orderBy('gm.created_at')
        .orderBy('gm.user_id')
        .execute(),
    ]);
    const countOfGroup = new Map(counts.map((row) => [row.group_id, Number(row.n)]));
    const firstLeader = new Map<number, GroupPerson>();
    for (const { group_id, ...person } of leaders) if (!firstLeader.has(group_id)) firstLeader.set(group_id, person);
    return rows.map((row) => ({ ...row, members_count: countOfGroup.get(row.id) ?? 0, leader: firstLeader.get(row.id) ?? null }));
  }

  /** Whether another group (not `exceptId`) has this name key. */
  async nameTaken(nameKey: string, exceptId?: number): Promise<boolean> {
    let query = this.#db.selectFrom('user_groups').select('id').where('name_key', '=', nameKey);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  insert(values: GroupValues, now: string): Promise<GroupRow> {
    return this.#db
      .insertInto('user_groups')
      .values({ ...values, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, values: Partial<GroupValues>, now: string): Promise<GroupRow | undefined> {
    return this.#db
      .updateTable('user_groups')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes the group; its memberships and grants go with it (foreign keys, migration 0029). False when it was not there. */
  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('user_groups').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page of a group's members or requests: leaders first, then by when they joined (requests: oldest first). */
  async members(groupId: number, status: MemberStatus, offset: number, limit: number): Promise<{ rows: MemberRow[]; total: number }> {
    const base = this.#db.selectFrom('group_members').where('group_id', '=', groupId).where('status', '=', status);
    const [rows, total] = await Promise.all([
      this.#memberRows(this.#db)
        .where('gm.group_id', '=', groupId)
        .where('gm.status', '=', status)
        .orderBy('gm.role') // 'leader' < 'member': leaders first
        .orderBy('gm.created_at')
        .orderBy('gm.user_id')
        .offset(offset)
        .limit(limit)
        .execute(),
      countOf(base),
    ]);
    return { rows, total };
  }

  membership(groupId: number, userId: number, db: Db = this.#db): Promise<MemberRow | undefined> {
    return this.#memberRows(db).where('gm.group_id', '=', groupId).where('gm.user_id', '=', userId).executeTakeFirst();
  }

  /** The member's memberships and requests in these groups, by group id. */
  async membershipsOf(userId: number, groupIds: readonly number[]): Promise<Map<number, MemberRow>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.#memberRows(this.#db).where('gm.user_id', '=', userId).where('gm.group_id', 'in', groupIds).execute();
    return new Map(rows.map((row) => [row.group_id, row]));
  }

  /** The groups in scope that the member is an accepted member of, by name, with their role in each. */
  async groupsOf(userId: number, scope: GroupScope): Promise<Array<{ group: GroupRow; role: GroupRole }>> {
    const rows = await this.#db
      .selectFrom('user_groups')
      .innerJoin('group_members', 'group_members.group_id', 'user_groups.id')
      .selectAll('user_groups')
      .select('group_members.role')
      .where((eb) => inScope(eb, scope))
      .where('group_members.user_id', '=', userId)
      .where('group_members.status', '=', 'accepted')
      .orderBy('user_groups.name_key')
      .orderBy('user_groups.id')
      .execute();
    return rows.map(({ role, ...group }) => ({ group, role }));
  }

  /**
   * Makes the user an accepted member with this role: a new membership, a
   * request accepted (joined from now), or a member's role changed (joined
   * when they did). In one transaction; the insert gives way to a row
   * written meanwhile (the primary key), so two admins at once leave one row.
   */
  async accept(groupId: number, userId: number, role: GroupRole, now: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('group_members').select('status').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
      if (current === undefined) {
        await trx
          .insertInto('group_members')
          .values({ group_id: groupId, user_id: userId, role, status: 'accepted', created_at: now })
          .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet({ role, status: 'accepted' }))
          .execute();
        return;
      }
      await trx
        .updateTable('group_members')
        .set({ role, status: 'accepted', ...(current.status === 'pending' ? { created_at: now } : {}) })
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .execute();
    });
  }

  /** A new membership (open group) or request (closed group); false when the user already has either. */
  async insertMembership(groupId: number, userId: number, status: MemberStatus, now: string): Promise<boolean> {
    const inserted = await this.#db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: userId, role: 'member', status, created_at: now })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Ends a membership or withdraws a request; false when there was none. */
  async deleteMembership(groupId: number, userId: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** How many requests wait in each of these groups (groups without any are absent). */
  async pendingCounts(groupIds: readonly number[]): Promise<Map<number, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('group_members')
      .select((eb) => ['group_id', eb.fn.countAll<number>().as('n')])
      .where('group_id', 'in', groupIds)
      .where('status', '=', 'pending')
      .groupBy('group_id')
      .execute();
    return new Map(rows.map((row) => [row.group_id, Number(row.n)]));
  }

  /** A user's id and name; undefined for an unknown one. */
  findUser(userId: number): Promise<{ id: number; username: string } | undefined> {
    return this.#db.selectFrom('users').select(['id', 'username']).where('id', '=', userId).executeTakeFirst();
  }

  /** The user with this name key (users.username_key), if any. */
  userByNameKey(nameKey: string): Promise<{ id: number; username: string } | undefined> {
    return this.#db.selectFrom('users').select(['id', 'username']).where('username_key', '=', nameKey).executeTakeFirst();
  }

  #memberRows(db: Db) {
    return db
      .selectFrom('group_members as gm')
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select(['gm.group_id', 'gm.user_id', 'u.username', 'u.avatar', 'gm.role', 'gm.status', 'gm.created_at']);
  }
}

/** The groups in scope: every one, or those not hidden and the hidden ones the reader is in. */
function inScope(eb: ExpressionBuilder<Database, 'user_groups'>, scope: GroupScope): Expression<SqlBool> {
  if (scope.every) return eb.lit(true);
  const notHidden = eb('user_groups.type', '<>', 'hidden');
  return scope.hiddenIn.length === 0 ? notHidden : eb.or([notHidden, eb('user_groups.id', 'in', scope.hiddenIn)]);
}
