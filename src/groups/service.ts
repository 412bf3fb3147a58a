// Groups of members (docs/access.md, "Groups"), as TorrentPier's bb_groups:
// open (anyone joins), closed (members ask, a leader accepts) and hidden
// (invitation only). A forum's grants to a group apply to its accepted
// members (forum/permissions.ts), whose groups are read with their
// credentials on every request: a change of membership applies on their next
// request, with nothing here to keep.
//
// Who sees what: a hidden group exists only for its accepted members and for
// admins; to anyone else every route and page answers 404, as for a group
// that does not exist. Who does what: admins everything; a group's leaders
// add members, accept or refuse requests and remove members (not other
// leaders); only admins appoint leaders or change a leader's membership;
// every member may leave and withdraw their own request.
import type { AuthUser } from '../auth/service.ts';
import { ADMINS } from '../auth/guard.ts';
import { type Clock, isoNow } from '../clock.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/dialect.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { t } from '../i18n/messages.ts';
import { usernameKey } from '../users/repository.ts';
import type { GroupRole, GroupType, MemberStatus } from './fields.ts';
import type { GroupListed, GroupRepository, GroupRow, GroupScope, MemberRow } from './repository.ts';

export type { GroupListed, GroupRow, MemberRow };
export type { GroupRole } from './fields.ts';

/** Who asks: a signed-in member (their accepted groups as read with their credentials), or null for a guest. */
export type GroupReader = Pick<AuthUser, 'id' | 'role' | 'groupIds'> | null;

export interface GroupInput {
  name?: string | undefined;
  description?: string | undefined;
  type?: GroupType | undefined;
}

export interface NewGroup extends GroupInput {
  name: string;
  type: GroupType;
}

/** What joining did: `accepted` (an open group, 200) or `pending` (a request to a closed group, 202). */
export interface Joined {
  member: MemberRow;
  status: MemberStatus;
}

export class Groups {
  readonly #repository: GroupRepository;
  readonly #clock: Clock;

