// SQL of mass sends (docs/mass-mail.md): the sends themselves, the members
// each goes to, a batch of private messages written with the cursor in one
// transaction, the cursor after each mail, the lease an instance holds on the
// send it works on, and the members' mass-mail choice and unsubscribe key.
//
// Every write of the worker names its lease and the cursor it read: an
// instance that lost its lease (it stalled past it and another took over)
// changes nothing, and its batch of messages is rolled back with the cursor.
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { countOf } from '../db/count.ts';
import type { Database, MassSendsTable } from '../db/schema.ts';

export type MassSendRow = Selectable<MassSendsTable>;

/** What decides who a send goes to. */
export type Audience = Pick<MassSendRow, 'kind' | 'audience' | 'group_id' | 'role' | 'sender_id'>;

/** A member as a mass mail needs them: where to, in which language, and their unsubscribe key. */
export interface Recipient {
  id: number;
  username: string;
  email: string;
  locale: string | null;
  time_zone: string | null;
  mass_mail_key: string | null;
}

/** A batch of messages: how many it wrote, where the cursor stands after it; `done` once no member is left. */
export interface Progress {
  written: number;
  lastUserId: number;
  done: boolean;
}

/** The worker's hold on a send: who it is, and until when the claim it renews with each write lasts. */
export interface Lease {
  owner: string;
  until: string;
}

type Db = Kysely<Database> | Transaction<Database>;

