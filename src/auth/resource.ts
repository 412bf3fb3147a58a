// The JSON shapes of the login endpoints.
import { Type, type Static } from 'typebox';
import { RoleSchema } from '../users/resource.ts';
import type { AuthUser } from './service.ts';

export const CurrentUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: RoleSchema,
});

export function currentUserResource(user: AuthUser): Static<typeof CurrentUser> {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

export const LoginResult = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    token: Type.String({ description: 'Shown once; send it as `Authorization: Bearer <token>`' }),
    token_type: Type.Literal('Bearer'),
    expires_at: Type.String({ format: 'date-time' }),
    user: CurrentUser,
  }),
});
