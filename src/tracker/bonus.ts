// The seed bonus (tracker.md): every window (10 minutes by default, aligned
// to the clock) each user seeding at least one torrent is credited for the
// time they seeded in that window, at the hourly rate of their tier (by the
// number of torrents they seeded). Points are kept in hundredths.
//
// Time seeded comes from the peers' seen-times in the swarm store: a seeding
// peer counts from when it became a seeder (seedSince) until one announce
// interval after it was last heard from (when its next announce was due),
// or the window's end, whichever is first. A user's peers are merged, so two
// torrents seeded at once count the wall-clock time once (the tier rewards
// seeding many). Only the window that just ended is credited, clipped to
// this process's start: time while no instance ran is never credited, and
// a window missed then is not credited later.
//
// Exactly once per window, whatever the number of instances: the window's
// row (unique start) is inserted in the crediting transaction; a second
// instance's insert fails (PostgreSQL: after the first commits, behind the
// advisory lock) and it credits nothing.
//
// The exchange (points → upload credit) is one transaction: its history row
// carries the form's idempotency key (unique), then the balance is reduced
// only where it covers the price. A second submit of the same form finds the
// key and changes nothing; two different submits never take the balance
// below zero.
import { type Clock, isoNow, msNow } from '../clock.ts';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { isUniqueViolation, lockForTransaction, type Dialect } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { GIB, type BonusTier, type TrackerConfig } from './config.ts';
import type { SeedingPeer, SwarmStore } from './swarm/store.ts';

export interface WindowResult {
  windowStart: string;
  /** False when another instance (or an earlier run) had credited this window. */
  credited: boolean;
  users: number;
  points: number;
}

export interface UserCredit {
  userId: number;
  seconds: number;
  torrents: number;
  /** Hundredths of a point. */
  points: number;
}

export type ExchangeResult = { ok: true; applied: boolean; points: number; uploadBytes: number } | { ok: false; reason: 'unknown-offer' | 'not-enough-points' };

export interface BonusHistoryEntry {
  kind: 'seeding' | 'exchange';
  points: number;
  seconds: number | null;
  torrents: number | null;
  uploadBytes: number | null;
  at: string;
}

export class SeedBonus {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #store: SwarmStore;
  readonly #settings: TrackerConfig;
  readonly #log: Logger;
  readonly #clock: Clock;
  /** Time before which nothing is credited: this process's start. */
  readonly #startedAt: number;
  #timer: NodeJS.Timeout | undefined;

  /** `clock`: the swarm's clock (its peers' times come from it); `startedAt` defaults to its now. */
  constructor(db: Kysely<Database>, dialect: Dialect, store: SwarmStore, settings: TrackerConfig, log: Logger, clock: Clock, startedAt = msNow(clock)) {
    this.#db = db;
    this.#dialect = dialect;
    this.#store = store;
    this.#settings = settings;
    this.#log = log;
    this.#clock = clock;
    this.#startedAt = startedAt;
  }

  get windowMs(): number {
    return this.#settings.bonus.intervalSeconds * 1000;
  }

