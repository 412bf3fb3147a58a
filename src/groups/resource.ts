// The JSON shapes of a group and of one of its members, each built in one
// function. A person is the API's user summary (`{id, name, url}`, as a
// message's sender); a member adds their role, status and when they joined.
import { Type, type Static } from 'typebox';
import { AuthorResource } from '../forum/resource.ts';
import { Nullable } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { groupPath, profilePath } from '../urls/paths.ts';
import { GroupRoleField, GroupTypeField, MemberStatusField } from './fields.ts';
import type { GroupListed, GroupPerson, MemberRow } from './repository.ts';

export const GroupResource = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  type: GroupTypeField,
  members_count: Type.Integer({ description: 'Accepted members, leaders included' }),
  leader: Nullable(AuthorResource),
  url: Type.String({ description: 'The group page, e.g. /group/uploaders.3/' }),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

export const GroupMemberResource = Type.Object({
  id: Type.Integer({ description: 'The user id' }),
  name: Type.String(),
  url: Type.String({ description: 'Profile page path' }),
  role: GroupRoleField,
  status: MemberStatusField,
  joined_at: Type.String({ format: 'date-time', description: 'When they joined (accepted) or asked to (pending); UTC, YYYY-MM-DDTHH:MM:SSZ' }),
});

export function personResource(person: Pick<GroupPerson, 'id' | 'name'>): Static<typeof AuthorResource> {
  return { id: person.id, name: person.name, url: profilePath(person) };
}

export function groupResource(row: GroupListed): Static<typeof GroupResource> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    members_count: row.members_count,
    leader: row.leader === null ? null : personResource(row.leader),
    url: groupPath(row),
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}

export function groupMemberResource(row: MemberRow): Static<typeof GroupMemberResource> {
  return {
    id: row.user_id,
    name: row.username,
    url: profilePath({ id: row.user_id, name: row.username }),
    role: row.role,
    status: row.status,
    joined_at: isoSeconds(row.created_at),
  };
}
