// The notification centre's rows and settings (migration 0043;
// docs/notifications.md). Every change to a member's unread notifications
// moves users.unread_notifications in the same transaction, so the header's
// count (read with the session) is always the count of their unread rows:
// a row is written once (the unique index refuses a second of its kind for
// one post), and marked read once (`read_at is null` in the update).
import { sql, type Kysely, type SelectQueryBuilder, type Transaction, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database, ModerationAction, NotificationKind } from '../db/schema.ts';
import { countOf } from '../db/count.ts';

type Db = Kysely<Database> | Transaction<Database>;
type UnreadUpdate = UpdateQueryBuilder<Database, 'notifications', 'notifications', UpdateResult>;

export const NOTIFICATION_KINDS: readonly NotificationKind[] = ['reply', 'quote', 'mention', 'message', 'moderation', 'thanks', 'reseed', 'report'];

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

export interface Delivery {
  /** In the notification centre. */
  site: boolean;
  /** By e-mail too. */
  email: boolean;
}

/**
 * What a member gets until they choose otherwise: everything on the site; by
 * mail, the replies in topics they watch (what watching meant before the
 * centre existed). A private message's mail is its own older setting
 * (users.message_mails, off until chosen), kept as it was.
 */
export const DEFAULT_DELIVERY: Readonly<Record<NotificationKind, Delivery>> = {
  reply: { site: true, email: true },
  quote: { site: true, email: false },
  mention: { site: true, email: false },
  message: { site: true, email: false },
  moderation: { site: true, email: false },
  thanks: { site: true, email: false },
  reseed: { site: true, email: false },
  report: { site: true, email: false },
};

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  actorId: number | null;
  topicId?: number | null;
  postId?: number | null;
  messageId?: number | null;
  action?: ModerationAction | null;
}

/** A notification as the centre lists it, with the names of what it points at. */
export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  actor_id: number | null;
  actor_name: string | null;
  topic_id: number | null;
  topic_title: string | null;
  /** The forum the topic is in now: whether the member may still read it decides what the centre shows. */
  topic_forum_id: number | null;
  post_id: number | null;
  message_id: number | null;
  message_subject: string | null;
  action: ModerationAction | null;
  created_at: string;
  read_at: string | null;
}

/** Rows written in one statement: a popular topic's watchers come in runs of this many. */
const INSERT_BATCH = 500;

