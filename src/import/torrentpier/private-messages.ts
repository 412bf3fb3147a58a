// bb_privmsgs with bb_privmsgs_text → private_messages. Upstream keeps one
// row per mailbox copy (phpBB 2's model): a message waits as one NEW/UNREAD
// row that is both in the recipient's Inbox and the sender's Outbox; when the
// recipient first reads it, that row becomes READ and a SENT copy with a new
// id is made for the sender. Here a message is one row with a side for each
// member, so the copies are merged:
//   pass 1  every recipient-side row (READ, NEW, UNREAD, SAVED_IN) becomes a
//           message, id kept; a READ or SAVED_IN one is taken as deleted by
//           its sender until pass 2 finds the sender's copy;
//   pass 2  every sender-side copy (SENT, SAVED_OUT) is matched on sender,
//           recipient, date and subject (the schema facts' key) with a message
//           of pass 1 whose sender side is still open, and gives it back to
//           the sender; a copy without a match (its recipient deleted theirs)
//           becomes a message of its own, id kept.
// Both passes stream in id order, so memory stays flat whatever the size.
// Afterwards each member's unread count is recounted from what arrived.
import type mysql from 'mysql2/promise';
import { sql, type Insertable } from 'kysely';
import { countOf } from '../../db/count.ts';
import type { PrivateMessagesTable } from '../../db/schema.ts';
import { chunks, int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import type { IdSet } from './id-set.ts';
import { readQueryBatches } from './source.ts';
import { decodeEntities, firstTime } from './text.ts';

/** privmsgs_type values (init_bb.php). */
export const PM_TYPE = { READ: 0, NEW: 1, SENT: 2, SAVED_IN: 3, SAVED_OUT: 4, UNREAD: 5 } as const;

const SENDER_COPIES: readonly number[] = [PM_TYPE.SENT, PM_TYPE.SAVED_OUT];
const RECIPIENT_ROWS: readonly number[] = [PM_TYPE.READ, PM_TYPE.NEW, PM_TYPE.SAVED_IN, PM_TYPE.UNREAD];

/** An index the import needs for a while only (dropped before it ends). */
const MATCH_INDEX = 'private_messages_import_match';

export interface UpstreamMessage {
  privmsgs_id: number;
  privmsgs_type: number;
  privmsgs_subject: string;
  privmsgs_from_userid: number;
  privmsgs_to_userid: number;
  privmsgs_date: number;
  /** Null when the message has no text row. */
  privmsgs_text: string | null;
}

export type MessageInsert = Insertable<PrivateMessagesTable> & { id: number };

export const NO_TEXT_REASON = 'the message has no text row upstream';
export const UNKNOWN_TYPE_REASON = 'unknown privmsgs_type';
export const NOBODY_KEEPS_REASON = 'neither member of the message was imported, or the one who was had deleted it';
export const MERGED_REASON = "the sender's copy of a message: merged into that message";

/**
 * One upstream row as a message of its own. A recipient-side row (pass 1) is
 * kept for the sender only while unread (upstream's Outbox); pass 2 opens the
 * sender side again for a read one whose SENT copy exists. A sender-side copy
 * (pass 2, unmatched) is one the recipient deleted.
 */
export function mapMessage(row: UpstreamMessage, users: IdSet, now: string): Mapped<MessageInsert> {
  if (row.privmsgs_text === null) return skip(NO_TEXT_REASON);
  const senderCopy = SENDER_COPIES.includes(row.privmsgs_type);
  if (!senderCopy && !RECIPIENT_ROWS.includes(row.privmsgs_type)) return skip(`${UNKNOWN_TYPE_REASON} ${row.privmsgs_type}`);
  const unread = row.privmsgs_type === PM_TYPE.NEW || row.privmsgs_type === PM_TYPE.UNREAD;
  const senderId = users.has(row.privmsgs_from_userid) ? row.privmsgs_from_userid : null;
  const recipientId = users.has(row.privmsgs_to_userid) ? row.privmsgs_to_userid : null;
  const created = firstTime(now, row.privmsgs_date);
  const senderKeeps = senderId !== null && (senderCopy || unread);
  const recipientKeeps = recipientId !== null && !senderCopy;
  // A recipient-side row may still get its sender back in pass 2; a copy of the sender's is theirs alone.
  const mayMatch = !senderCopy && !unread && senderId !== null;
  if (!senderKeeps && !recipientKeeps && !mayMatch) return skip(NOBODY_KEEPS_REASON);
  return keep({
    id: row.privmsgs_id,
    sender_id: senderId,
    recipient_id: recipientId,
    reply_to_id: null,
    subject: decodeEntities(row.privmsgs_subject).trim() || '(no subject)',
    body: decodeEntities(row.privmsgs_text),
    created_at: created,
    // Upstream keeps no reading time: a read message counts as read when it was sent.
    read_at: unread ? null : created,
    sender_deleted_at: senderKeeps ? null : now,
    recipient_deleted_at: recipientKeeps ? null : now,
  });
}

function upstreamMessage(row: mysql.RowDataPacket): UpstreamMessage {
  const text: unknown = row['privmsgs_text'];
  return {
    privmsgs_id: int(row['privmsgs_id']),
    privmsgs_type: int(row['privmsgs_type']),
    privmsgs_subject: String(row['privmsgs_subject'] ?? ''),
    privmsgs_from_userid: int(row['privmsgs_from_userid']),
    privmsgs_to_userid: int(row['privmsgs_to_userid']),
    privmsgs_date: int(row['privmsgs_date']),
    privmsgs_text: text === null || text === undefined ? null : Buffer.isBuffer(text) ? text.toString('utf8') : String(text),
  };
}

export async function importPrivateMessages(ctx: ImportContext, total: number): Promise<void> {
  const { report } = ctx;
  report.table('bb_privmsgs');
  ctx.progress.start('bb_privmsgs', total);
  for (const pass of ['recipient', 'sender'] as const) {
    // Pass 2 looks each copy up by sender and date; the service's own indexes would scan a member's whole mailbox.
    if (pass === 'sender') await ctx.target.db.schema.createIndex(MATCH_INDEX).on('private_messages').columns(['sender_id', 'created_at']).execute();
    const types = (pass === 'recipient' ? RECIPIENT_ROWS : SENDER_COPIES).join(', ');
    const batches = readQueryBatches(ctx.source, {
      select:
        'SELECT m.privmsgs_id, m.privmsgs_type, m.privmsgs_subject, m.privmsgs_from_userid, m.privmsgs_to_userid, m.privmsgs_date, t.privmsgs_text' +
        ` FROM (SELECT * FROM bb_privmsgs WHERE privmsgs_type IN (${types})) m LEFT JOIN bb_privmsgs_text t ON t.privmsgs_text_id = m.privmsgs_id`,
      key: 'm.privmsgs_id',
      keyAlias: 'privmsgs_id',
      batchSize: ctx.batchSize,
    });
    for await (const batch of batches) {
      const rows: MessageInsert[] = [];
      for (const raw of batch) {
        const upstream = upstreamMessage(raw);
        report.read('bb_privmsgs');
        const mapped = mapMessage(upstream, ctx.imported.users, ctx.now);
        if (!mapped.ok) report.skipped('bb_privmsgs', mapped.reason, upstream.privmsgs_id);
        else rows.push(mapped.row);
      }
      const written = pass === 'recipient' ? await insert(ctx, rows) : await mergeSenderCopies(ctx, rows);
      report.imported('bb_privmsgs', written.imported);
      if (written.merged > 0) report.skipped('bb_privmsgs', MERGED_REASON, null, written.merged);
      ctx.progress.advance(batch.length);
    }
  }
  await ctx.target.db.schema.dropIndex(MATCH_INDEX).execute();
  await skipUnkept(ctx);
  await recountUnread(ctx);
  ctx.progress.finish();
}

async function insert(ctx: ImportContext, rows: readonly MessageInsert[]): Promise<{ imported: number; merged: number }> {
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const part of chunks(rows, 500)) await trx.insertInto('private_messages').values(part).execute();
  });
  return { imported: rows.length, merged: 0 };
}

