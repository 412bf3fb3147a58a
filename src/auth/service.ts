// Logging in and recognising who is calling: API tokens and web sessions.
import { type Clock, isoNow } from '../clock.ts';
import { ApiError } from '../http/errors.ts';
import type { UserRow, UsersRepository } from '../users/repository.ts';
import { usernameKey } from '../users/repository.ts';
import { banMessage, banOver } from '../users/ban.ts';
import { t } from '../i18n/messages.ts';
import type { CredentialOwner, CredentialsRepository, OwnerWithCounts } from './credentials-repository.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { PasswordHasher } from './passwords.ts';
import { newSecret, secretHash } from './secrets.ts';

/** Who is calling: the credentials' owner, with the forums they moderate besides their role. */
export interface AuthUser extends CredentialOwner {
  /**
   * The forums this user moderates, each alone (grants that moderate;
   * docs/access.md), read with the credentials; absent or empty: none. Staff
   * moderate everywhere without it.
   */
  moderatedForums?: readonly number[];
  /** The groups this user is an accepted member of (docs/access.md), read with the credentials; absent or empty: none. */
  groupIds?: readonly number[];
  /** Kept out of who is online (their setting), read with the credentials; absent: shown. */
  hidesOnline?: boolean;
}

export type Credentials = { kind: 'token'; tokenId: number } | { kind: 'session'; idHash: string; csrfToken: string };

export interface Authenticated {
  user: AuthUser;
  credentials: Credentials;
  /** Private messages the user has not opened yet (the header's count), read with the credentials. */
  unreadMessages: number;
  /** Notifications the user has not read yet (the header's count), read with the credentials. */
  unreadNotifications: number;
  /** The member's language and time zone settings, read with the credentials (null: the browser's). */
  reading: { locale: string | null; timeZone: string | null };
  /** The member's tracker transfer (bytes) and bonus (hundredths), read with a web session for the header; absent for tokens. */
  transfer?: MemberTransfer;
}

export interface MemberTransfer {
  uploaded: number;
  downloaded: number;
  bonusPoints: number;
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
  user: UserRow;
}

