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
import type { Logger } from 'pino';
import { UnwrittenTransfers, type PendingTransfer } from './accounting-batch.ts';
import type { BatchWriter } from './accounting-writers.ts';
import type { AnnounceAccounting, AnnounceRecord } from './announce/service.ts';
import { FREELEECH_DOWNLOAD_FACTOR } from './torrents/statuses.ts';

/** Longest time a counted delta waits in memory. */
export const FLUSH_MS = 5000;

export class TrackerAccounting implements AnnounceAccounting {
  readonly #writer: BatchWriter;
  readonly #log: Logger;
  readonly #maxSpeed: number;
  /** Told how many first completions each torrent got, after they are written. */
  readonly #onCompleted: (torrentId: number, count: number) => void;
  #pending = new Map<string, PendingTransfer>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(writer: BatchWriter, log: Logger, maxSpeedBytesPerSecond: number, onCompleted: (torrentId: number, count: number) => void = () => {}) {
    this.#writer = writer;
    this.#log = log;
    this.#maxSpeed = maxSpeedBytesPerSecond;
    this.#onCompleted = onCompleted;
  }

  /** (User, torrent) pairs counted and not yet written. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Queues written, and queues (or the parts of them) that failed and wait for the next flush. */
  readonly flushes = { written: 0, failed: 0 };

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

  /** Stops the timer, writes what is queued, and lets the writer go. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    try {
      await this.flush();
    } finally {
      await this.#writer.close();
    }
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
    try {
      await this.#writer.writeAll(queued, (completions) => {
        for (const [torrentId, count] of completions) this.#onCompleted(torrentId, count);
      });
      this.flushes.written += 1;
    } catch (error) {
      this.flushes.failed += 1;
      // Put what is unwritten back in front of anything queued meanwhile, so nothing is lost. When the
      // outcome is unknown (the worker died mid-write), nothing is put back: a transfer may be lost, as
      // with a kill -9, but none is ever counted twice.
      if (error instanceof UnwrittenTransfers) for (const entry of error.unwritten) this.#merge(entry);
      throw error;
    }
  }

  #merge(entry: PendingTransfer): void {
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