/** Sender copies: each one that matches a message of pass 1 reopens its sender side; the others are messages of their own. */
async function mergeSenderCopies(ctx: ImportContext, copies: readonly MessageInsert[]): Promise<{ imported: number; merged: number }> {
  let merged = 0;
  const unmatched: MessageInsert[] = [];
  await ctx.target.db.transaction().execute(async (trx) => {
    for (const copy of copies) {
      const match = await trx
        .selectFrom('private_messages')
        .select('id')
        .where('sender_id', '=', copy.sender_id!)
        .where(copy.recipient_id === null ? sql<boolean>`recipient_id is null` : sql<boolean>`recipient_id = ${copy.recipient_id}`)
        .where('created_at', '=', copy.created_at)
        .where('subject', '=', copy.subject)
        .where('sender_deleted_at', 'is not', null)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (match === undefined) {
        unmatched.push(copy);
        continue;
      }
      await trx.updateTable('private_messages').set({ sender_deleted_at: null }).where('id', '=', match.id).execute();
      merged += 1;
    }
    for (const part of chunks(unmatched, 500)) await trx.insertInto('private_messages').values(part).execute();
  });
  return { imported: unmatched.length, merged };
}

/** Read messages whose recipient was not imported and whose sender kept no copy: nobody would see them. */
async function skipUnkept(ctx: ImportContext): Promise<void> {
  const unkept = () =>
    ctx.target.db
      .selectFrom('private_messages')
      .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_deleted_at', 'is not', null)]))
      .where((eb) => eb.or([eb('recipient_id', 'is', null), eb('recipient_deleted_at', 'is not', null)]));
  const count = await countOf(unkept());
  if (count === 0) return;
  const first = await unkept().select('id').orderBy('id').executeTakeFirstOrThrow();
  ctx.report.withdrawn('bb_privmsgs', NOBODY_KEEPS_REASON, first.id, count);
  await ctx.target.db.deleteFrom('private_messages').where('id', 'in', unkept().select('id')).execute();
}

/** users.unread_messages from the messages that arrived (upstream's own counters are not trusted). */
async function recountUnread(ctx: ImportContext): Promise<void> {
  await sql`update users set unread_messages = (select count(*) from private_messages m where m.recipient_id = users.id and m.read_at is null and m.recipient_deleted_at is null)`.execute(
    ctx.target.db,
  );
}
