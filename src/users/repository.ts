// SQL for users. Keys (`username_key`, `email_key`) are the lower-cased forms
// the unique indexes hold, so "Alice" and "alice" are one name; the name's
// skeleton (`username_skeleton`, db/username-skeleton.ts) is what it looks like.
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { containsText, type Dialect } from '../db/dialect.ts';
import type { Database, Role, UserStatus, UsersTable } from '../db/schema.ts';
import { usernameSkeleton } from '../db/username-skeleton.ts';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  status: UserStatus;
}

export interface UserListFilter {
  search?: string | undefined;
  role?: Role | undefined;
  status?: UserStatus | undefined;
}

/** The member list's orders (docs/members.md). */
export const MEMBER_SORTS = ['joined', 'name', 'posts'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export interface MemberListing {
  /** Part of the name, any case. */
  search: string | null;
  sort: MemberSort;
  order: 'asc' | 'desc';
}

const MEMBER_SORT_COLUMNS = { joined: 'created_at', name: 'username_key', posts: 'post_count' } as const;

/** More work in the transaction of an avatar change, given the member's row as it was (UsersRepository.setAvatar). */
export type AlsoOnAvatarChange = (trx: Transaction<Database>, before: Pick<UserRow, 'username' | 'avatar'>) => Promise<void>;

export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

type Db = Kysely<Database> | Transaction<Database>;

export class UsersRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  find(id: number, db: Db = this.#db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.#db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.#db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
  }

  /**
   * Which keys are already held by a user other than `exceptId`: the name
   * (ignoring case), what it looks like (`skeleton`: any user, look-alikes kept
   * from before migration 0027 included) and the e-mail address.
   */
  async takenKeys(
    keys: { username?: string | undefined; skeleton?: string | undefined; email?: string | undefined },
    exceptId?: number,
  ): Promise<{ username: boolean; skeleton: boolean; email: boolean }> {
    const { username, skeleton, email } = keys;
    if (username === undefined && skeleton === undefined && email === undefined) return { username: false, skeleton: false, email: false };
    let query = this.#db
      .selectFrom('users')
      .select(['username_key', 'username_skeleton', 'email_key'])
      .where((eb) =>
        eb.or([
          ...(username !== undefined ? [eb('username_key', '=', usernameKey(username))] : []),
          ...(skeleton !== undefined ? [eb('username_skeleton', '=', skeleton)] : []),
          ...(email !== undefined ? [eb('email_key', '=', emailKey(email))] : []),
        ]),
      );
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const rows = await query.execute();
    return {
      username: username !== undefined && rows.some((row) => row.username_key === usernameKey(username)),
      skeleton: skeleton !== undefined && rows.some((row) => row.username_skeleton === skeleton),
      email: email !== undefined && rows.some((row) => row.email_key === emailKey(email)),
    };
  }

  async insert(user: NewUser, now: string, db: Db = this.#db): Promise<UserRow> {
    return db
      .insertInto('users')
      .values({
        ...user,
        username_key: usernameKey(user.username),
        username_skeleton: usernameSkeleton(user.username),
        email_key: emailKey(user.email),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Updateable<UsersTable>, db: Db = this.#db): Promise<UserRow | undefined> {
    const values: Updateable<UsersTable> = { ...changes };
    if (changes.username !== undefined) {
      values.username_key = usernameKey(changes.username);
      values.username_skeleton = usernameSkeleton(changes.username);
    }
    if (changes.email !== undefined) values.email_key = emailKey(changes.email);
    return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(filter: UserListFilter, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
    let query = this.#db.selectFrom('users');
    if (filter.search !== undefined && filter.search !== '') {
      const term = filter.search;
      query = query.where((eb) => eb.or([containsText(this.#dialect, eb.ref('username'), term), containsText(this.#dialect, eb.ref('email'), term)]));
    }
    if (filter.role !== undefined) query = query.where('role', '=', filter.role);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('username_key').orderBy('id').offset(offset).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Members (accounts past activation, banned ones included) for the member list; ties go by id in the same direction. */
  async members(listing: MemberListing, offset: number, limit: number): Promise<{ rows: UserRow[]; total: number }> {
    let query = this.#db.selectFrom('users').where('status', '!=', 'pending');
    if (listing.search !== null) {
      // The key is lower-cased by JavaScript, which folds every script (SQLite's lower() folds only ASCII).
      const term = usernameKey(listing.search);
      query = query.where((eb) => containsText(this.#dialect, eb.ref('username_key'), term));
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy(MEMBER_SORT_COLUMNS[listing.sort], listing.order).orderBy('id', listing.order).offset(offset).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /**
   * Sets or clears a member's avatar; the file name it replaced (null: none).
   * `also` runs in the same transaction with the row as it was (a staff
   * removal's moderation log entry is written exactly when it happened).
   */
  async setAvatar(userId: number, avatar: string | null, now: string, also?: AlsoOnAvatarChange): Promise<{ replaced: string | null } | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      // PostgreSQL: held until commit, so two uploads at once each see what they replace (SQLite writes one at a time).
      const read = trx.selectFrom('users').select(['username', 'avatar']).where('id', '=', userId);
      const before = await (this.#dialect === 'postgres' ? read.forUpdate() : read).executeTakeFirst();
      if (before === undefined) return undefined;
      await trx.updateTable('users').set({ avatar, updated_at: now }).where('id', '=', userId).execute();
      await also?.(trx, before);
      return { replaced: before.avatar };
    });
  }

  /** Whether any member still shows this avatar file. */
  async avatarInUse(avatar: string): Promise<boolean> {
    return (await this.#db.selectFrom('users').select('id').where('avatar', '=', avatar).limit(1).executeTakeFirst()) !== undefined;
  }

  /** A ban's reason, end and author, or none (lifted). The status is the caller's (UsersService.update). */
  async setBan(userId: number, ban: { reason: string; until: string | null; by: number } | null, db: Db): Promise<void> {
    await db
      .updateTable('users')
      .set(ban === null ? { ban_reason: null, banned_until: null, banned_by: null } : { ban_reason: ban.reason, banned_until: ban.until, banned_by: ban.by })
      .where('id', '=', userId)
      .execute();
  }

  /** Every token and session of the user stops working. */
  async revokeCredentials(userId: number, now: string, db: Db = this.#db): Promise<void> {
    await db.updateTable('api_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }
}