export interface StartedSession {
  cookieValue: string;
  csrfToken: string;
  expiresAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_DAYS = 14;
const TOKEN_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export class AuthService {
  readonly #users: UsersRepository;
  readonly #credentials: CredentialsRepository;
  readonly #throttle: LoginThrottle;
  readonly #tokenTtlDays: number;
  readonly #passwords: PasswordHasher;
  readonly #clock: Clock;

  constructor(
    users: UsersRepository,
    credentials: CredentialsRepository,
    throttle: LoginThrottle,
    tokenTtlDays: number,
    passwords: PasswordHasher,
    clock: Clock,
  ) {
    this.#clock = clock;
    this.#passwords = passwords;
    this.#users = users;
    this.#credentials = credentials;
    this.#throttle = throttle;
    this.#tokenTtlDays = tokenTtlDays;
  }

  /**
   * The user with this name and password, or 401 with one message for an
   * unknown name and a wrong password alike (the same work is done for both).
   * Only once the password is right does a pending or banned account say so (403).
   */
  async checkCredentials(username: string, password: string, address: string): Promise<UserRow> {
    // Reserved before the slow hash, so guesses sent at once cannot all get past the limit; a failure keeps it.
    const attempt = await this.#throttle.reserve(usernameKey(username), address);
    let user = await this.#users.findByUsername(username);
    const valid = user === undefined ? await this.#passwords.verifyAgainstNobody(password) : await this.#passwords.verify(password, user.password_hash);
    if (user === undefined || !valid) throw new ApiError('UNAUTHENTICATED', t('auth.wrong_credentials'));
    await this.#throttle.succeeded(attempt);
    // An imported (bcrypt, md5) or cheaper hash becomes ours once the password is known.
    if (this.#passwords.needsRehash(user.password_hash)) {
      await this.#users.update(user.id, { password_hash: await this.#passwords.hash(password) });
    }
    if (user.status === 'banned') {
      if (!banOver(user, isoNow(this.#clock))) throw new ApiError('FORBIDDEN', banMessage(user));
      // The ban has ended: lifted now, at the member's first login after it.
      user = (await this.#users.update(user.id, { status: 'active', ban_reason: null, banned_until: null, banned_by: null })) ?? user;
    }
    if (user.status !== 'active') throw new ApiError('FORBIDDEN', t('auth.not_activated'));
    return user;
  }

  async issueToken(user: UserRow): Promise<IssuedToken> {
    const token = newSecret(32);
    const now = this.#clock.now();
    const expiresAt = new Date(now.getTime() + this.#tokenTtlDays * DAY_MS).toISOString();
    await this.#credentials.insertToken(user.id, secretHash(token), now.toISOString(), expiresAt);
    return { token, expiresAt, user };
  }

  async authenticateToken(token: string): Promise<Authenticated | null> {
    const now = this.#clock.now();
    const match = await this.#credentials.findLiveToken(secretHash(token), now.toISOString());
    if (match === undefined) return null;
    // Recording use on every request would make every read a write; hourly is enough to spot stale tokens.
    if (match.last_used_at === null || now.getTime() - Date.parse(match.last_used_at) > TOKEN_TOUCH_INTERVAL_MS) {
      await this.#credentials.touchToken(match.token_id, now.toISOString());
    }
    return {
      user: owner(match),
      credentials: { kind: 'token', tokenId: match.token_id },
      unreadMessages: match.unread_messages,
      unreadNotifications: match.unread_notifications,
      reading: readingOf(match),
    };
  }

  revokeToken(tokenId: number): Promise<void> {
    return this.#credentials.revokeToken(tokenId, isoNow(this.#clock));
  }

  async startSession(userId: number): Promise<StartedSession> {
    const cookieValue = newSecret(32);
    const csrfToken = newSecret(24);
    const now = this.#clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY_MS).toISOString();
    await this.#credentials.insertSession(secretHash(cookieValue), userId, csrfToken, now.toISOString(), expiresAt);
    return { cookieValue, csrfToken, expiresAt };
  }

  async authenticateSession(cookieValue: string): Promise<Authenticated | null> {
    const idHash = secretHash(cookieValue);
    const match = await this.#credentials.findLiveSession(idHash, isoNow(this.#clock));
    if (match === undefined) return null;
    return {
      user: owner(match),
      credentials: { kind: 'session', idHash, csrfToken: match.csrf_token },
      unreadMessages: match.unread_messages,
      unreadNotifications: match.unread_notifications,
      reading: readingOf(match),
      transfer: { uploaded: Number(match.uploaded ?? 0), downloaded: Number(match.downloaded ?? 0), bonusPoints: Number(match.bonus_points ?? 0) },
    };
  }

  endSession(idHash: string): Promise<void> {
    return this.#credentials.deleteSession(idHash);
  }

  deleteExpired(): Promise<void> {
    return this.#credentials.deleteExpired(isoNow(this.#clock));
  }
}

function owner(match: OwnerWithCounts): AuthUser {
  return {
    id: match.id,
    name: match.name,
    email: match.email,
    role: match.role,
    moderatedForums: idsOf(match.moderated_forums),
    groupIds: idsOf(match.group_ids),
    hidesOnline: Boolean(match.hide_online),
  };
}

/** "7,3,7" (the database's comma-joined ids) → [3, 7]: ascending, each once. */
export function idsOf(joined: string | null): number[] {
  return joined === null || joined === '' ? [] : [...new Set(joined.split(',').map(Number))].sort((a, b) => a - b);
}

function readingOf(match: { locale: string | null; time_zone: string | null }): Authenticated['reading'] {
  return { locale: match.locale, timeZone: match.time_zone };
}
