// One slice of queued accounting written in one transaction: downloads
// added, uploads matched against what the swarm downloaded (below), first
// completions marked and counted. The same code runs on the event loop's
// connection (PostgreSQL, in-memory SQLite) and in the accounting worker's own
// SQLite connection (accounting-writers.ts), so both write exactly the same rows.
//
// Upload is credited only against downloads (docs/tracker.md, "Accounting"):
// in a private swarm every byte uploaded is a byte some leecher downloaded.
// A member's reported upload waits on their (user, torrent) row as
// `pending_upload`; leechers' reported downloads (before freeleech, plus
// DOWNLOAD_ALLOWANCE) fill the torrent's pool; each slice matches the pool of
// every torrent it touches against all pending uploads of that torrent, the
// pool shared max-min fairly (no claimant takes more than an equal share while
// others wait). What waits longer than the claim window is forfeited: an
// upload no leecher reported downloading, or downloads no upload claimed.
// Every slice first locks the pools of its torrents in id order, so slices of
// two instances touching one torrent take turns (no double match, no deadlock).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** What one (user, torrent) pair accumulated since the last flush. */
export interface PendingTransfer {
  userId: number;
  torrentId: number;
  /** Upload reported: credited once matched by the swarm's downloads. */
  uploaded: number;
  /** Download counted (after freeleech). */
  downloaded: number;
  /** Download reported (before freeleech): what it adds to the torrent's pool. */
  swarmDownloaded: number;
  completed: boolean;
  seeding: boolean;
  active: boolean;
  lastAnnounce: number;
}

/** One flush: when it runs and how long claims wait. */
export interface Flush {
  /** The tracker's clock (epoch ms) at the flush. */
  nowMs: number;
  /** Pending uploads and pooled downloads older than this (ms) are forfeited. */
  claimWindowMs: number;
}

/**
 * Downloads fill a torrent's pool with this much more than reported: clients
 * count in-flight and redundant blocks a little differently on each side.
 */
export const DOWNLOAD_ALLOWANCE = 0.1;

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
  flush: Flush,
  onCompleted: (completions: Map<number, number>) => void,
  between: () => Promise<void>,
): Promise<void> {
  for (let start = 0; start < queued.length; start += FLUSH_SLICE) {
    const slice = queued.slice(start, start + FLUSH_SLICE);
    let completions: Map<number, number>;
    try {
      completions = await db.transaction().execute((trx) => writeBatch(trx, slice, flush));
    } catch (error) {
      throw new UnwrittenTransfers(queued.slice(start), error);
    }
    onCompleted(completions);
    if (start + FLUSH_SLICE < queued.length) await between();
  }
}

const FIELDS = 9;

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
    packed[at + 8] = entry.swarmDownloaded;
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
      swarmDownloaded: packed[at + 8]!,
    });
  }
  return list;
}

/** The tables a written batch may change (for write listeners, db/write-watch.ts). */
export const ACCOUNTING_TABLES: ReadonlySet<string> = new Set(['tracker_user_torrents', 'tracker_user_stats', 'tracker_swarm_pools', 'torrents']);

