// Thanks for releases (docs/tracker.md, "Thanks"; TorrentPier's bb_thx): a
// member who may see a release thanks its uploader once (the primary key says
// so, whatever the requests race), may take it back, and everyone who may see
// the release sees who thanked; the uploader is told (notifications, `thanks`)
// the first time each member thanks, and their profile counts the thanks
// their releases received.
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { countOf } from '../db/count.ts';
import type { Database } from '../db/schema.ts';
import { ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { t } from '../i18n/messages.ts';
import type { NotificationStore } from '../notifications/store.ts';
import type { TorrentView } from './torrents/service.ts';

export interface Thanker {
  user_id: number;
  username: string;
  created_at: string;
}

export class Thanks {
  readonly #db: Kysely<Database>;
  readonly #releases: { get(id: number, viewer: AuthUser | null): Promise<TorrentView> };
  readonly #notifications: NotificationStore;
  readonly #clock: Clock;

  constructor(
    db: Kysely<Database>,
    releases: { get(id: number, viewer: AuthUser | null): Promise<TorrentView> },
    notifications: NotificationStore,
    clock: Clock,
  ) {
    this.#db = db;
    this.#releases = releases;
    this.#notifications = notifications;
    this.#clock = clock;
  }

  /** Thanks the release's uploader (once: a second thanks changes nothing); answers the count. */
  async thank(torrentId: number, member: AuthUser): Promise<number> {
    const torrent = await this.#releases.get(torrentId, member);
    if (torrent.uploader_id === member.id) throw ValidationError.field('torrent', t('thanks.own'));
    const at = isoNow(this.#clock);
    const telling = torrent.uploader_id !== null && (await this.#notifications.deliveryOf('thanks', [torrent.uploader_id])).site.has(torrent.uploader_id);
    await this.#db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto('thanks')
        .values({ topic_id: torrent.topic_id, user_id: member.id, created_at: at })
        .onConflict((conflict) => conflict.columns(['topic_id', 'user_id']).doNothing())
        .returning('user_id')
        .execute();
      // Told of each member's first thanks only: taking it back and thanking again tells nothing new.
      if (added.length > 0 && telling) {
        const before = await trx
          .selectFrom('notifications')
          .select('id')
          .where('user_id', '=', torrent.uploader_id!)
          .where('kind', '=', 'thanks')
          .where('actor_id', '=', member.id)
          .where('topic_id', '=', torrent.topic_id)
          .executeTakeFirst();
        if (before === undefined)
          await this.#notifications.add(trx, [{ userId: torrent.uploader_id!, kind: 'thanks', actorId: member.id, topicId: torrent.topic_id }], at);
      }
    });
    return this.count(torrent.topic_id);
  }

  /** Takes the member's thanks back (none: nothing changes); answers the count. */
  async unthank(torrentId: number, member: AuthUser): Promise<number> {
    const torrent = await this.#releases.get(torrentId, member);
    await this.#db.deleteFrom('thanks').where('topic_id', '=', torrent.topic_id).where('user_id', '=', member.id).execute();
    return this.count(torrent.topic_id);
  }

  /** Who thanked for the release, newest first, and how many did. */
  async list(torrentId: number, viewer: AuthUser | null, page: PageRequest): Promise<{ rows: Thanker[]; total: number }> {
    const torrent = await this.#releases.get(torrentId, viewer);
    return this.ofTopic(torrent.topic_id, page);
  }

  async ofTopic(topicId: number, page: Pick<PageRequest, 'offset' | 'perPage'>): Promise<{ rows: Thanker[]; total: number }> {
    const base = this.#db.selectFrom('thanks').where('thanks.topic_id', '=', topicId);
    const [rows, total] = await Promise.all([
      base
        .innerJoin('users', 'users.id', 'thanks.user_id')
        .select(['thanks.user_id', 'users.username', 'thanks.created_at'])
        .orderBy('thanks.created_at', 'desc')
        .orderBy('thanks.user_id', 'desc')
        .offset(page.offset)
        .limit(page.perPage)
        .execute(),
      countOf(base),
    ]);
    return { rows: rows.map((row) => ({ ...row, created_at: String(row.created_at) })), total };
  }

  async count(topicId: number): Promise<number> {
    return countOf(this.#db.selectFrom('thanks').where('topic_id', '=', topicId));
  }

  async hasThanked(topicId: number, userId: number): Promise<boolean> {
    return (
      (await this.#db.selectFrom('thanks').select('user_id').where('topic_id', '=', topicId).where('user_id', '=', userId).executeTakeFirst()) !== undefined
    );
  }

  /** Thanks a member's releases received (those on topics whose torrent they uploaded). */
  received(userId: number): Promise<number> {
    return countOf(this.#db.selectFrom('thanks').innerJoin('torrents', 'torrents.topic_id', 'thanks.topic_id').where('torrents.uploader_id', '=', userId));
  }
}