  constructor(repository: GroupRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /** The group as this reader may see it; 404 (as if it did not exist) for an unknown one and for a hidden one they are not in. */
  async find(id: number, reader: GroupReader): Promise<GroupRow> {
    const row = await this.#repository.find(id);
    if (row === undefined || !maySee(row, reader)) throw new ModelNotFoundError('Group', id);
    return row;
  }

  /** The group with its member count and first leader, as find() sees it. */
  async get(id: number, reader: GroupReader): Promise<GroupListed> {
    return (await this.#repository.withFigures([await this.find(id, reader)]))[0]!;
  }

  /** One page of the groups this reader may see, by name. */
  list(reader: GroupReader, page: PageRequest): Promise<{ rows: GroupListed[]; total: number }> {
    return this.#repository.list(scopeOf(reader), page.offset, page.perPage);
  }

  /** The groups a member is in that this reader may see (a profile's list), by name. */
  groupsOf(userId: number, reader: GroupReader): Promise<Array<{ group: GroupRow; role: GroupRole }>> {
    return this.#repository.groupsOf(userId, scopeOf(reader));
  }

  /** The reader's memberships and requests among these groups, by group id (none for a guest). */
  async membershipsOf(reader: GroupReader, groupIds: readonly number[]): Promise<Map<number, MemberRow>> {
    return reader === null ? new Map() : this.#repository.membershipsOf(reader.id, groupIds);
  }

  /** The reader's membership or request in the group, if any. */
  async membership(groupId: number, reader: GroupReader): Promise<MemberRow | undefined> {
    return reader === null ? undefined : this.#repository.membership(groupId, reader.id);
  }

  /** Any user's membership or request in the group (what a leader's last action left). */
  membershipOfUser(groupId: number, userId: number): Promise<MemberRow | undefined> {
    return this.#repository.membership(groupId, userId);
  }

  /** A user's id and name; undefined for an unknown one. */
  person(userId: number): Promise<{ id: number; username: string } | undefined> {
    return this.#repository.findUser(userId);
  }

  /** The user with this name (any letter case), as the admin's forms name members. */
  personNamed(name: string): Promise<{ id: number; username: string } | undefined> {
    return this.#repository.userByNameKey(usernameKey(name));
  }

  /** How many requests wait in each of these groups (admin lists). */
  pendingCounts(groupIds: readonly number[]): Promise<Map<number, number>> {
    return this.#repository.pendingCounts(groupIds);
  }

  /** Admins, and the group's accepted leaders: who sees its requests and manages its members. */
  async mayManage(group: GroupRow, reader: GroupReader): Promise<boolean> {
    if (reader === null) return false;
    if (isAdmin(reader)) return true;
    const own = await this.#repository.membership(group.id, reader.id);
    return own?.status === 'accepted' && own.role === 'leader';
  }

  async create(input: NewGroup): Promise<GroupListed> {
    const values = { name: input.name, name_key: usernameKey(input.name), description: input.description ?? '', type: input.type };
    await this.#assertNameFree(values.name_key);
    let row: GroupRow;
    try {
      row = await this.#repository.insert(values, isoNow(this.#clock));
    } catch (error) {
      // The same name created at the same moment: the unique key decides.
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    return (await this.#repository.withFigures([row]))[0]!;
  }

  /** Admins only (the routes' guard): renames, describes or retypes the group. */
  async update(id: number, input: GroupInput): Promise<GroupListed> {
    await this.#findAny(id);
    const key = input.name === undefined ? undefined : usernameKey(input.name);
    if (key !== undefined) await this.#assertNameFree(key, id);
    let row: GroupRow | undefined;
    try {
      row = await this.#repository.update(
        id,
        {
          ...(input.name !== undefined && key !== undefined ? { name: input.name, name_key: key } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.type !== undefined ? { type: input.type } : {}),
        },
        isoNow(this.#clock),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    if (row === undefined) throw new ModelNotFoundError('Group', id);
    return (await this.#repository.withFigures([row]))[0]!;
  }

  /** Admins only: the group goes with its memberships, requests and forum grants. */
  async delete(id: number): Promise<void> {
    if (!(await this.#repository.delete(id))) throw new ModelNotFoundError('Group', id);
  }

  /**
   * One page of the group's accepted members (anyone who may see the group)
   * or of its requests (`pending`: its leaders and admins; 401 for a guest,
   * 403 for anyone else).
   */
  async members(groupId: number, reader: GroupReader, status: MemberStatus, page: PageRequest): Promise<{ rows: MemberRow[]; total: number }> {
    const group = await this.find(groupId, reader);
    if (status === 'pending') await this.#assertManager(group, reader, t('group.requests_leaders_only'));
    return this.#repository.members(group.id, status, page.offset, page.perPage);
  }

  /**
   * The user becomes an accepted member of the group with this role: added,
   * their request accepted, or their role changed. Admins, and the group's
   * leaders for the role `member` of anyone who is not a leader.
   */
  async setMember(groupId: number, reader: GroupReader, userId: number, role: GroupRole): Promise<MemberRow> {
    const group = await this.find(groupId, reader);
    await this.#assertManager(group, reader, t('group.leaders_only'));
    const user = await this.#repository.findUser(userId);
    if (user === undefined) throw new ModelNotFoundError('User', userId);
    if (!isAdmin(reader)) {
      if (role === 'leader') throw new ApiError('FORBIDDEN', t('group.admins_appoint'));
      const current = await this.#repository.membership(group.id, user.id);
      if (current?.role === 'leader') throw new ApiError('FORBIDDEN', t('group.leader_by_admins'));
    }
    try {
      await this.#repository.accept(group.id, user.id, role, isoNow(this.#clock));
    } catch (error) {
      // The group or the user deleted meanwhile.
      if (isForeignKeyViolation(error)) throw await this.#goneOf(group.id, user.id);
      throw error;
    }
    return this.#membershipOrGone(group.id, user.id);
  }

  /**
   * Ends a membership or refuses (withdraws) a request. The member
   * themselves, admins, and the group's leaders for anyone who is not a
   * leader. 404 when the user is neither a member nor asking.
   */
  async removeMember(groupId: number, reader: GroupReader, userId: number): Promise<MemberRow> {
    const group = await this.find(groupId, reader);
    if (reader === null) throw unauthenticated();
    const self = reader.id === userId;
    if (!self) await this.#assertManager(group, reader, t('group.leaders_only'));
    const current = await this.#repository.membership(group.id, userId);
    if (current === undefined) throw new ModelNotFoundError('GroupMember', userId);
    if (!self && !isAdmin(reader) && current.role === 'leader') throw new ApiError('FORBIDDEN', t('group.leader_by_admins'));
    if (!(await this.#repository.deleteMembership(group.id, userId))) throw new ModelNotFoundError('GroupMember', userId);
    return current;
  }

  /**
   * The reader joins the group: an open group's member at once, a request to
   * a closed one. Joining again answers as the first time and changes
   * nothing (a request made while the group was closed is accepted once it
   * is open). A hidden group takes nobody this way: 404 for those who do not
   * see it, 403 for admins, who do (they add members instead).
   */
  async join(groupId: number, reader: GroupReader): Promise<Joined> {
    if (reader === null) throw unauthenticated();
    const group = await this.find(groupId, reader);
    const current = await this.#repository.membership(group.id, reader.id);
    if (current?.status === 'accepted') return { member: current, status: 'accepted' };
    if (group.type === 'hidden') throw new ApiError('FORBIDDEN', t('group.invitation_only'));
    const now = isoNow(this.#clock);
    try {
      if (group.type === 'open') {
        if (current === undefined) await this.#repository.insertMembership(group.id, reader.id, 'accepted', now);
        else await this.#repository.accept(group.id, reader.id, 'member', now);
      } else if (current === undefined) {
        await this.#repository.insertMembership(group.id, reader.id, 'pending', now);
      }
    } catch (error) {
      if (isForeignKeyViolation(error)) throw await this.#goneOf(group.id, reader.id);
      throw error;
    }
    const member = await this.#membershipOrGone(group.id, reader.id);
    return { member, status: member.status };
  }

  async #findAny(id: number): Promise<GroupRow> {
    const row = await this.#repository.find(id);
    if (row === undefined) throw new ModelNotFoundError('Group', id);
    return row;
  }

  async #assertNameFree(nameKey: string, exceptId?: number): Promise<void> {
    if (await this.#repository.nameTaken(nameKey, exceptId)) throw nameTaken();
  }

  async #assertManager(group: GroupRow, reader: GroupReader, message: string): Promise<void> {
    if (reader === null) throw unauthenticated();
    if (!(await this.mayManage(group, reader))) throw new ApiError('FORBIDDEN', message);
  }

  /** The membership just written; removed meanwhile (a leader refused, the member left), it is not there. */
  async #membershipOrGone(groupId: number, userId: number): Promise<MemberRow> {
    const row = await this.#repository.membership(groupId, userId);
    if (row === undefined) throw await this.#goneOf(groupId, userId);
    return row;
  }

  /** Which of the two went away while a membership was written: 404 for it. */
  async #goneOf(groupId: number, userId: number): Promise<ModelNotFoundError> {
    if ((await this.#repository.find(groupId)) === undefined) return new ModelNotFoundError('Group', groupId);
    if ((await this.#repository.findUser(userId)) === undefined) return new ModelNotFoundError('User', userId);
    return new ModelNotFoundError('GroupMember', userId);
  }
}

function isAdmin(reader: GroupReader): boolean {
  return reader !== null && ADMINS.includes(reader.role);
}

/** Hidden groups only for their accepted members (their credentials' groups) and admins. */
export function maySee(group: GroupRow, reader: GroupReader): boolean {
  return group.type !== 'hidden' || isAdmin(reader) || (reader?.groupIds ?? []).includes(group.id);
}

function scopeOf(reader: GroupReader): GroupScope {
  return isAdmin(reader) ? { every: true } : { every: false, hiddenIn: reader?.groupIds ?? [] };
}

function nameTaken(): ValidationError {
  return ValidationError.field('name', t('validation.group_name_taken'));
}

function unauthenticated(): ApiError {
  return new ApiError('UNAUTHENTICATED', 'Unauthenticated.');
}