/** Writes the batch; answers how many first completions each torrent got. Call inside a transaction. */
export async function writeBatch(trx: Kysely<Database>, queued: readonly PendingTransfer[], flush: Flush): Promise<Map<number, number>> {
  const at = (ms: number) => new Date(ms).toISOString();
  const { nowMs } = flush;
  const now = new Date(nowMs).toISOString();
  const cutoff = nowMs - flush.claimWindowMs;
  // A torrent or user deleted since its announce: its deltas have nowhere to go.
  const batch = await stillThere(trx, queued);
  const torrentIds = [...new Set(batch.map((row) => row.torrentId))].sort((a, b) => a - b);
  await lockPools(trx, torrentIds, nowMs);

  for (let start = 0; start < batch.length; start += CHUNK) {
    const rows = batch.slice(start, start + CHUNK);
    await trx
      .insertInto('tracker_user_torrents')
      .values(
        rows.map((row) => ({
          user_id: row.userId,
          torrent_id: row.torrentId,
          uploaded: 0,
          downloaded: row.downloaded,
          pending_upload: row.uploaded,
          pending_since_ms: row.uploaded > 0 ? nowMs : null,
          completed_at: null,
          seeding: row.seeding,
          active: row.active,
          last_announce_at: at(row.lastAnnounce),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'torrent_id']).doUpdateSet({
          downloaded: sql`tracker_user_torrents.downloaded + excluded.downloaded`,
          // A claim that waited past the window is forfeited before the new one joins it.
          pending_upload: sql`case when tracker_user_torrents.pending_since_ms < ${cutoff} then excluded.pending_upload
            else tracker_user_torrents.pending_upload + excluded.pending_upload end`,
          pending_since_ms: sql`case when tracker_user_torrents.pending_upload = 0 or tracker_user_torrents.pending_since_ms < ${cutoff}
            then excluded.pending_since_ms else tracker_user_torrents.pending_since_ms end`,
          seeding: sql`excluded.seeding`,
          active: sql`excluded.active`,
          last_announce_at: sql`excluded.last_announce_at`,
        }),
      )
      .execute();
  }

  const credited = await matchUploads(trx, batch, torrentIds, nowMs, cutoff);

  const perUser = new Map<number, { uploaded: number; downloaded: number }>();
  const add = (userId: number, uploaded: number, downloaded: number) => {
    if (uploaded === 0 && downloaded === 0) return;
    const sum = perUser.get(userId) ?? { uploaded: 0, downloaded: 0 };
    sum.uploaded += uploaded;
    sum.downloaded += downloaded;
    perUser.set(userId, sum);
  };
  for (const row of batch) add(row.userId, 0, row.downloaded);
  for (const credit of credited) add(credit.userId, credit.bytes, 0);
  // In id order, so that two instances' flushes never wait on each other's rows in a circle.
  const users = [...perUser.entries()].sort(([a], [b]) => a - b);
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

/**
 * Takes the pool row of each torrent (made empty when missing), in id order:
 * until this transaction ends, no other flush matches these torrents.
 */
async function lockPools(trx: Kysely<Database>, torrentIds: readonly number[], nowMs: number): Promise<void> {
  for (let start = 0; start < torrentIds.length; start += CHUNK) {
    await trx
      .insertInto('tracker_swarm_pools')
      .values(torrentIds.slice(start, start + CHUNK).map((torrentId) => ({ torrent_id: torrentId, bytes: 0, added_at_ms: nowMs })))
      // Writing the row to itself takes its lock (PostgreSQL); SQLite has one writer anyway.
      .onConflict((oc) => oc.column('torrent_id').doUpdateSet({ bytes: sql`tracker_swarm_pools.bytes` }))
      .execute();
  }
}

interface Credit {
  userId: number;
  torrentId: number;
  bytes: number;
}

/**
 * Adds this slice's downloads to the pools of its torrents and shares each
 * pool among that torrent's pending uploads (this slice's and those waiting
 * from earlier flushes, of any instance). Writes the pools and the claims;
 * answers the upload credited per (user, torrent).
 */
async function matchUploads(
  trx: Kysely<Database>,
  batch: readonly PendingTransfer[],
  torrentIds: readonly number[],
  nowMs: number,
  cutoff: number,
): Promise<Credit[]> {
  const downloads = new Map<number, number>();
  for (const row of batch) {
    if (row.swarmDownloaded > 0) downloads.set(row.torrentId, (downloads.get(row.torrentId) ?? 0) + row.swarmDownloaded);
  }
  const pools = new Map<number, { bytes: number; addedAt: number }>();
  const claims = new Map<number, Array<{ userId: number; bytes: number; since: number }>>();
  for (let start = 0; start < torrentIds.length; start += CHUNK) {
    const ids = torrentIds.slice(start, start + CHUNK);
    for (const row of await trx.selectFrom('tracker_swarm_pools').select(['torrent_id', 'bytes', 'added_at_ms']).where('torrent_id', 'in', ids).execute()) {
      pools.set(row.torrent_id, { bytes: Number(row.bytes), addedAt: Number(row.added_at_ms) });
    }
    const waiting = await trx
      .selectFrom('tracker_user_torrents')
      .select(['torrent_id', 'user_id', 'pending_upload', 'pending_since_ms'])
      .where('torrent_id', 'in', ids)
      .where('pending_upload', '>', 0)
      .execute();
    for (const row of waiting) {
      const list = claims.get(row.torrent_id) ?? [];
      list.push({ userId: row.user_id, bytes: Number(row.pending_upload), since: Number(row.pending_since_ms ?? nowMs) });
      claims.set(row.torrent_id, list);
    }
  }

  const credits: Credit[] = [];
  const claimRows: Array<{ userId: number; torrentId: number; credited: number; left: number; since: number | null }> = [];
  const poolRows: Array<{ torrentId: number; bytes: number; addedAt: number }> = [];
  for (const torrentId of torrentIds) {
    const stored = pools.get(torrentId) ?? { bytes: 0, addedAt: nowMs };
    const added = Math.ceil((downloads.get(torrentId) ?? 0) * (1 + DOWNLOAD_ALLOWANCE));
    let pool = (stored.addedAt < cutoff ? 0 : stored.bytes) + added;
    const waiting = claims.get(torrentId) ?? [];
    // A claim that waited past the window gets nothing and is dropped.
    const shares = fairShares(
      waiting.map((claim) => (claim.since >= cutoff ? claim.bytes : 0)),
      pool,
    );
    waiting.forEach((claim, index) => {
      const credited = shares[index]!;
      const left = claim.since >= cutoff ? claim.bytes - credited : 0;
      pool -= credited;
      if (credited > 0) credits.push({ userId: claim.userId, torrentId, bytes: credited });
      if (left !== claim.bytes) claimRows.push({ userId: claim.userId, torrentId, credited, left, since: left > 0 ? claim.since : null });
    });
    if (added > 0 || pool !== stored.bytes) poolRows.push({ torrentId, bytes: pool, addedAt: added > 0 ? nowMs : stored.addedAt });
  }

  for (let start = 0; start < claimRows.length; start += CHUNK) {
    await trx
      .insertInto('tracker_user_torrents')
      .values(
        claimRows.slice(start, start + CHUNK).map((row) => ({
          user_id: row.userId,
          torrent_id: row.torrentId,
          uploaded: row.credited,
          downloaded: 0,
          pending_upload: row.left,
          pending_since_ms: row.since,
          completed_at: null,
          seeding: false,
          active: false,
          last_announce_at: new Date(nowMs).toISOString(),
        })),
      )
      // The rows exist (read above, under the pools' locks): only these columns change.
      .onConflict((oc) =>
        oc.columns(['user_id', 'torrent_id']).doUpdateSet({
          uploaded: sql`tracker_user_torrents.uploaded + excluded.uploaded`,
          pending_upload: sql`excluded.pending_upload`,
          pending_since_ms: sql`excluded.pending_since_ms`,
        }),
      )
      .execute();
  }
  for (let start = 0; start < poolRows.length; start += CHUNK) {
    await trx
      .insertInto('tracker_swarm_pools')
      .values(poolRows.slice(start, start + CHUNK).map((row) => ({ torrent_id: row.torrentId, bytes: row.bytes, added_at_ms: row.addedAt })))
      .onConflict((oc) => oc.column('torrent_id').doUpdateSet({ bytes: sql`excluded.bytes`, added_at_ms: sql`excluded.added_at_ms` }))
      .execute();
  }
  return credits;
}

/**
 * Max-min fair shares of `pool` among `claims` (whole bytes): every claim gets
 * at most an equal share of what is left, and what a small claim leaves goes
 * to the larger ones. One member reporting a huge upload takes no more of a
 * swarm's downloads than an honest seeder beside them.
 */
export function fairShares(claims: readonly number[], pool: number): number[] {
  const shares = claims.map(() => 0);
  const order = claims.map((_, index) => index).sort((a, b) => claims[a]! - claims[b]!);
  let left = Math.max(0, pool);
  order.forEach((index, position) => {
    const share = Math.min(claims[index]!, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
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
