// The board's figures under the index (TorrentPier's "statistics"): topics and
// posts written, members, the newest member. Counted at most once a minute:
// the index is the most viewed page, and these are sums over whole tables.
import type { Kysely } from 'kysely';
import { atMostEvery, type Clock } from '../clock.ts';
import type { Database } from '../db/schema.ts';

export interface BoardFigures {
  topics: number;
  posts: number;
  members: number;
  newest: { id: number; name: string } | null;
}

const FRESH_MS = 60_000;

export class BoardStats {
  readonly #db: Kysely<Database>;
  /** The figures, counted at most once per FRESH_MS. */
  readonly current: () => Promise<BoardFigures>;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.current = atMostEvery(FRESH_MS, clock, () => this.#count());
  }

  async #count(): Promise<BoardFigures> {
    const [content, members, newest] = await Promise.all([
      this.#db
        .selectFrom('forums')
        .select((eb) => [
          eb.fn.coalesce(eb.fn.sum<number>('topics_count'), eb.lit(0)).as('topics'),
          eb.fn.coalesce(eb.fn.sum<number>('posts_count'), eb.lit(0)).as('posts'),
        ])
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow(),
      this.#db.selectFrom('users').select(['id', 'username']).where('status', '=', 'active').orderBy('id', 'desc').limit(1).executeTakeFirst(),
    ]);
    return {
      topics: Number(content.topics),
      posts: Number(content.posts),
      members: Number(members.count),
      newest: newest === undefined ? null : { id: newest.id, name: newest.username },
    };
  }
}
