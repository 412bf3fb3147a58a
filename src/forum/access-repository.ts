// SQL for the access model (docs/access.md): every forum's levels and every
// grant, read whole into the rule's snapshot, and one forum's permissions
// written whole.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccessLevel, Database } from '../db/schema.ts';
import type { Role } from '../db/schema.ts';
import { ACCESS_ACTIONS, type AccessAction, type ForumLevels, type ForumRules, type Grant, type Reader } from './permissions.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The forums table's column holding an action's level. */
export function levelColumn(action: AccessAction): `level_${AccessAction}` {
  return `level_${action}`;
}

const LEVEL_COLUMNS = ACCESS_ACTIONS.map(levelColumn);

type LevelRow = { [K in `level_${AccessAction}`]: AccessLevel };

function levelsOf(row: LevelRow): ForumLevels {
  return Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, row[levelColumn(action)]])) as ForumLevels;
}

export class AccessRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  /** Every forum's place and levels. */
  async forumRules(): Promise<ForumRules[]> {
    const rows = await this.#db
      .selectFrom('forums')
      .select(['id', 'parent_id', ...LEVEL_COLUMNS])
      .execute();
    return rows.map((row) => ({ id: row.id, parentId: row.parent_id, levels: levelsOf(row) }));
  }

  /** Every grant (of every forum, or of one). */
  async grants(forumId?: number, db: Db = this.#db): Promise<Grant[]> {
    let query = db.selectFrom('forum_grants').select(['forum_id', 'group_id', 'user_id', 'actions', 'moderate']);
    if (forumId !== undefined) query = query.where('forum_id', '=', forumId);
    // Groups' grants first, then members' (NULLs sort apart on the two databases, so the order is said).
    const rows = await query
      .orderBy('forum_id')
      .orderBy(sql`case when group_id is null then 1 else 0 end`)
      .orderBy('group_id')
      .orderBy('user_id')
      .execute();
    return rows.map((row) => ({ forumId: row.forum_id, groupId: row.group_id, userId: row.user_id, actions: row.actions, moderate: Boolean(row.moderate) }));
  }

  /** One forum's levels; undefined for an unknown forum. */
  async levels(forumId: number, db: Db = this.#db): Promise<ForumLevels | undefined> {
    const row = await db.selectFrom('forums').select(LEVEL_COLUMNS).where('id', '=', forumId).executeTakeFirst();
    return row === undefined ? undefined : levelsOf(row);
  }

  /** The forum's levels and grants become exactly these; false when the forum is gone. */
  async replace(forumId: number, levels: ForumLevels, grants: readonly Grant[], db: Db): Promise<boolean> {
    const changes = Object.fromEntries(ACCESS_ACTIONS.map((action) => [levelColumn(action), levels[action]])) as LevelRow;
    const updated = await db.updateTable('forums').set(changes).where('id', '=', forumId).executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    await db.deleteFrom('forum_grants').where('forum_id', '=', forumId).execute();
    if (grants.length > 0)
      await db
        .insertInto('forum_grants')
        .values(
          grants.map((grant) => ({ forum_id: forumId, group_id: grant.groupId, user_id: grant.userId, actions: grant.actions, moderate: grant.moderate })),
        )
        .execute();
    return true;
  }

  /** The names of these groups and members, for showing grants (ids no longer there are absent). */
  async holderNames(groupIds: readonly number[], userIds: readonly number[]): Promise<{ groups: Map<number, string>; users: Map<number, string> }> {
    const [groups, users] = await Promise.all([
      groupIds.length === 0 ? [] : this.#db.selectFrom('user_groups').select(['id', 'name']).where('id', 'in', groupIds).execute(),
      userIds.length === 0 ? [] : this.#db.selectFrom('users').select(['id', 'username as name']).where('id', 'in', userIds).execute(),
    ]);
    return { groups: new Map(groups.map((row) => [row.id, row.name])), users: new Map(users.map((row) => [row.id, row.name])) };
  }

  /** The group with this name key (usernameKey of its name), if any. */
  async groupByNameKey(key: string): Promise<number | undefined> {
    return (await this.#db.selectFrom('user_groups').select('id').where('name_key', '=', key).executeTakeFirst())?.id;
  }

  /**
   * These members as the rule sees them (their accepted groups and the forums
   * a grant of theirs or of one of those groups moderates), as their
   * credentials would bring them: for asking what someone who is not the
   * caller may read (a watcher about to be mailed). Two queries for any number.
   */
  async readers(members: ReadonlyArray<{ id: number; role: Role }>): Promise<Reader[]> {
    if (members.length === 0) return [];
    const ids = members.map((member) => member.id);
    const memberships = await this.#db
      .selectFrom('group_members')
      .select(['user_id', 'group_id'])
      .where('user_id', 'in', ids)
      .where('status', '=', 'accepted')
      .orderBy('group_id')
      .execute();
    const groupsOf = new Map<number, number[]>();
    for (const row of memberships) groupsOf.set(row.user_id, [...(groupsOf.get(row.user_id) ?? []), row.group_id]);
    const groupIds = [...new Set(memberships.map((row) => row.group_id))];
    const moderating = await this.#db
      .selectFrom('forum_grants')
      .select(['forum_id', 'user_id', 'group_id'])
      .where('moderate', '=', true)
      .where((eb) => eb.or([eb('user_id', 'in', ids), ...(groupIds.length === 0 ? [] : [eb('group_id', 'in', groupIds)])]))
      .orderBy('forum_id')
      .execute();
    return members.map((member) => {
      const groups = groupsOf.get(member.id) ?? [];
      const moderated = moderating.filter((grant) => grant.user_id === member.id || (grant.group_id !== null && groups.includes(grant.group_id)));
      return { id: member.id, role: member.role, groupIds: groups, moderatedForums: [...new Set(moderated.map((grant) => grant.forum_id))] };
    });
  }

  /** Which of these group ids exist. */
  async existingGroups(ids: readonly number[], db: Db = this.#db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return new Set((await db.selectFrom('user_groups').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
  }

  /** Which of these user ids exist. */
  async existingUsers(ids: readonly number[], db: Db = this.#db): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    return new Set((await db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
  }
}
