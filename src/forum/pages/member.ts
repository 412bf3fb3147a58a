// The member a profile address names. Accounts waiting for activation are
// not members yet: their profile is a 404 like an unknown id.
import { ModelNotFoundError } from '../../http/errors.ts';
import type { UserRow } from '../../users/repository.ts';
import type { UsersService } from '../../users/service.ts';

export async function loadMember(users: UsersService, id: number): Promise<UserRow> {
  const user = await users.get(id);
  if (user.status === 'pending') throw new ModelNotFoundError('User', id);
  return user;
}
