// One slice of queued accounting written in one transaction: the users'
// and their torrents' transfer added, first completions marked and counted.
// The same code runs on the event loop's connection (PostgreSQL, in-memory
// SQLite) and in the accounting worker's own SQLite connection
// (accounting-writers.ts), so both write exactly the same rows.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** What one (user, torrent) pair accumulated since the last flush. */
export interface PendingTransfer {
  userId: number;
  torrentId: number;
  uploaded: number;
  downloaded: number;
  completed: boolean;
  seeding: boolean;
  active: boolean;
  lastAnnounce: number;
}

/** Rows per multi-row statement. */
const CHUNK = 200;
/** Entries per transaction: short enough that SQLite's write lock is never held long. */
export const FLUSH_SLICE = 1000;

/** A write that failed part-way: the slices before it are committed, these entries are not. */
export class UnwrittenTransfers extends Error {
  readonly unwritten: PendingTransfer[];

  constructor(unwritten: PendingTransfer[], cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.unwritten = unwritten;
  }
}

/**
 * Writes the queue one slice per transaction, telling `onCompleted` of each
 * committed slice's first completions, with `between()` awaited between slices.
 * Throws UnwrittenTransfers when a slice fails.
 */
export async function writeInSlices(
  db: Kysely<Database>,
  queued: readonly PendingTransfer[],
  onCompleted: (completions: Map<number, number>) => void,
  between: () => Promise<void>,
): Promise<void> {
  for (let start = 0; start < queued.length; start += FLUSH_SLICE) {
    const slice = queued.slice(start, start + FLUSH_SLICE);
    let completions: Map<number, number>;
    try {
      completions = await db.transaction().execute((trx) => writeBatch(trx, slice));
    } catch (error) {
      throw new UnwrittenTransfers(queued.slice(start), error);
    }
    onCompleted(completions);
    if (start + FLUSH_SLICE < queued.length) await between();
  }
}

const FIELDS = 8;

/** Packs transfers into one buffer that moves to the worker without a copy (a structured clone of 50,000 objects took tens of milliseconds). */
export function packTransfers(list: readonly PendingTransfer[]): Float64Array<ArrayBuffer> {
  const packed = new Float64Array(list.length * FIELDS);
  let at = 0;
  for (const entry of list) {
    packed[at] = entry.userId;
    packed[at + 1] = entry.torrentId;
    packed[at + 2] = entry.uploaded;
    packed[at + 3] = entry.downloaded;
    packed[at + 4] = entry.completed ? 1 : 0;
    packed[at + 5] = entry.seeding ? 1 : 0;
    packed[at + 6] = entry.active ? 1 : 0;
    packed[at + 7] = entry.lastAnnounce;
    at += FIELDS;
  }
  return packed;
}

export function unpackTransfers(packed: Float64Array): PendingTransfer[] {
  const list: PendingTransfer[] = [];
  for (let at = 0; at + FIELDS <= packed.length; at += FIELDS) {
    list.push({
      userId: packed[at]!,
      torrentId: packed[at + 1]!,
      uploaded: packed[at + 2]!,
      downloaded: packed[at + 3]!,
      completed: packed[at + 4] === 1,
      seeding: packed[at + 5] === 1,
      active: packed[at + 6] === 1,
      lastAnnounce: packed[at + 7]!,
    });
  }
  return list;
}

/** The tables a written batch may change (for write listeners, db/write-watch.ts). */
export const ACCOUNTING_TABLES: ReadonlySet<string> = new Set(['tracker_user_torrents', 'tracker_user_stats', 'torrents']);

/** Writes the batch; answers how many first completions each torrent got. Call inside a transaction. */
export async function writeBatch(trx: Kysely<Database>, queued: readonly PendingTransfer[]): Promise<Map<number, number>> {
  const at = (ms: number) => new Date(ms).toISOString();
  const now = new Date().toISOString(); // announce accounting: the tracker's own wall clock (src/clock.ts)
  // A torrent or user deleted since its announce: its deltas have nowhere to go.
  const batch = await stillThere(trx, queued);
  for (let start = 0; start < batch.length; start += CHUNK) {
    const rows = batch.slice(start, start + CHUNK);
    await trx
      .insertInto('tracker_user_torrents')
      .values(
        rows.map((row) => ({
          user_id: row.userId,
          torrent_id: row.torrentId,
          uploaded: row.uploaded,
          downloaded: row.downloaded,
          completed_at: null,
          seeding: row.seeding,
          active: row.active,
          last_announce_at: at(row.lastAnnounce),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'torrent_id']).doUpdateSet({
          uploaded: sql`tracker_user_torrents.uploaded + excluded.uploaded`,
          downloaded: sql`tracker_user_torrents.downloaded + excluded.downloaded`,
          seeding: sql`excluded.seeding`,
          active: sql`excluded.active`,
          last_announce_at: sql`excluded.last_announce_at`,
        }),
      )
      .execute();
  }

  const perUser = new Map<number, { uploaded: number; downloaded: number }>();
  for (const row of batch) {
    if (row.uploaded === 0 && row.downloaded === 0) continue;
    const sum = perUser.get(row.userId) ?? { uploaded: 0, downloaded: 0 };
    sum.uploaded += row.uploaded;
    sum.downloaded += row.downloaded;
    perUser.set(row.userId, sum);
  }
  const users = [...perUser.entries()];
  for (let start = 0; start < users.length; start += CHUNK) {
    await trx
      .insertInto('tracker_user_stats')
      .values(
        users.slice(start, start + CHUNK).map(([userId, sum]) => ({ user_id: userId, uploaded: sum.uploaded, downloaded: sum.downloaded, updated_at: now })),
      )
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          uploaded: sql`tracker_user_stats.uploaded + excluded.uploaded`,
          downloaded: sql`tracker_user_stats.downloaded + excluded.downloaded`,
          updated_at: sql`excluded.updated_at`,
        }),
      )
      .execute();
  }

  const completions = new Map<number, number>();
  for (const row of batch) {
    if (!row.completed) continue;
    const marked = await trx
      .updateTable('tracker_user_torrents')
      .set({ completed_at: at(row.lastAnnounce) })
      .where('user_id', '=', row.userId)
      .where('torrent_id', '=', row.torrentId)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) > 0) completions.set(row.torrentId, (completions.get(row.torrentId) ?? 0) + 1);
  }
  for (const [torrentId, count] of completions) {
    await trx
      .updateTable('torrents')
      .set((eb) => ({ completed_count: eb('completed_count', '+', count) }))
      .where('id', '=', torrentId)
      .execute();
  }
  return completions;
}

async function stillThere(trx: Kysely<Database>, batch: readonly PendingTransfer[]): Promise<PendingTransfer[]> {
  const torrents = new Set<number>();
  const users = new Set<number>();
  const torrentIds = [...new Set(batch.map((row) => row.torrentId))];
  const userIds = [...new Set(batch.map((row) => row.userId))];
  for (let start = 0; start < torrentIds.length; start += 500) {
    for (const row of await trx
      .selectFrom('torrents')
      .select('id')
      .where('id', 'in', torrentIds.slice(start, start + 500))
      .execute())
      torrents.add(row.id);
  }
  for (let start = 0; start < userIds.length; start += 500) {
    for (const row of await trx
      .selectFrom('users')
      .select('id')
      .where('id', 'in', userIds.slice(start, start + 500))
      .execute())
      users.add(row.id);
  }
  return batch.filter((row) => torrents.has(row.torrentId) && users.has(row.userId));
}
