// Users: creation, changes and removal, with the uniqueness rules checked
// before writing and enforced by the database's unique keys underneath.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AdminBootstrap } from '../config.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database, Role, UserStatus } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import type { AuthUser } from '../auth/service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { UsersRepository, type UserListFilter, type UserRow } from './repository.ts';

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  role?: Role | undefined;
  status?: UserStatus | undefined;
}

export interface UpdateUserInput {
  username?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  role?: Role | undefined;
  status?: UserStatus | undefined;
  signature?: string | undefined;
}

export class UsersService {
  readonly #db: Kysely<Database>;
  readonly repository: UsersRepository;

  constructor(db: Kysely<Database>, repository: UsersRepository) {
    this.#db = db;
    this.repository = repository;
  }

  async get(id: number): Promise<UserRow> {
    const user = await this.repository.find(id);
    if (user === undefined) throw new ModelNotFoundError('User', id);
    return user;
  }

  list(filter: UserListFilter, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
    return this.repository.list(filter, offset, limit);
  }

  async create(input: CreateUserInput): Promise<UserRow> {
    await this.#assertFree(input.username, input.email);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.repository.insert(
        {
          username: input.username,
          email: input.email,
          password_hash: passwordHash,
          role: input.role ?? 'user',
          status: input.status ?? 'active',
        },
        new Date().toISOString(),
      );
    } catch (error) {
      // Another request took the name or address between the check and the insert.
      if (isUniqueViolation(error)) await this.#assertFree(input.username, input.email);
      throw error;
    }
  }

  /** `actor`: the admin making the change, who cannot lock themselves out. */
  async update(id: number, input: UpdateUserInput, actor?: AuthUser): Promise<UserRow> {
    const current = await this.get(id);
    if (actor?.id === id) {
      const errors = new FieldErrorBag();
      if (input.role !== undefined && input.role !== current.role) errors.add('role', 'You cannot change your own role.');
      if (input.status !== undefined && input.status !== 'active') errors.add('status', 'You cannot ban or deactivate yourself.');
      errors.throwIfAny();
    }
    await this.#assertFree(input.username, input.email, id);
    const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
    const now = new Date().toISOString();
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const updated = await this.repository.update(
          id,
          {
            ...(input.username !== undefined ? { username: input.username } : {}),
            ...(input.email !== undefined ? { email: input.email } : {}),
            ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
            ...(input.role !== undefined ? { role: input.role } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            ...(input.signature !== undefined ? { signature: input.signature } : {}),
            updated_at: now,
          },
          trx,
        );
        if (updated === undefined) throw new ModelNotFoundError('User', id);
        // A ban, a deactivation or a new password ends every existing login at once.
        const lostAccess = input.status !== undefined && input.status !== 'active' && current.status === 'active';
        if (lostAccess || passwordHash !== undefined) await this.repository.revokeCredentials(id, now, trx);
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) await this.#assertFree(input.username, input.email, id);
      throw error;
    }
  }

  async delete(id: number, actor?: AuthUser): Promise<void> {
    if (actor?.id === id) throw ValidationError.field('user', 'You cannot delete your own account here.');
    if (!(await this.repository.delete(id))) throw new ModelNotFoundError('User', id);
  }

  /** The ADMIN_* bootstrap: create that admin once; never change an existing user. */
  async ensureAdmin(admin: AdminBootstrap, log: Logger): Promise<void> {
    if ((await this.repository.findByUsername(admin.username)) !== undefined) return;
    try {
      await this.create({ ...admin, role: 'admin', status: 'active' });
      log.info({ username: admin.username }, 'administrator created from ADMIN_USERNAME');
    } catch (error) {
      // Another instance starting at the same time created it first.
      if ((await this.repository.findByUsername(admin.username)) !== undefined) return;
      throw error;
    }
  }

  async #assertFree(username: string | undefined, email: string | undefined, exceptId?: number): Promise<void> {
    const taken = await this.repository.takenKeys({ username, email }, exceptId);
    const errors = new FieldErrorBag();
    if (taken.username) errors.add('username', 'The username has already been taken.');
    if (taken.email) errors.add('email', 'The email has already been taken.');
    errors.throwIfAny();
  }
}
