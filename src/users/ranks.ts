// Ranks (migration 0040; docs/members.md, "Ranks"): titles earned by post
// count (phpBB's ranks) and special ranks an admin gives (TorrentPier's
// bb_ranks, all of them special), each with an optional image. A member's
// rank is their special one, else the earned one with the highest threshold
// they reached. The list is small and read beside every post, so it is kept
// in memory (db/snapshot.ts): an admin's change applies on the next request
// on every instance.
import type { Kysely } from 'kysely';
import { type Clock, isoNow } from '../clock.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { Snapshot } from '../db/snapshot.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { FieldErrorBag, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import { safeUrl } from '../http/safe-url.ts';
import { t } from '../i18n/messages.ts';
import { usernameKey } from './repository.ts';
import { fieldName } from '../i18n/field-names.ts';

/** TorrentPier's rank_title is VARCHAR(50). */
export const RANK_TITLE_MAX = 50;
export const RANK_IMAGE_URL_MAX = 500;

export interface Rank {
  id: number;
  title: string;
  /** Earned at this many posts; null: special, given by an admin. */
  minPosts: number | null;
  imageUrl: string | null;
}

export interface RankInput {
  title: string;
  min_posts: number | null;
  /** An http(s) address or a path on this site; empty or null: none. */
  image_url: string | null;
}

/** The rank a member shows: their special one, else the earned rank with the highest threshold they reached. */
export function rankOf(ranks: readonly Rank[], member: { rankId: number | null; postCount: number }): Rank | null {
  if (member.rankId !== null) {
    const special = ranks.find((rank) => rank.id === member.rankId);
    if (special !== undefined) return special;
  }
  let earned: Rank | null = null;
  for (const rank of ranks) {
    if (rank.minPosts !== null && rank.minPosts <= member.postCount && (earned === null || rank.minPosts > earned.minPosts!)) earned = rank;
  }
  return earned;
}

const RANKS_TOPIC = 'ranks';

export class Ranks {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #snapshot: Snapshot<Rank[]>;

  constructor(db: Kysely<Database>, database: { writes: WriteWatch; changes: ChangeFeed }, clock: Clock, onError: (error: unknown) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#snapshot = new Snapshot({ topic: RANKS_TOPIC, tables: new Set(['ranks']), load: () => this.#read() }, database, onError);
  }

  /** Every rank: the earned ones by threshold, then the special ones by title. */
  all(): Promise<Rank[]> {
    return this.#snapshot.current();
  }

  async get(id: number): Promise<Rank> {
    const rank = (await this.all()).find((found) => found.id === id);
    if (rank === undefined) throw new ModelNotFoundError('Rank', id);
    return rank;
  }

  async create(input: RankInput): Promise<Rank> {
    const values = checked(input);
    const at = isoNow(this.#clock);
    const row = await this.#written(() =>
      this.#db
        .insertInto('ranks')
        .values({ ...values, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    return this.get(row.id);
  }

  async update(id: number, input: RankInput): Promise<Rank> {
    await this.get(id);
    const values = checked(input);
    await this.#written(() =>
      this.#db
        .updateTable('ranks')
        .set({ ...values, updated_at: isoNow(this.#clock) })
        .where('id', '=', id)
        .execute(),
    );
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    const deleted = await this.#db.deleteFrom('ranks').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new ModelNotFoundError('Rank', id);
    this.#snapshot.changed();
  }

  /** Gives a member a special rank, or takes it back (null): they show their earned rank again. */
  async give(userId: number, rankId: number | null): Promise<void> {
    if (rankId !== null) {
      // A rank that does not exist is the field's error, as any reference to nothing is (422).
      const rank = (await this.all()).find((found) => found.id === rankId);
      if (rank === undefined) throw ValidationError.field('rank_id', t('validation.selected', { field: fieldName('rank_id') }));
      if (rank.minPosts !== null) throw ValidationError.field('rank_id', t('ranks.error.not_special'));
    }
    const updated = await this.#db.updateTable('users').set({ rank_id: rankId }).where('id', '=', userId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new ModelNotFoundError('User', userId);
  }

  /** The member of this name (any letter case), for the admin page's form. */
  memberNamed(name: string): Promise<{ id: number; username: string } | undefined> {
    return this.#db.selectFrom('users').select(['id', 'username']).where('username_key', '=', usernameKey(name)).executeTakeFirst();
  }

  /** The members holding a special rank, by name. */
  holders(): Promise<Array<{ id: number; username: string; rank_id: number }>> {
    return this.#db.selectFrom('users').select(['id', 'username', 'rank_id']).where('rank_id', 'is not', null).orderBy('username_key').execute() as Promise<
      Array<{ id: number; username: string; rank_id: number }>
    >;
  }

  async #written<T>(write: () => Promise<T>): Promise<T> {
    try {
      const result = await write();
      this.#snapshot.changed();
      return result;
    } catch (error) {
      // Two ranks cannot start at the same post count: the database's unique key says so.
      if (isUniqueViolation(error)) throw ValidationError.field('min_posts', t('ranks.error.threshold_taken'));
      throw error;
    }
  }

  async #read(): Promise<Rank[]> {
    const rows = await this.#db.selectFrom('ranks').select(['id', 'title', 'min_posts', 'image_url']).execute();
    const ranks = rows.map((row) => ({ id: row.id, title: row.title, minPosts: row.min_posts, imageUrl: row.image_url }));
    // Earned ranks first, by threshold; then the special ones, by title.
    const special = (rank: Rank): number => (rank.minPosts === null ? 1 : 0);
    return ranks.sort((a, b) => special(a) - special(b) || (a.minPosts ?? 0) - (b.minPosts ?? 0) || a.title.localeCompare(b.title));
  }
}

/** A rank's columns from its input, or 422 naming the field. */
function checked(input: RankInput): { title: string; min_posts: number | null; image_url: string | null } {
  const errors = new FieldErrorBag();
  const title = input.title.trim();
  if (title === '') errors.add('title', t('ranks.error.title'));
  const image = (input.image_url ?? '').trim();
  const imageUrl = image === '' ? null : (safeUrl(image) ?? null);
  if (image !== '' && imageUrl === null) errors.add('image_url', t('ranks.error.image_url'));
  errors.throwIfAny();
  return { title, min_posts: input.min_posts, image_url: imageUrl };
}
