// Signed-in callers for tests, made through the same services the app uses.
import type { AuthUser } from '../../src/auth/service.ts';
import type { Role, UserStatus } from '../../src/db/schema.ts';
import type { UserRow } from '../../src/users/repository.ts';
import type { TestApp } from './app.ts';

export const TEST_PASSWORD = 'correct horse battery';

let counter = 0;

export async function createUser(t: TestApp, options: { role?: Role; name?: string; status?: UserStatus; password?: string } = {}): Promise<UserRow> {
  counter += 1;
  const name = options.name ?? `${options.role ?? 'user'}${process.pid}x${counter}`;
  return t.services.users.create({
    username: name,
    email: `${name.replace(/\s+/g, '.')}@example.test`.toLowerCase(),
    password: options.password ?? TEST_PASSWORD,
    role: options.role ?? 'user',
    status: options.status ?? 'active',
  });
}

export interface SignedIn {
  user: AuthUser;
  token: string;
  headers: Record<string, string>;
}

/** An active user of that role with a fresh API token. */
export async function signIn(t: TestApp, role: Role = 'user', name?: string): Promise<SignedIn> {
  const row = await createUser(t, { role, ...(name !== undefined ? { name } : {}) });
  const issued = await t.services.auth.issueToken(row);
  return {
    user: { id: row.id, name: row.username, email: row.email, role: row.role },
    token: issued.token,
    headers: { authorization: `Bearer ${issued.token}` },
  };
}
