// The rules of a group's fields, one definition each: the API's bodies, the
// admin's forms and the OpenAPI document read them from here.
import { Type } from 'typebox';
import { GROUP_TYPES } from '../db/migrations/0029_forum_access.ts';
import { OneOf } from '../http/schemas.ts';

export { GROUP_TYPES };
export type { GroupType } from '../db/schema.ts';

export const GROUP_NAME_MAX = 60;
export const GROUP_DESCRIPTION_MAX = 2000;
export const GROUP_ROLES = ['member', 'leader'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
export const MEMBER_STATUSES = ['accepted', 'pending'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/**
 * One line, no space at either end, at least one visible character and
 * nothing invisible anywhere: names are unique whatever their letter case
 * (`name_key`), and `Uploaders` must not have a twin that differs only by a
 * zero-width character or a trailing space.
 */
export const GroupName = Type.String({
  minLength: 1,
  maxLength: GROUP_NAME_MAX,
  notBlank: true,
  visible: true,
  noInvisible: true,
  // Blank names pass the pattern so that they are told only "required".
  pattern: '^(?:\\s*|\\S(?:.*\\S)?)$',
  description: `1-${GROUP_NAME_MAX} characters on one line, no space at either end, nothing invisible; unique whatever the letter case`,
});

export const GroupDescription = Type.String({ maxLength: GROUP_DESCRIPTION_MAX, description: `Plain text, up to ${GROUP_DESCRIPTION_MAX} characters` });

export const GroupTypeField = OneOf(
  GROUP_TYPES,
  'open: anyone may join; closed: members ask and a leader accepts; hidden: invitation only, seen by its members and admins',
);

export const GroupRoleField = OneOf(GROUP_ROLES, 'member, or leader (leaders accept requests and manage members; only admins appoint them)');

export const MemberStatusField = OneOf(MEMBER_STATUSES, 'accepted (a member), or pending (a request waiting for a leader)');

export const GroupBodies = {
  // The type decides who may join, and so who reads the forums granted to the group: it is never a default.
  create: Type.Object({ name: GroupName, description: Type.Optional(GroupDescription), type: GroupTypeField }),
  update: Type.Object({ name: Type.Optional(GroupName), description: Type.Optional(GroupDescription), type: Type.Optional(GroupTypeField) }),
  member: Type.Object({ role: GroupRoleField }),
};
