// Passkeys: the secret in a user's announce URL (tracker.md). 20 characters
// [A-Za-z0-9], random, created on first need, rotated from the profile,
// revoked by an admin. A passkey is never logged and never shown to anyone
// but its owner.
//
// The announce path looks passkeys up on every request, so lookups are
// answered from memory: passkey → user id, and a bounded list of passkeys
// known not to exist (clients with an old passkey keep announcing). Any
// change (creation, rotation, revocation) is published on the change feed and
// every instance empties its cache, so an old passkey stops working at once
// everywhere. The cache answers "which user"; whether that user may use the
// tracker (banned, inactive) is the caller's question.
import { type Clock, isoNow } from '../clock.ts';
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../db/change-feed.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';

export const PASSKEYS_TOPIC = 'tracker_passkeys';
export const PASSKEY_LENGTH = 20;
const PASSKEY_PATTERN = /^[A-Za-z0-9]{20}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Most entries kept in each of the two caches; past it the oldest go first. */
const CACHE_LIMIT = 100_000;

export function generatePasskey(): string {
  let passkey = '';
  for (let index = 0; index < PASSKEY_LENGTH; index++) passkey += ALPHABET[randomInt(ALPHABET.length)];
  return passkey;
}

/** Well-formed: 20 letters and digits (anything else is unknown without asking the database). */
export function isPasskeyShape(value: string): boolean {
  return PASSKEY_PATTERN.test(value);
}

export class PasskeyService {
  readonly #db: Kysely<Database>;
  readonly #changes: ChangeFeed;
  readonly #known = new Map<string, number>();
  readonly #unknown = new Set<string>();
  /** Bumped on every invalidation: a lookup that started before it does not fill the cache. */
  #generation = 0;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, changes: ChangeFeed, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.#changes = changes;
    changes.subscribe(PASSKEYS_TOPIC, () => this.#invalidate());
  }

  /** The user's passkey, created now if they have none. */
  async forUser(userId: number): Promise<string> {
    const existing = await this.current(userId);
    if (existing !== null) return existing;
    for (let attempt = 0; attempt < 3; attempt++) {
      const passkey = generatePasskey();
      try {
        await this.#db
          .insertInto('passkeys')
          .values({ user_id: userId, passkey, created_at: isoNow(this.#clock) })
          .execute();
        await this.#changed();
        return passkey;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another request created this user's passkey first, or (never in practice) the same random key exists.
        const created = await this.current(userId);
        if (created !== null) return created;
      }
    }
    throw new Error('could not create a unique passkey');
  }

  /** The user's passkey, or null if none was created yet (or it was revoked). */
  async current(userId: number): Promise<string | null> {
    const row = await this.#db.selectFrom('passkeys').select('passkey').where('user_id', '=', userId).executeTakeFirst();
    return row?.passkey ?? null;
  }

  /** A new passkey for the user; the old one stops working at once, on every instance. */
  async rotate(userId: number): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const passkey = generatePasskey();
      const now = isoNow(this.#clock);
      try {
        await this.#db
          .insertInto('passkeys')
          .values({ user_id: userId, passkey, created_at: now })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ passkey, created_at: now }))
          .execute();
        await this.#changed();
        return passkey;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error('could not create a unique passkey');
  }

  /** Removes the user's passkey (admin); a new one is created on their next need. Returns whether there was one. */
  async revoke(userId: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    await this.#changed();
    return Number(result.numDeletedRows) > 0;
  }

  /** The user id a passkey belongs to, or null. Answered from memory after the first lookup. */
  async lookup(passkey: string): Promise<number | null> {
    const cached = this.#known.get(passkey);
    if (cached !== undefined) return cached;
    if (!isPasskeyShape(passkey) || this.#unknown.has(passkey)) return null;
    const generation = this.#generation;
    const row = await this.#db.selectFrom('passkeys').select('user_id').where('passkey', '=', passkey).executeTakeFirst();
    if (generation === this.#generation) {
      if (row === undefined) remember(this.#unknown, passkey);
      else {
        if (this.#known.size >= CACHE_LIMIT) this.#known.delete(this.#known.keys().next().value!);
        this.#known.set(passkey, row.user_id);
      }
    }
    return row?.user_id ?? null;
  }

  async #changed(): Promise<void> {
    // publish() empties this instance's cache at once (local listeners run first), then tells the others.
    await this.#changes.publish(PASSKEYS_TOPIC);
  }

  #invalidate(): void {
    this.#generation++;
    this.#known.clear();
    this.#unknown.clear();
  }
}

function remember(set: Set<string>, value: string): void {
  if (set.size >= CACHE_LIMIT) set.delete(set.values().next().value!);
  set.add(value);
}
