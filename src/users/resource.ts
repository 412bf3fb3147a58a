// The JSON shape of a user. E-mail, role and status are private: only admins
// and the user see them; everyone else gets null in those fields.
import { Type, type Static } from 'typebox';
import { ADMINS } from '../auth/guard.ts';
import type { AuthUser } from '../auth/service.ts';
import { Nullable } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { profilePath } from '../urls/paths.ts';
import type { UserRow } from './repository.ts';
import { avatarUrl } from './avatars/avatars.ts';

export const RoleSchema = Type.Union([Type.Literal('user'), Type.Literal('moderator'), Type.Literal('admin')], { description: 'user, moderator or admin' });
export const StatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('banned')], { description: 'pending, active or banned' });

export const UserResource = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Nullable(Type.String({ description: 'Admins and the user only' })),
  role: Nullable(RoleSchema),
  status: Nullable(StatusSchema),
  url: Type.String({ description: 'Profile page path, e.g. /profile/alice.3/' }),
  avatar_url: Nullable(Type.String({ description: 'The avatar image (a square WebP), or null' })),
  created_at: SecondsTimestamp,
  updated_at: SecondsTimestamp,
});

/** A member as the member list shows them to everyone. */
export const MemberResource = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String({ description: 'Profile page path' }),
  avatar_url: Nullable(Type.String({ description: 'The avatar image (a square WebP), or null' })),
  posts: Type.Integer({ description: 'Published posts that are not hidden' }),
  banned: Type.Boolean(),
  joined_at: SecondsTimestamp,
});

export function memberResource(row: UserRow): Static<typeof MemberResource> {
  return {
    id: row.id,
    name: row.username,
    url: profilePath({ id: row.id, name: row.username }),
    avatar_url: avatarUrl(row),
    posts: row.post_count,
    banned: row.status === 'banned',
    joined_at: isoSeconds(row.created_at),
  };
}

export function userResource(row: UserRow, viewer: AuthUser | null): Static<typeof UserResource> {
  const privileged = viewer !== null && (ADMINS.includes(viewer.role) || viewer.id === row.id);
  return {
    id: row.id,
    name: row.username,
    email: privileged ? row.email : null,
    role: privileged ? row.role : null,
    status: privileged ? row.status : null,
    url: profilePath({ id: row.id, name: row.username }),
    avatar_url: avatarUrl(row),
    created_at: isoSeconds(row.created_at),
    updated_at: isoSeconds(row.updated_at),
  };
}
