// SQL for API tokens and web sessions. Only hashes of the secrets are stored.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { joinedIntegers, type Dialect } from '../db/dialect.ts';
import { prepare, type PreparedQuery } from '../db/prepared.ts';
import type { Database, Role } from '../db/schema.ts';

export interface CredentialOwner {
  id: number;
  name: string;
  email: string;
  role: Role;
}

/** The owner with what every page's header shows of them. */
export interface OwnerWithCounts extends CredentialOwner {
  /** Private messages not opened yet (users.unread_messages). */
  unread_messages: number;
  /** Notifications not read yet (users.unread_notifications). */
  unread_notifications: number;
  /** The member's language and time zone settings (null: the browser's). */
  locale: string | null;
  time_zone: string | null;
  /** The forums the owner moderates (a grant of theirs or of an accepted group of theirs moderates there), ids joined by commas; null for none. */
  moderated_forums: string | null;
  /** The groups the owner is an accepted member of, ids joined by commas; null for none. */
  group_ids: string | null;
  /** Kept out of who is online (users.hide_online): 0/1 on SQLite, a boolean on PostgreSQL. */
  hide_online: boolean | number;
}

export interface TokenMatch extends OwnerWithCounts {
  token_id: number;
  last_used_at: string | null;
}

export interface SessionMatch extends OwnerWithCounts {
  csrf_token: string;
  /** The member's tracker transfer and seed bonus (tracker_user_stats), for every page's header; null before their first announce. */
  uploaded: number | null;
  downloaded: number | null;
  bonus_points: number | null;
}

/** What a token's and a session's look-up read of their owner (OwnerWithCounts): one list for both. */
const OWNER_COLUMNS = [
  'u.id',
  'u.username as name',
  'u.email',
  'u.role',
  'u.unread_messages',
  'u.unread_notifications',
  'u.locale',
  'u.time_zone',
  'u.hide_online',
] as const;

export class CredentialsRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  // Behind every signed-in request, so compiled once (db/prepared.ts).
  readonly #liveToken: PreparedQuery<{ tokenHash: string; now: string }, TokenMatch>;
  readonly #liveSession: PreparedQuery<{ idHash: string; now: string }, SessionMatch>;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#liveToken = prepare(db, (slot) =>
      db
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select([...OWNER_COLUMNS, 't.id as token_id', 't.last_used_at'])
        .select((eb) => [moderatedForumsOf(this.#dialect, eb), groupIdsOf(this.#dialect, eb)])
        .where('t.token_hash', '=', slot('tokenHash'))
        .where('t.revoked_at', 'is', null)
        .where('t.expires_at', '>', slot('now'))
        .where('u.status', '=', 'active'),
    );
    this.#liveSession = prepare(db, (slot) =>
      db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .leftJoin('tracker_user_stats as stats', 'stats.user_id', 'u.id')
        .select([...OWNER_COLUMNS, 's.csrf_token'])
        .select(['stats.uploaded', 'stats.downloaded', 'stats.bonus_points'])
        .select((eb) => [moderatedForumsOf(this.#dialect, eb), groupIdsOf(this.#dialect, eb)])
        .where('s.id_hash', '=', slot('idHash'))
        .where('s.expires_at', '>', slot('now'))
        .where('u.status', '=', 'active'),
    );
  }

  async insertToken(userId: number, tokenHash: string, now: string, expiresAt: string): Promise<void> {
    await this.#db.insertInto('api_tokens').values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt }).execute();
  }

  /** The active user behind a live (unexpired, unrevoked) token. */
  async findLiveToken(tokenHash: string, now: string): Promise<TokenMatch | undefined> {
    return (await this.#liveToken({ tokenHash, now }))[0];
  }

  async touchToken(tokenId: number, now: string): Promise<void> {
    await this.#db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
  }

  async revokeToken(tokenId: number, now: string): Promise<void> {
    await this.#db.updateTable('api_tokens').set({ revoked_at: now }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
  }

  async insertSession(idHash: string, userId: number, csrfToken: string, now: string, expiresAt: string): Promise<void> {
    await this.#db.insertInto('sessions').values({ id_hash: idHash, user_id: userId, csrf_token: csrfToken, created_at: now, expires_at: expiresAt }).execute();
  }

  async findLiveSession(idHash: string, now: string): Promise<SessionMatch | undefined> {
    return (await this.#liveSession({ idHash, now }))[0];
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.#db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Expired tokens and sessions are of no use to anyone; keep the tables small. */
  async deleteExpired(now: string): Promise<void> {
    await this.#db.deleteFrom('api_tokens').where('expires_at', '<=', now).execute();
    await this.#db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}

/**
 * The user's forums (docs/access.md: a grant whose `moderate` is set, to them
 * or to a group they are an accepted member of), as a subquery of a query on
 * `users as u`: index lookups, no second round trip. A forum may come twice
 * (both kinds). Credentials and the tracker's passkey look-up read it.
 */
export function moderatedForumsOf(dialect: Dialect, eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>) {
  return eb
    .selectFrom('forum_grants as fg')
    .select((inner) => joinedIntegers(dialect, inner.ref('fg.forum_id')).as('ids'))
    .where('fg.moderate', '=', true)
    .where((inner) =>
      inner.or([
        inner('fg.user_id', '=', inner.ref('u.id')),
        inner(
          'fg.group_id',
          'in',
          inner.selectFrom('group_members as gm').select('gm.group_id').whereRef('gm.user_id', '=', 'u.id').where('gm.status', '=', 'accepted'),
        ),
      ]),
    )
    .as('moderated_forums');
}

/** The user's accepted groups (docs/access.md), for the rule's `private` level; a subquery on `users as u`. */
export function groupIdsOf(dialect: Dialect, eb: ExpressionBuilder<Database & { u: Database['users'] }, 'u'>) {
  return eb
    .selectFrom('group_members as gm')
    .select((inner) => joinedIntegers(dialect, inner.ref('gm.group_id')).as('ids'))
    .whereRef('gm.user_id', '=', 'u.id')
    .where('gm.status', '=', 'accepted')
    .as('group_ids');
}