export class NotificationStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /**
   * Writes these notifications and counts them unread for their members, in
   * the caller's transaction; a second of one kind about one post for one
   * member is left out. Answers how many were written.
   */
  async add(db: Db, notifications: readonly NewNotification[], at: string): Promise<number> {
    let written = 0;
    for (let start = 0; start < notifications.length; start += INSERT_BATCH) {
      const rows = notifications.slice(start, start + INSERT_BATCH).map((notification) => ({
        user_id: notification.userId,
        kind: notification.kind,
        actor_id: notification.actorId,
        topic_id: notification.topicId ?? null,
        post_id: notification.postId ?? null,
        message_id: notification.messageId ?? null,
        action: notification.action ?? null,
        created_at: at,
      }));
      const inserted = await db
        .insertInto('notifications')
        .values(rows)
        .onConflict((conflict) => conflict.columns(['user_id', 'kind', 'post_id']).where('action', 'is', null).doNothing())
        .returning('user_id')
        .execute();
      written += inserted.length;
      const perUser = new Map<number, number>();
      for (const row of inserted) perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + 1);
      const byCount = Map.groupBy(perUser.keys(), (userId) => perUser.get(userId)!);
      for (const [count, userIds] of byCount) {
        await db
          .updateTable('users')
          .set({ unread_notifications: sql`unread_notifications + ${count}` })
          .where('id', 'in', userIds)
          .execute();
      }
    }
    return written;
  }

  /** A page of the member's notifications, newest first (unread ones only when asked), with how many there are. */
  async list(userId: number, page: { offset: number; limit: number; unreadOnly: boolean }): Promise<{ rows: NotificationRow[]; total: number }> {
    let base = this.#db.selectFrom('notifications').where('notifications.user_id', '=', userId);
    if (page.unreadOnly) base = base.where('notifications.read_at', 'is', null);
    const [rows, total] = await Promise.all([this.#shown(base.orderBy('notifications.id', 'desc').offset(page.offset).limit(page.limit)), countOf(base)]);
    return { rows, total };
  }

  /** One of the member's notifications (another member's is none). */
  async one(userId: number, id: number): Promise<NotificationRow | undefined> {
    const [row] = await this.#shown(this.#db.selectFrom('notifications').where('notifications.user_id', '=', userId).where('notifications.id', '=', id));
    return row;
  }

  /** The rows with the names of what they point at. */
  async #shown(query: SelectQueryBuilder<Database, 'notifications', object>): Promise<NotificationRow[]> {
    const rows = await query
      .leftJoin('users as actor', 'actor.id', 'notifications.actor_id')
      .leftJoin('topics', 'topics.id', 'notifications.topic_id')
      .leftJoin('private_messages', 'private_messages.id', 'notifications.message_id')
      .select([
        'notifications.id',
        'notifications.kind',
        'notifications.actor_id',
        'actor.username as actor_name',
        'notifications.topic_id',
        'topics.title as topic_title',
        'topics.forum_id as topic_forum_id',
        'notifications.post_id',
        'notifications.message_id',
        'private_messages.subject as message_subject',
        'notifications.action',
        'notifications.created_at',
        'notifications.read_at',
      ])
      .execute();
    return rows.map((row) => ({ ...row, created_at: String(row.created_at), read_at: row.read_at === null ? null : String(row.read_at) }));
  }

  async unreadCount(userId: number): Promise<number> {
    const row = await this.#db.selectFrom('users').select('unread_notifications').where('id', '=', userId).executeTakeFirst();
    return row?.unread_notifications ?? 0;
  }

  /** Marks these of the member's notifications read (others' ids are ignored); answers how many were unread. */
  markRead(userId: number, ids: readonly number[], at: string): Promise<number> {
    if (ids.length === 0) return Promise.resolve(0);
    return this.#marked(userId, at, (query) => query.where('id', 'in', ids));
  }

  /**
   * Marks read what the member has now seen: a message they opened, or the
   * posts of a topic up to the last one a page showed them.
   */
  markReadAbout(userId: number, seen: { messageId: number } | { topicId: number; upToPostId: number }, at: string): Promise<number> {
    return this.#marked(userId, at, (query) =>
      'messageId' in seen ? query.where('message_id', '=', seen.messageId) : query.where('topic_id', '=', seen.topicId).where('post_id', '<=', seen.upToPostId),
    );
  }

  /** Marks the member's unread notifications that `which` selects read, and takes them off their count, in one transaction. */
  async #marked(userId: number, at: string, which: (query: UnreadUpdate) => UnreadUpdate): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const unread = trx.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
      const count = Number((await which(unread).executeTakeFirst()).numUpdatedRows);
      if (count > 0) {
        await trx
          .updateTable('users')
          .set({ unread_notifications: sql`unread_notifications - ${count}` })
          .where('id', '=', userId)
          .execute();
      }
      return count;
    });
  }

  /** Marks every notification of the member read. */
  async markAllRead(userId: number, at: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
      await trx.updateTable('users').set({ unread_notifications: 0 }).where('id', '=', userId).execute();
    });
  }

  /** The member's choice for every kind (the defaults where they made none). */
  async settingsOf(userId: number): Promise<Record<NotificationKind, Delivery>> {
    const [rows, user] = await Promise.all([
      this.#db.selectFrom('notification_settings').select(['kind', 'site', 'email']).where('user_id', '=', userId).execute(),
      this.#db.selectFrom('users').select('message_mails').where('id', '=', userId).executeTakeFirst(),
    ]);
    const settings = { ...DEFAULT_DELIVERY };
    for (const row of rows) settings[row.kind] = { site: Boolean(row.site), email: Boolean(row.email) };
    settings.message = { ...settings.message, email: Boolean(user?.message_mails) };
    return settings;
  }

  /** Replaces the member's choices (every kind given), in one transaction. */
  async setSettings(userId: number, settings: Readonly<Record<NotificationKind, Delivery>>): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('notification_settings').where('user_id', '=', userId).execute();
      const differing = NOTIFICATION_KINDS.filter((kind) => {
        const wanted = settings[kind];
        const fallback = DEFAULT_DELIVERY[kind];
        // The mail of a private message is users.message_mails, not a row.
        return wanted.site !== fallback.site || (kind !== 'message' && wanted.email !== fallback.email);
      });
      if (differing.length > 0) {
        await trx
          .insertInto('notification_settings')
          .values(differing.map((kind) => ({ user_id: userId, kind, site: settings[kind].site, email: kind === 'message' ? false : settings[kind].email })))
          .execute();
      }
      await trx.updateTable('users').set({ message_mails: settings.message.email }).where('id', '=', userId).execute();
    });
  }

  /** Of these members, who gets a notification of this kind on the site, and who by mail. */
  async deliveryOf(kind: NotificationKind, userIds: readonly number[]): Promise<{ site: Set<number>; email: Set<number> }> {
    const site = new Set<number>();
    const email = new Set<number>();
    if (userIds.length === 0) return { site, email };
    const chosen = new Map<number, Delivery>();
    const rows = await this.#db
      .selectFrom('notification_settings')
      .select(['user_id', 'site', 'email'])
      .where('kind', '=', kind)
      .where('user_id', 'in', userIds)
      .execute();
    for (const row of rows) chosen.set(row.user_id, { site: Boolean(row.site), email: Boolean(row.email) });
    const messageMails =
      kind === 'message'
        ? new Set((await this.#db.selectFrom('users').select('id').where('id', 'in', userIds).where('message_mails', '=', true).execute()).map((row) => row.id))
        : null;
    for (const userId of userIds) {
      const delivery = chosen.get(userId) ?? DEFAULT_DELIVERY[kind];
      if (delivery.site) site.add(userId);
      if (messageMails === null ? delivery.email : messageMails.has(userId)) email.add(userId);
    }
    return { site, email };
  }
}
