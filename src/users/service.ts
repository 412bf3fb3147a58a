// Users: creation, changes and removal, with the uniqueness rules checked
// before writing and enforced by the database's unique keys underneath.
// What a user shows everyone passes the word filters: names (`usernames`) on
// every creation and rename, signatures (`signatures`) on every change.
import { type Clock, isoNow } from '../clock.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { AdminBootstrap } from '../config.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database, Role, UserStatus } from '../db/schema.ts';
import { usernameSkeleton } from '../db/username-skeleton.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { AuthUser } from '../auth/service.ts';
import type { PasswordHasher } from '../auth/passwords.ts';
import { blockedMessage, needsReviewMessage, type TextScreen } from '../word-filters/text-screen.ts';
import type { MemberListing, UsersRepository, UserListFilter, UserRow } from './repository.ts';

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
  /** Interface language and IANA time zone; null: as the browser asks. Checked by the caller's schema (accounts/forms.ts). */
  locale?: string | null | undefined;
  time_zone?: string | null | undefined;
  /** Kept out of who is online (named to staff only). */
  hide_online?: boolean | undefined;
}

/** The keys a new or changed user must not share with another: name, its skeleton (what it looks like), e-mail address. */
interface TakenKeys {
  username?: string | undefined;
  skeleton?: string | undefined;
  email?: string | undefined;
}

/** More work for the same transaction as a user's creation or change (e.g. storing or using up a one-time key). */
export type AlsoInTransaction = (trx: Transaction<Database>, user: UserRow) => Promise<void>;

export class UsersService {
  readonly #db: Kysely<Database>;
  readonly repository: UsersRepository;
  readonly #screen: TextScreen;
  readonly passwords: PasswordHasher;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, repository: UsersRepository, screen: TextScreen, passwords: PasswordHasher, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.repository = repository;
    this.#screen = screen;
    this.passwords = passwords;
  }

  async get(id: number): Promise<UserRow> {
    const user = await this.repository.find(id);
    if (user === undefined) throw new ModelNotFoundError('User', id);
    return user;
  }

  members(listing: MemberListing, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
    return this.repository.members(listing, offset, limit);
  }

  list(filter: UserListFilter, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
    return this.repository.list(filter, offset, limit);
  }

  /** `also`: work that must commit or fail together with the new row. */
  async create(input: CreateUserInput, also?: AlsoInTransaction): Promise<UserRow> {
    const errors = new FieldErrorBag();
    await this.#screenName(errors, input.username);
    await this.#addTaken(errors, { username: input.username, skeleton: usernameSkeleton(input.username), email: input.email });
    errors.throwIfAny();
    const passwordHash = await this.passwords.hash(input.password);
    const row = {
      username: input.username,
      email: input.email,
      password_hash: passwordHash,
      role: input.role ?? 'user',
      status: input.status ?? 'active',
    };
    try {
      if (also === undefined) return await this.repository.insert(row, isoNow(this.#clock));
      return await this.#db.transaction().execute(async (trx) => {
        const created = await this.repository.insert(row, isoNow(this.#clock), trx);
        await also(trx, created);
        return created;
      });
    } catch (error) {
      // Another request took the name (or one that looks like it) or the address between the check and the insert.
      if (isUniqueViolation(error)) await this.#assertFree({ username: input.username, skeleton: usernameSkeleton(input.username), email: input.email });
      throw error;
    }
  }

  /**
   * `actor`: the admin making the change, who cannot lock themselves out.
   * `also`: work that must commit or fail together with the change.
   */
  async update(id: number, input: UpdateUserInput, actor?: AuthUser, also?: AlsoInTransaction): Promise<UserRow> {
    const current = await this.get(id);
    const errors = new FieldErrorBag();
    if (actor?.id === id) {
      if (input.role !== undefined && input.role !== current.role) errors.add('role', t('admin.users.own_role'));
      if (input.status !== undefined && input.status !== 'active') errors.add('status', t('admin.users.own_status'));
    }
    if (input.username !== undefined && input.username !== current.username) await this.#screenName(errors, input.username);
    if (input.signature !== undefined) await this.#screenSignature(errors, input.signature);
    // A new name that looks as the old one did (a case or look-alike change) takes nothing from anyone: it keeps its mark.
    const skeleton = input.username === undefined ? undefined : usernameSkeleton(input.username);
    const looksNew = skeleton !== undefined && skeleton !== current.username_skeleton;
    const keys = { username: input.username, skeleton: looksNew ? skeleton : undefined, email: input.email };
    await this.#addTaken(errors, keys, id);
    errors.throwIfAny();
    const passwordHash = input.password !== undefined ? await this.passwords.hash(input.password) : undefined;
    const now = isoNow(this.#clock);
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const updated = await this.repository.update(
          id,
          {
            ...(input.username !== undefined ? { username: input.username } : {}),
            ...(looksNew ? { username_lookalike: false } : {}),
            ...(input.email !== undefined ? { email: input.email } : {}),
            ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
            ...(input.role !== undefined ? { role: input.role } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            ...(input.signature !== undefined ? { signature: input.signature } : {}),
            ...(input.locale !== undefined ? { locale: input.locale } : {}),
            ...(input.time_zone !== undefined ? { time_zone: input.time_zone } : {}),
            ...(input.hide_online !== undefined ? { hide_online: input.hide_online } : {}),
            updated_at: now,
          },
          trx,
        );
        if (updated === undefined) throw new ModelNotFoundError('User', id);
        // A ban, a deactivation or a new password ends every existing login at once.
        const lostAccess = input.status !== undefined && input.status !== 'active' && current.status === 'active';
        if (lostAccess || passwordHash !== undefined) await this.repository.revokeCredentials(id, now, trx);
        if (also !== undefined) await also(trx, updated);
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) await this.#assertFree(keys, id);
      throw error;
    }
  }

  async delete(id: number, actor?: AuthUser): Promise<void> {
    if (actor?.id === id) throw ValidationError.field('user', t('admin.users.own_account'));
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

  async #assertFree(keys: TakenKeys, exceptId?: number): Promise<void> {
    const errors = new FieldErrorBag();
    await this.#addTaken(errors, keys, exceptId);
    errors.throwIfAny();
  }

  /**
   * A name that looks like another member's (the same skeleton) is refused
   * with the words of a name already taken: the refusal says no more about
   * who holds it than that one does.
   */
  async #addTaken(errors: FieldErrorBag, keys: TakenKeys, exceptId?: number): Promise<void> {
    const taken = await this.repository.takenKeys(keys, exceptId);
    if (taken.username || taken.skeleton) errors.add('username', t('validation.username_taken'));
    if (taken.email) errors.add('email', t('validation.email_taken'));
  }

  /**
   * A name is refused on any rule that matches it, replace rules included:
   * a name changed behind the user's back would not be the one they log in with.
   */
  async #screenName(errors: FieldErrorBag, username: string): Promise<void> {
    const verdict = await this.#screen.check(username, 'usernames');
    if (verdict.action === 'moderate') errors.add('username', needsReviewMessage('username'));
    else if (verdict.action === 'block' || verdict.text !== username) errors.add('username', blockedMessage('username'));
  }

  /** A signature is stored as written; its replace rules apply where it is shown, like a post's. */
  async #screenSignature(errors: FieldErrorBag, signature: string): Promise<void> {
    const verdict = await this.#screen.check(signature, 'signatures');
    if (verdict.action === 'block') errors.add('signature', blockedMessage('signature'));
    else if (verdict.action === 'moderate') errors.add('signature', needsReviewMessage('signature'));
  }
}
