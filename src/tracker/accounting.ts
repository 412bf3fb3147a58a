// Transfer accounting: each accounted announce adds the growth of the peer's
// counters since its previous announce to the user's totals and to their row
// for that torrent. Announces only queue; the queue is written in one
// transaction at most every FLUSH_MS and when the app closes (SIGTERM), so a
// graceful stop loses nothing and a kill -9 loses at most the last FLUSH_MS of
// deltas (docs/tracker.md, "Accounting"). The rules, each against a way of
// forging credit that real private trackers have seen:
//
// - A new session (event=started, or a peer the store does not know: it
//   expired, or the memory store restarted) only sets the baseline: what it
//   reports may be invented or counted before. Only growth after it counts.
// - A counter that goes down is a new baseline, never new transfer (a
//   "restart" without a started event is how a peer alternating two values
//   would be credited for every decrease).
// - Growth faster than the configured maximum speed over wall-clock time,
//   summed over all of a user's peers of a torrent (transfer-budget.ts), is not
//   counted and is logged.
// - Upload is credited only once the swarm's downloads match it
//   (accounting-batch.ts): with no leecher there is nothing to upload to.
// - Freeleech: the download counts at 100% (none), 50% (silver), 0% (gold).
// - event=completed marks the (user, torrent) completed once, when a peer the
//   store knew as a leecher reports nothing left; only the first completion
//   raises the torrent's completed count.
import type { Logger } from 'pino';
import { UnwrittenTransfers, type PendingTransfer } from './accounting-batch.ts';
import type { BatchWriter } from './accounting-writers.ts';
import type { AnnounceAccounting, AnnounceRecord } from './announce/service.ts';
import { FREELEECH_DOWNLOAD_FACTOR } from './torrents/statuses.ts';
import { TransferBudget } from './transfer-budget.ts';

/** Longest time a counted delta waits in memory. */
export const FLUSH_MS = 5000;

export interface AccountingRules {
  /** Bytes per second above which growth is implausible (per user and torrent, all peers together). */
  maxSpeedBytesPerSecond: number;
  /** How long a peer lives without announcing (the swarm's expiry): no speed budget piles up for longer. */
  peerLifetimeMs: number;
  /** How long a reported upload waits for the swarm's downloads (and downloads for uploads). */
  claimWindowMs: number;
  /** The tracker's own wall clock (default Date.now; the announce path's `now` must come from the same clock). */
  now?: () => number;
  /** Told how many first completions each torrent got, after they are written. */
  onCompleted?: (torrentId: number, count: number) => void;
}

export class TrackerAccounting implements AnnounceAccounting {
  readonly #writer: BatchWriter;
  readonly #log: Logger;
  readonly #maxSpeed: number;
  readonly #budget: TransferBudget;
  readonly #claimWindowMs: number;
  /** The tracker's own clock (the announces' `now` comes from the same one). */
  readonly #now: () => number;
  /** Told how many first completions each torrent got, after they are written. */
  readonly #onCompleted: (torrentId: number, count: number) => void;
  #pending = new Map<string, PendingTransfer>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(writer: BatchWriter, log: Logger, rules: AccountingRules) {
    this.#writer = writer;
    this.#log = log;
    this.#maxSpeed = rules.maxSpeedBytesPerSecond;
    this.#budget = new TransferBudget(rules.maxSpeedBytesPerSecond, rules.peerLifetimeMs);
    this.#claimWindowMs = rules.claimWindowMs;
    this.#now = rules.now ?? Date.now;
    this.#onCompleted = rules.onCompleted ?? (() => {});
  }

  /** (User, torrent) pairs counted and not yet written. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Queues written, and queues (or the parts of them) that failed and wait for the next flush. */
  readonly flushes = { written: 0, failed: 0 };

  record(record: AnnounceRecord): void {
    const { previous } = record;
    const key = `${record.userId}:${record.torrent.id}`;
    // A new session is a baseline; a counter that went down is one too.
    const fresh = previous === null || record.event === 'started';
    let uploaded = fresh ? 0 : Math.max(0, record.uploaded - previous.uploaded);
    let swarmDownloaded = fresh ? 0 : Math.max(0, record.downloaded - previous.downloaded);
    const upOk = this.#budget.take(`${key}:u`, uploaded, record.now);
    const downOk = this.#budget.take(`${key}:d`, swarmDownloaded, record.now);
    if (!upOk || !downOk) {
      this.#log.warn(
        { userId: record.userId, torrentId: record.torrent.id, uploaded, downloaded: swarmDownloaded, maxBytesPerSecond: this.#maxSpeed },
        'implausible transfer reported by a peer; not counted',
      );
      if (!upOk) uploaded = 0;
      if (!downOk) swarmDownloaded = 0;
    }
    const downloaded = Math.round(swarmDownloaded * FREELEECH_DOWNLOAD_FACTOR[record.torrent.freeleech]);

    let entry = this.#pending.get(key);
    if (entry === undefined) {
      entry = {
        userId: record.userId,
        torrentId: record.torrent.id,
        uploaded: 0,
        downloaded: 0,
        swarmDownloaded: 0,
        completed: false,
        seeding: false,
        active: true,
        lastAnnounce: 0,
      };
      this.#pending.set(key, entry);
    }
    entry.uploaded += uploaded;
    entry.downloaded += downloaded;
    entry.swarmDownloaded += swarmDownloaded;
    // A completion is a leecher the store knew finishing: not a stranger's word.
    if (record.event === 'completed' && record.left === 0 && previous !== null && !previous.seeder) entry.completed = true;
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
    const nowMs = this.#now();
    this.#budget.prune(nowMs);
    if (this.#pending.size === 0) return;
    const queued = [...this.#pending.values()];
    this.#pending = new Map();
    try {
      await this.#writer.writeAll(queued, { nowMs, claimWindowMs: this.#claimWindowMs }, (completions) => {
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
    newer.swarmDownloaded += entry.swarmDownloaded;
    newer.completed ||= entry.completed;
    // The older entry's deltas stay; its state (seeding, active) is superseded by the newer announce.
  }
}