export class MassSendRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insert(values: Insertable<MassSendsTable>): Promise<MassSendRow> {
    return this.#db.insertInto('mass_sends').values(values).returningAll().executeTakeFirstOrThrow();
  }

  find(id: number): Promise<MassSendRow | undefined> {
    return this.#db.selectFrom('mass_sends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byRequestKey(key: string): Promise<MassSendRow | undefined> {
    return this.#db.selectFrom('mass_sends').selectAll().where('request_key', '=', key).executeTakeFirst();
  }

  /** Newest first. */
  async list(offset: number, limit: number): Promise<{ rows: MassSendRow[]; total: number }> {
    const rows = this.#db.selectFrom('mass_sends').selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
    const total = countOf(this.#db.selectFrom('mass_sends'));
    return { rows: await rows, total: await total };
  }

  group(id: number): Promise<{ id: number; name: string } | undefined> {
    return this.#db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  /** Every group, hidden ones too (an administrator may write to any), by name. */
  groups(): Promise<Array<{ id: number; name: string }>> {
    return this.#db.selectFrom('user_groups').select(['id', 'name']).orderBy('name_key').orderBy('id').execute();
  }

  /** The newest account's id (0 with none): a send made now is for accounts up to it. */
  async newestUserId(): Promise<number> {
    const row = await this.#db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('newest'))
      .executeTakeFirst();
    return Number(row?.newest ?? 0);
  }

  /** How many members the audience holds now. */
  count(audience: Audience, now: string): Promise<number> {
    return countOf(this.#members(this.#db, audience, now));
  }

  /** The next members after the cursor, up to the ceiling, by ascending id. */
  next(audience: Audience, after: number, ceiling: number, now: string, limit: number, db: Db = this.#db): Promise<Recipient[]> {
    return this.#members(db, audience, now)
      .select(['users.id', 'users.username', 'users.email', 'users.locale', 'users.time_zone', 'users.mass_mail_key'])
      .where('users.id', '>', after)
      .where('users.id', '<=', ceiling)
      .orderBy('users.id')
      .limit(limit)
      .execute();
  }

  /**
   * One private message to each of the next `limit` members, their unread
   * counts and the send's cursor, in one transaction; the send is done when
   * fewer were left. Null when the lease or the cursor is not what this
   * worker holds: nothing is written then.
   */
  async deliverMessages(send: MassSendRow, after: number, lease: Lease, now: string, limit: number): Promise<Progress | null> {
    return this.#db
      .transaction()
      .execute(async (trx) => {
        const batch = await this.next(send, after, send.max_user_id, now, limit, trx);
        const ids = batch.map((member) => member.id);
        if (ids.length > 0) {
          await trx
            .insertInto('private_messages')
            .values(
              ids.map((id) => ({
                sender_id: send.sender_id,
                recipient_id: id,
                reply_to_id: null,
                subject: send.subject,
                body: send.body,
                created_at: now,
                // Not in the administrator's Sent folder (it would hold a copy per member): the send is their record.
                sender_deleted_at: now,
                mass_send_id: send.id,
              })),
            )
            .execute();
          await trx
            .updateTable('users')
            .set({ unread_messages: sql`unread_messages + 1` })
            .where('id', 'in', ids)
            .execute();
        }
        const progress = { written: ids.length, lastUserId: ids.at(-1) ?? after, done: ids.length < limit };
        if (!(await this.#advance(trx, send.id, after, progress.lastUserId, ids.length, progress.done, lease, now))) throw new LeaseLost();
        return progress;
      })
      .catch((error: unknown) => {
        if (error instanceof LeaseLost) return null;
        throw error;
      });
  }

  /** The cursor past one member (mailed: `sent` 1), the lease renewed; false when this worker no longer holds the send. */
  advance(sendId: number, after: number, lastUserId: number, sent: 0 | 1, lease: Lease, now: string): Promise<boolean> {
    return this.#advance(this.#db, sendId, after, lastUserId, sent, false, lease, now);
  }

  /** The send is done: no member is left after the cursor. */
  finish(sendId: number, after: number, lease: Lease, now: string): Promise<boolean> {
    return this.#advance(this.#db, sendId, after, after, 0, true, lease, now);
  }

  /** Sends being sent that no instance holds now (never claimed, released, or left by an instance that stopped). */
  claimable(now: string, limit: number): Promise<MassSendRow[]> {
    return this.#db
      .selectFrom('mass_sends')
      .selectAll()
      .where('status', '=', 'sending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Takes the send for this worker if nobody holds it; its row as claimed, or undefined when another got it first. */
  claim(id: number, lease: Lease, now: string): Promise<MassSendRow | undefined> {
    return this.#db
      .updateTable('mass_sends')
      .set({ lease_owner: lease.owner, lease_until: lease.until })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends the lease; false when this worker no longer holds it. */
  async renew(id: number, lease: Lease): Promise<boolean> {
    const renewed = await this.#db
      .updateTable('mass_sends')
      .set({ lease_until: lease.until })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .where('lease_owner', '=', lease.owner)
      .executeTakeFirst();
    return renewed.numUpdatedRows > 0n;
  }

  /** Lets go of the send, for the next start (or another instance) to go on with at once. */
  async release(id: number, owner: string): Promise<void> {
    await this.#db.updateTable('mass_sends').set({ lease_owner: null, lease_until: null }).where('id', '=', id).where('lease_owner', '=', owner).execute();
  }

  /** The member's unsubscribe key: theirs if they have one, else `fresh`, stored now. */
  async keyFor(userId: number, fresh: string): Promise<string> {
    await this.#db.updateTable('users').set({ mass_mail_key: fresh }).where('id', '=', userId).where('mass_mail_key', 'is', null).execute();
    const row = await this.#db.selectFrom('users').select('mass_mail_key').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.mass_mail_key ?? fresh;
  }

  /** The member an unsubscribe key belongs to. */
  async byKey(key: string): Promise<{ id: number; username: string; mass_mails: boolean } | undefined> {
    const row = await this.#db.selectFrom('users').select(['id', 'username', 'mass_mails']).where('mass_mail_key', '=', key).executeTakeFirst();
    return row === undefined ? undefined : { ...row, mass_mails: Boolean(row.mass_mails) };
  }

  async massMails(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('mass_mails').where('id', '=', userId).executeTakeFirstOrThrow();
    return Boolean(row.mass_mails);
  }

  async setMassMails(userId: number, on: boolean): Promise<void> {
    await this.#db.updateTable('users').set({ mass_mails: on }).where('id', '=', userId).execute();
  }

  /**
   * The members a send goes to: accounts in use (active, or banned with the
   * ban's end passed, as at login), of the audience; for mail only those who
   * take mass mail; for a message not its sender (no one writes to
   * themselves). A group deleted meanwhile holds no one.
   */
  #members(db: Db, audience: Audience, now: string) {
    let members = db
      .selectFrom('users')
      .where((eb) =>
        eb.or([
          eb('users.status', '=', 'active'),
          eb.and([eb('users.status', '=', 'banned'), eb('users.banned_until', 'is not', null), eb('users.banned_until', '<=', now)]),
        ]),
      );
    if (audience.kind === 'mail') members = members.where('users.mass_mails', '=', true);
    if (audience.kind === 'message' && audience.sender_id !== null) members = members.where('users.id', '<>', audience.sender_id);
    // A role audience without a role, or a group one whose group is gone, holds no one (ids start at 1).
    if (audience.audience === 'role') members = audience.role === null ? members.where('users.id', '<', 0) : members.where('users.role', '=', audience.role);
    if (audience.audience === 'group') {
      const groupId = audience.group_id ?? 0;
      members = members.where((eb) =>
        eb.exists(
          eb
            .selectFrom('group_members')
            .select('group_members.user_id')
            .whereRef('group_members.user_id', '=', 'users.id')
            .where('group_members.group_id', '=', groupId)
            .where('group_members.status', '=', 'accepted'),
        ),
      );
    }
    return members;
  }

  async #advance(db: Db, sendId: number, after: number, lastUserId: number, sent: number, done: boolean, lease: Lease, now: string): Promise<boolean> {
    const moved = await db
      .updateTable('mass_sends')
      .set({
        last_user_id: lastUserId,
        sent: sql`sent + ${sent}`,
        ...(done ? { status: 'done' as const, finished_at: now, lease_owner: null, lease_until: null } : { lease_until: lease.until }),
      })
      .where('id', '=', sendId)
      .where('status', '=', 'sending')
      .where('lease_owner', '=', lease.owner)
      .where('last_user_id', '=', after)
      .executeTakeFirst();
    return moved.numUpdatedRows > 0n;
  }
}

/** The worker's lease or cursor was not what it held: the transaction is rolled back. */
class LeaseLost extends Error {
  constructor() {
    super('the lease on this mass send was lost');
  }
}
