// SQL for private messages. users.unread_messages changes in the same
// transaction as the rows it counts: a delivery adds one, the first opening
// or an unread message's removal from the inbox takes one away.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { countOf } from '../db/count.ts';
import type { Database, PrivateMessagesTable } from '../db/schema.ts';

export type Folder = 'inbox' | 'sent';

export type MessageRow = Selectable<PrivateMessagesTable> & {
  /** Null once the account is deleted. */
  sender_name: string | null;
  recipient_name: string | null;
};

export interface NewMessage {
  sender_id: number;
  recipient_id: number;
  reply_to_id: number | null;
  subject: string;
  body: string;
}

type Db = Kysely<Database> | Transaction<Database>;

export class MessagesRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.#db.transaction().execute(work);
  }

  /** The message as its sender or recipient sees it: none once they removed it from their folder. */
  findFor(id: number, userId: number, db: Db = this.#db): Promise<MessageRow | undefined> {
    return this.#withNames(db)
      .where('m.id', '=', id)
      .where((eb) =>
        eb.or([
          eb.and([eb('m.sender_id', '=', userId), eb('m.sender_deleted_at', 'is', null)]),
          eb.and([eb('m.recipient_id', '=', userId), eb('m.recipient_deleted_at', 'is', null)]),
        ]),
      )
      .executeTakeFirst();
  }

  async folder(userId: number, folder: Folder, offset: number, limit: number): Promise<{ rows: MessageRow[]; total: number }> {
    const owner = folder === 'inbox' ? 'recipient' : 'sender';
    const rows = this.#withNames(this.#db)
      .where(`m.${owner}_id`, '=', userId)
      .where(`m.${owner}_deleted_at`, 'is', null)
      .orderBy('m.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    const total = countOf(this.#db.selectFrom('private_messages').where(`${owner}_id`, '=', userId).where(`${owner}_deleted_at`, 'is', null));
    return { rows: await rows, total: await total };
  }

  async insert(message: NewMessage, now: string, db: Db): Promise<number> {
    const row = await db
      .insertInto('private_messages')
      .values({ ...message, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async addUnread(userId: number, delta: 1 | -1, db: Db): Promise<void> {
    await db
      .updateTable('users')
      .set({ unread_messages: sql`unread_messages + ${delta}` })
      .where('id', '=', userId)
      .execute();
  }

  /** Marks the message read if it was not; true when this call did (so exactly one opening counts). */
  async markRead(id: number, recipientId: number, now: string, db: Db): Promise<boolean> {
    const result = await db
      .updateTable('private_messages')
      .set({ read_at: now })
      .where('id', '=', id)
      .where('recipient_id', '=', recipientId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every unread message of the inbox read at once; the count goes to zero with them. */
  async markAllRead(recipientId: number, now: string): Promise<void> {
    await this.transaction(async (trx) => {
      await trx.updateTable('private_messages').set({ read_at: now }).where('recipient_id', '=', recipientId).where('read_at', 'is', null).execute();
      await trx.updateTable('users').set({ unread_messages: 0 }).where('id', '=', recipientId).execute();
    });
  }

  /** Takes the message out of one side's folder; the row goes once neither side keeps it. */
  async removeFrom(id: number, side: 'sender' | 'recipient', now: string, db: Db): Promise<void> {
    await db
      .updateTable('private_messages')
      .set(side === 'sender' ? { sender_deleted_at: now } : { recipient_deleted_at: now })
      .where('id', '=', id)
      .execute();
    await db
      .deleteFrom('private_messages')
      .where('id', '=', id)
      .where((eb) => eb.or([eb('sender_deleted_at', 'is not', null), eb('sender_id', 'is', null)]))
      .where((eb) => eb.or([eb('recipient_deleted_at', 'is not', null), eb('recipient_id', 'is', null)]))
      .execute();
  }

  async preferences(userId: number): Promise<{ unread_messages: number; message_mails: boolean }> {
    const row = await this.#db.selectFrom('users').select(['unread_messages', 'message_mails']).where('id', '=', userId).executeTakeFirstOrThrow();
    return { unread_messages: row.unread_messages, message_mails: Boolean(row.message_mails) };
  }

  async setMessageMails(userId: number, on: boolean): Promise<void> {
    await this.#db.updateTable('users').set({ message_mails: on }).where('id', '=', userId).execute();
  }

  #withNames(db: Db) {
    return db
      .selectFrom('private_messages as m')
      .leftJoin('users as s', 's.id', 'm.sender_id')
      .leftJoin('users as r', 'r.id', 'm.recipient_id')
      .selectAll('m')
      .select(['s.username as sender_name', 'r.username as recipient_name']);
  }
}