  /** Runs the job shortly after each window ends. */
  start(): void {
    const schedule = () => {
      const now = msNow(this.#clock);
      const next = Math.floor(now / this.windowMs) * this.windowMs + this.windowMs;
      this.#timer = setTimeout(
        () => {
          this.creditWindowEndingAt(next).catch((error: unknown) => this.#log.warn({ err: error }, 'seed bonus: crediting a window failed'));
          schedule();
        },
        next - now + 1000,
      );
      this.#timer.unref();
    };
    schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  /** Credits the window [end - window, end), once. `end` must be a window boundary. */
  async creditWindowEndingAt(end: number): Promise<WindowResult> {
    const start = end - this.windowMs;
    const windowStart = new Date(start).toISOString();
    const credits = creditsFor(
      await this.#store.seeders(end),
      Math.max(start, this.#startedAt),
      end,
      this.#settings.announceInterval * 1000,
      this.#settings.bonus.tiers,
    );
    const now = isoNow(this.#clock);
    try {
      return await this.#db.transaction().execute(async (trx) => {
        await lockForTransaction(trx, this.#dialect, `tracker_bonus_window:${windowStart}`);
        const total = credits.reduce((sum, credit) => sum + credit.points, 0);
        await trx
          .insertInto('tracker_bonus_windows')
          .values({
            window_start: windowStart,
            window_end: new Date(end).toISOString(),
            users_credited: credits.length,
            points_credited: total,
            credited_at: now,
          })
          .execute();
        const existing = new Set(
          credits.length === 0
            ? []
            : (
                await trx
                  .selectFrom('users')
                  .select('id')
                  .where(
                    'id',
                    'in',
                    credits.map((credit) => credit.userId),
                  )
                  .execute()
              ).map((row) => row.id),
        );
        const paid = credits.filter((credit) => existing.has(credit.userId) && credit.points > 0);
        for (let at = 0; at < paid.length; at += 200) {
          const chunk = paid.slice(at, at + 200);
          await trx
            .insertInto('tracker_user_stats')
            .values(chunk.map((credit) => ({ user_id: credit.userId, bonus_points: credit.points, updated_at: now })))
            .onConflict((oc) =>
              oc
                .column('user_id')
                .doUpdateSet({ bonus_points: sql`tracker_user_stats.bonus_points + excluded.bonus_points`, updated_at: sql`excluded.updated_at` }),
            )
            .execute();
          await trx
            .insertInto('tracker_bonus_history')
            .values(
              chunk.map((credit) => ({
                user_id: credit.userId,
                kind: 'seeding' as const,
                points: credit.points,
                seconds: credit.seconds,
                torrents: credit.torrents,
                upload_bytes: null,
                window_start: windowStart,
                idempotency_key: null,
                created_at: now,
              })),
            )
            .execute();
        }
        return { windowStart, credited: true, users: paid.length, points: paid.reduce((sum, credit) => sum + credit.points, 0) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return { windowStart, credited: false, users: 0, points: 0 };
      throw error;
    }
  }

  /** The exchange offers, with their price in hundredths of a point. */
  offers(): Array<{ gib: number; price: number }> {
    return this.#settings.bonus.offersGib.map((gib) => ({ gib, price: gib * this.#settings.bonus.hundredthsPerGib }));
  }

  /** Points → upload credit, once per idempotency key, never below zero. */
  async exchange(userId: number, gib: number, idempotencyKey: string): Promise<ExchangeResult> {
    const offer = this.offers().find((candidate) => candidate.gib === gib);
    if (offer === undefined) return { ok: false, reason: 'unknown-offer' };
    const uploadBytes = gib * GIB;
    const key = `${userId}:${idempotencyKey}`;
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const now = isoNow(this.#clock);
        await trx
          .insertInto('tracker_bonus_history')
          .values({
            user_id: userId,
            kind: 'exchange',
            points: -offer.price,
            seconds: null,
            torrents: null,
            upload_bytes: uploadBytes,
            window_start: null,
            idempotency_key: key,
            created_at: now,
          })
          .execute();
        const paid = await trx
          .updateTable('tracker_user_stats')
          .set((eb) => ({ bonus_points: eb('bonus_points', '-', offer.price), uploaded: eb('uploaded', '+', uploadBytes), updated_at: now }))
          .where('user_id', '=', userId)
          .where('bonus_points', '>=', offer.price)
          .executeTakeFirst();
        if (Number(paid.numUpdatedRows) === 0) throw new NotEnoughPoints();
        return { ok: true as const, applied: true, points: offer.price, uploadBytes };
      });
    } catch (error) {
      if (error instanceof NotEnoughPoints) return { ok: false, reason: 'not-enough-points' };
      if (isUniqueViolation(error)) return { ok: true, applied: false, points: offer.price, uploadBytes };
      throw error;
    }
  }

  /** Balance in hundredths. */
  async balance(userId: number): Promise<number> {
    const row = await this.#db.selectFrom('tracker_user_stats').select('bonus_points').where('user_id', '=', userId).executeTakeFirst();
    return row?.bonus_points ?? 0;
  }

  async history(userId: number, limit = 50): Promise<BonusHistoryEntry[]> {
    const rows = await this.#db
      .selectFrom('tracker_bonus_history')
      .select(['kind', 'points', 'seconds', 'torrents', 'upload_bytes', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      points: row.points,
      seconds: row.seconds,
      torrents: row.torrents,
      uploadBytes: row.upload_bytes,
      at: row.created_at,
    }));
  }
}

class NotEnoughPoints extends Error {}

/**
 * Each user's seeded time within [from, to): the union of their seeding
 * peers' spans [seedSince, min(lastSeen + interval, to)], the number of
 * torrents seeded in it, and the points for it at their tier's rate.
 */
export function creditsFor(seeders: readonly SeedingPeer[], from: number, to: number, intervalMs: number, tiers: readonly BonusTier[]): UserCredit[] {
  if (to <= from) return [];
  const byUser = new Map<number, { spans: Array<[number, number]>; torrents: Set<number> }>();
  for (const peer of seeders) {
    const begin = Math.max(peer.seedSince, from);
    const end = Math.min(peer.lastSeen + intervalMs, to);
    if (end <= begin) continue;
    let entry = byUser.get(peer.userId);
    if (entry === undefined) byUser.set(peer.userId, (entry = { spans: [], torrents: new Set() }));
    entry.spans.push([begin, end]);
    entry.torrents.add(peer.swarm);
  }
  const credits: UserCredit[] = [];
  for (const [userId, { spans, torrents }] of byUser) {
    spans.sort((a, b) => a[0] - b[0]);
    let total = 0;
    let [curStart, curEnd] = spans[0]!;
    for (const [begin, end] of spans.slice(1)) {
      if (begin <= curEnd) curEnd = Math.max(curEnd, end);
      else {
        total += curEnd - curStart;
        [curStart, curEnd] = [begin, end];
      }
    }
    total += curEnd - curStart;
    const seconds = Math.floor(total / 1000);
    const rate = tierRate(tiers, torrents.size);
    credits.push({ userId, seconds, torrents: torrents.size, points: Math.floor((rate * seconds) / 3600) });
  }
  return credits;
}

/** Hundredths per hour for a user seeding `torrents` torrents. */
export function tierRate(tiers: readonly BonusTier[], torrents: number): number {
  let rate = 0;
  for (const tier of tiers) if (torrents >= tier.fromTorrents) rate = tier.hundredthsPerHour;
  return rate;
}
