// The tracker's figures: a user's (profile, bonus page) and the site's
// (GET /api/tracker/stats), plus the human form of points (bytes:
// i18n/sizes.ts).
import { type Clock, msNow } from '../clock.ts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { preparedList } from '../db/prepared.ts';
import type { RatioRule } from './config.ts';
import { ratioOf, ratioShown } from './ratio.ts';
import type { SwarmStore } from './swarm/store.ts';

export interface UserFigures {
  /** Bytes, after freeleech and exchanges. */
  uploaded: number;
  downloaded: number;
  /** Null until the rule's threshold is downloaded. */
  ratio: number | null;
  /** Hundredths of a point. */
  bonusPoints: number;
  /** Torrents the user seeds / leeches now (announced within the expiry time and not stopped). */
  seeding: number;
  leeching: number;
}

export interface SiteStats {
  torrents: number;
  peers: number;
  seeders: number;
  leechers: number;
  /** Bytes of all registered torrents. */
  total_size: number;
  /** Bytes counted by the tracker over all users. */
  transfer: { uploaded: number; downloaded: number };
}

export class TrackerFigures {
  readonly #db: Kysely<Database>;
  readonly #store: SwarmStore;
  readonly #ratio: RatioRule;
  readonly #expiryMs: number;
  readonly #clock: Clock;
  // Every topic page asks for its authors' transfer (the ratio beside their posts).
  readonly #transfers: (userIds: readonly number[]) => Promise<Array<{ user_id: number; uploaded: number; downloaded: number }>>;

  constructor(db: Kysely<Database>, store: SwarmStore, ratio: RatioRule, expiryMs: number, clock: Clock) {
    this.#db = db;
    this.#transfers = preparedList(db, (userIds) =>
      db.selectFrom('tracker_user_stats').select(['user_id', 'uploaded', 'downloaded']).where('user_id', 'in', userIds),
    );
    this.#store = store;
    this.#ratio = ratio;
    this.#expiryMs = expiryMs;
    this.#clock = clock;
  }

  async forUser(userId: number): Promise<UserFigures> {
    const since = new Date(msNow(this.#clock) - this.#expiryMs).toISOString();
    const [stats, active] = await Promise.all([
      this.#db.selectFrom('tracker_user_stats').select(['uploaded', 'downloaded', 'bonus_points']).where('user_id', '=', userId).executeTakeFirst(),
      this.#db
        .selectFrom('tracker_user_torrents')
        .select(['seeding', (eb) => eb.fn.countAll<number>().as('count')])
        .where('user_id', '=', userId)
        .where('active', '=', true)
        .where('last_announce_at', '>', since)
        .groupBy('seeding')
        .execute(),
    ]);
    const transfer = { uploaded: stats?.uploaded ?? 0, downloaded: stats?.downloaded ?? 0 };
    const count = (seeding: boolean) => Number(active.find((row) => Boolean(row.seeding) === seeding)?.count ?? 0);
    return {
      ...transfer,
      ratio: ratioShown(transfer, this.#ratio) ? ratioOf(transfer) : null,
      bonusPoints: stats?.bonus_points ?? 0,
      seeding: count(true),
      leeching: count(false),
    };
  }

  /** Bonus points (hundredths) of each of these users; users without tracker figures have 0. */
  async bonusPoints(userIds: readonly number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.#db.selectFrom('tracker_user_stats').select(['user_id', 'bonus_points']).where('user_id', 'in', userIds).execute();
    return new Map(rows.map((row) => [row.user_id, Number(row.bonus_points)]));
  }

  /** The ratio of each of these users who has downloaded past the rule's threshold (ratioShown); the others are absent. */
  async ratios(userIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.#transfers(userIds);
    const ratios = new Map<number, number>();
    for (const row of rows) {
      const transfer = { uploaded: Number(row.uploaded), downloaded: Number(row.downloaded) };
      const ratio = ratioShown(transfer, this.#ratio) ? ratioOf(transfer) : null;
      if (ratio !== null) ratios.set(row.user_id, ratio);
    }
    return ratios;
  }

  async site(): Promise<SiteStats> {
    const [torrents, transfer, peers] = await Promise.all([
      this.#db
        .selectFrom('torrents')
        .select([(eb) => eb.fn.countAll<number>().as('count'), sql<number>`coalesce(sum(size), 0)`.as('size')])
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('tracker_user_stats')
        .select([sql<number>`coalesce(sum(uploaded), 0)`.as('uploaded'), sql<number>`coalesce(sum(downloaded), 0)`.as('downloaded')])
        .executeTakeFirstOrThrow(),
      this.#store.totals(),
    ]);
    return {
      torrents: Number(torrents.count),
      peers: peers.peers,
      seeders: peers.seeders,
      leechers: peers.leechers,
      total_size: Number(torrents.size),
      transfer: { uploaded: Number(transfer.uploaded), downloaded: Number(transfer.downloaded) },
    };
  }
}
