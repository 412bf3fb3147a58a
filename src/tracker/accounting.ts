// Transfer accounting: each accounted announce adds the difference from the
// peer's previous counters to the user's totals and to their row for that
// torrent. Announces only queue; the queue is written in one transaction at
// most every FLUSH_MS and when the app closes (SIGTERM), so a graceful stop
// loses nothing and a kill -9 loses at most the last FLUSH_MS of deltas
// (docs/tracker.md, "Accounting").
//
// - A client restart shows as counters going down: the new values count from zero.
// - A first announce (no previous state) counts its counters from zero only
//   with event=started (a fresh session); otherwise (the peer expired, or the
//   memory store restarted) it only sets the baseline: what it reports may
//   have been counted before.
// - A delta faster than the configured maximum speed over the elapsed time is
//   not counted and is logged.
// - Freeleech: the download counts at 100% (none), 50% (silver), 0% (gold).
// - event=completed marks the (user, torrent) completed once; only the first
//   completion raises the torrent's completed count.
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';
import type { AnnounceAccounting, AnnounceRecord } from './announce/service.ts';
import { FREELEECH_DOWNLOAD_FACTOR } from './torrents/statuses.ts';

/** Longest time a counted delta waits in memory. */
export const FLUSH_MS = 5000;

interface Pending {
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
/** Entries per flush transaction. */
const FLUSH_SLICE = 1000;

export class TrackerAccounting implements AnnounceAccounting {
  readonly #db: Kysely<Database>;
  readonly #log: Logger;
  readonly #maxSpeed: number;
  /** Told how many first completions each torrent got, after they are written. */
  readonly #onCompleted: (torrentId: number, count: number) => void;
  #pending = new Map<string, Pending>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(db: Kysely<Database>, log: Logger, maxSpeedBytesPerSecond: number, onCompleted: (torrentId: number, count: number) => void = () => {}) {
    this.#db = db;
    this.#log = log;
    this.#maxSpeed = maxSpeedBytesPerSecond;
    this.#onCompleted = onCompleted;
  }

  record(record: AnnounceRecord): void {
    const { previous } = record;
    let uploaded = 0;
    let downloaded = 0;
    if (previous !== null) {
      uploaded = record.uploaded >= previous.uploaded ? record.uploaded - previous.uploaded : record.uploaded;
      downloaded = record.downloaded >= previous.downloaded ? record.downloaded - previous.downloaded : record.downloaded;
    } else if (record.event === 'started') {
      uploaded = record.uploaded;
      downloaded = record.downloaded;
    }
    const elapsedSeconds = previous === null ? 1 : Math.max(1, (record.now - previous.lastSeen) / 1000);
    const ceiling = this.#maxSpeed * elapsedSeconds;
    if (uploaded > ceiling || downloaded > ceiling) {
      this.#log.warn(
        { userId: record.userId, torrentId: record.torrent.id, uploaded, downloaded, elapsedSeconds, maxBytesPerSecond: this.#maxSpeed },
        'implausible transfer reported by a peer; not counted',
      );
      if (uploaded > ceiling) uploaded = 0;
      if (downloaded > ceiling) downloaded = 0;
    }
    downloaded = Math.round(downloaded * FREELEECH_DOWNLOAD_FACTOR[record.torrent.freeleech]);

    const key = `${record.userId}:${record.torrent.id}`;
    let entry = this.#pending.get(key);
    if (entry === undefined) {
      entry = {
        userId: record.userId,
        torrentId: record.torrent.id,
        uploaded: 0,
        downloaded: 0,
        completed: false,
        seeding: false,
        active: true,
        lastAnnounce: 0,
      };
      this.#pending.set(key, entry);
    }
    entry.uploaded += uploaded;
    entry.downloaded += downloaded;
    if (record.event === 'completed') entry.completed = true;
    entry.seeding = record.left === 0;
    entry.active = record.event !== 'stopped';
    entry.lastAnnounce = record.now;
  }

  /** Starts the periodic flush. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.#log.warn({ err: error }, 'writing tracker accounting failed; retrying with the next flush'));
    }, FLUSH_MS);
    this.#timer.unref();
  }

  /** Stops the timer and writes what is queued. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Writes everything queued so far; flushes never overlap. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.catch(() => {}).then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const queued = [...this.#pending.values()];
    this.#pending = new Map();
    // In slices, one transaction each, yielding in between: SQLite runs on this
    // thread, and one transaction of a whole busy interval would stall announces.
    for (let start = 0; start < queued.length; start += FLUSH_SLICE) {
      const batch = queued.slice(start, start + FLUSH_SLICE);
      let completions: Map<number, number>;
      try {
        completions = await this.#db.transaction().execute((trx) => writeBatch(trx, batch));
      } catch (error) {
        // Put what is unwritten back in front of anything queued meanwhile, so nothing is lost.
        for (const entry of queued.slice(start)) this.#merge(entry);
        throw error;
      }
      for (const [torrentId, count] of completions) this.#onCompleted(torrentId, count);
      if (start + FLUSH_SLICE < queued.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #merge(entry: Pending): void {
    const key = `${entry.userId}:${entry.torrentId}`;
    const newer = this.#pending.get(key);
    if (newer === undefined) {
      this.#pending.set(key, entry);
      return;
    }
    newer.uploaded += entry.uploaded;
    newer.downloaded += entry.downloaded;
    newer.completed ||= entry.completed;
    // The older entry's deltas stay; its state (seeding, active) is superseded by the newer announce.
  }
}

async function writeBatch(trx: Kysely<Database>, queued: Pending[]): Promise<Map<number, number>> {
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

async function stillThere(trx: Kysely<Database>, batch: Pending[]): Promise<Pending[]> {
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
