// Calls to reseed and the last seeder seen (docs/tracker.md, "Reseed"; issue
// 31 item 4): when a torrent has no seeder, a member who downloaded it may ask
// everyone who completed it to seed again, at most once a day per torrent
// (the call takes reseed_calls' row only when the last call is a day old, in
// one statement, so two members asking at once make one call). Those who
// completed it are told in the notification centre (`reseed`), and by mail if
// they chose so.
import { sql, type Kysely } from 'kysely';
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow, msNow } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import type { TopicNaming } from '../forum/mails.ts';
import { ApiError, ValidationError } from '../http/errors.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import { t } from '../i18n/messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { NotificationStore } from '../notifications/store.ts';
import { notificationSettingsPath } from '../urls/paths.ts';
import type { TorrentView } from './torrents/service.ts';

/** One call a day per torrent: enough to reach whoever can seed, too rare to pester them. */
export const RESEED_EVERY_MS = 24 * 60 * 60 * 1000;

export interface ReseedState {
  /** When a seeder last announced; null: none ever did (or not since the accounting began). */
  lastSeederAt: string | null;
  /** The last call to reseed, if any. */
  lastCallAt: string | null;
  /** When the next call may be made (null: now). */
  nextCallAt: string | null;
}

export class Reseeds {
  readonly #db: Kysely<Database>;
  readonly #releases: { get(id: number, viewer: AuthUser | null): Promise<TorrentView> };
  readonly #notifications: NotificationStore;
  readonly #mailer: Mailer;
  readonly #naming: TopicNaming;
  readonly #clock: Clock;

  constructor(
    db: Kysely<Database>,
    releases: { get(id: number, viewer: AuthUser | null): Promise<TorrentView> },
    tell: { notifications: NotificationStore; mailer: Mailer; naming: TopicNaming },
    clock: Clock,
  ) {
    this.#db = db;
    this.#releases = releases;
    this.#notifications = tell.notifications;
    this.#mailer = tell.mailer;
    this.#naming = tell.naming;
    this.#clock = clock;
  }

  /** The torrent's last seeder and last call, for its page and the API. */
  async state(torrentId: number): Promise<ReseedState> {
    const [seeder, call] = await Promise.all([
      this.#db
        .selectFrom('tracker_user_torrents')
        .select((eb) => eb.fn.max('last_announce_at').as('at'))
        .where('torrent_id', '=', torrentId)
        .where('seeding', '=', true)
        .executeTakeFirst(),
      this.#db.selectFrom('reseed_calls').select('called_at').where('torrent_id', '=', torrentId).executeTakeFirst(),
    ]);
    const lastCallAt = call === undefined ? null : String(call.called_at);
    const next = lastCallAt === null ? null : Date.parse(lastCallAt) + RESEED_EVERY_MS;
    return {
      lastSeederAt: seeder?.at === null || seeder?.at === undefined ? null : String(seeder.at),
      lastCallAt,
      nextCallAt: next === null || next <= msNow(this.#clock) ? null : new Date(next).toISOString(),
    };
  }

  /** Whether this member may call (they downloaded or announced the torrent). */
  async mayCall(torrentId: number, userId: number): Promise<boolean> {
    const [downloaded, announced] = await Promise.all([
      this.#db.selectFrom('torrent_downloads').select('id').where('torrent_id', '=', torrentId).where('user_id', '=', userId).executeTakeFirst(),
      this.#db.selectFrom('tracker_user_torrents').select('user_id').where('torrent_id', '=', torrentId).where('user_id', '=', userId).executeTakeFirst(),
    ]);
    return downloaded !== undefined || announced !== undefined;
  }

  /** Asks everyone who completed the torrent to seed it again; answers how many were told. */
  async call(torrentId: number, member: AuthUser): Promise<number> {
    const torrent = await this.#releases.get(torrentId, member);
    if (torrent.seeders > 0) throw ValidationError.field('torrent', t('reseed.has_seeders'));
    if (!(await this.mayCall(torrentId, member.id))) throw new ApiError('FORBIDDEN', t('reseed.not_downloaded'));
    const now = msNow(this.#clock);
    const at = isoNow(this.#clock);
    const completers = await this.#db
      .selectFrom('tracker_user_torrents')
      .innerJoin('users', 'users.id', 'tracker_user_torrents.user_id')
      .select(['users.id', 'users.email', 'users.locale', 'users.time_zone'])
      .where('tracker_user_torrents.torrent_id', '=', torrentId)
      .where('tracker_user_torrents.completed_at', 'is not', null)
      .where('users.id', '!=', member.id)
      .where('users.status', '=', 'active')
      .execute();
    const delivery = await this.#notifications.deliveryOf(
      'reseed',
      completers.map((row) => row.id),
    );
    const taken = await this.#db.transaction().execute(async (trx) => {
      // The row is taken only when the last call is a day old: of two members asking at once, one calls.
      const called = await trx
        .insertInto('reseed_calls')
        .values({ torrent_id: torrentId, user_id: member.id, called_at: at })
        .onConflict((conflict) =>
          conflict
            .column('torrent_id')
            .doUpdateSet({ user_id: member.id, called_at: at })
            .where(sql.ref('reseed_calls.called_at'), '<', new Date(now - RESEED_EVERY_MS).toISOString()),
        )
        .returning('torrent_id')
        .execute();
      if (called.length === 0) return false;
      await this.#notifications.add(
        trx,
        completers
          .filter((row) => delivery.site.has(row.id))
          .map((row) => ({ userId: row.id, kind: 'reseed' as const, actorId: member.id, topicId: torrent.topic_id })),
        at,
      );
      return true;
    });
    if (!taken) {
      const state = await this.state(torrentId);
      throw new ApiError('RATE_LIMITED', t('reseed.too_soon', { time: state.nextCallAt ?? at }), {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(((state.nextCallAt === null ? now : Date.parse(state.nextCallAt)) - now) / 1000))) },
      });
    }
    const heading = await this.#naming.heading({ id: torrent.topic_id, title: torrent.topic_title });
    const link = this.#mailer.link(heading.path);
    for (const row of completers.filter((candidate) => delivery.email.has(candidate.id))) {
      await this.#mailer.send(
        asReader(memberReader(row), () => ({
          to: row.email,
          subject: t('mail.reseed.subject', { title: heading.title }),
          text: t('mail.reseed.text', { title: heading.title, link, settings: this.#mailer.link(notificationSettingsPath()) }),
        })),
      );
    }
    return completers.length;
  }
}
