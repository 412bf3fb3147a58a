// Topic views are counted in memory and written in one batch every few
// seconds (and when the app closes): a page view never waits for a write,
// and a busy topic costs one UPDATE per flush instead of one per view.
// A crash loses at most one interval of views, which a view count can afford.
//
// A view is a reader opening a topic, not a page load: the same reader (a
// member by id, a guest by address) viewing the same topic again within
// REVIEW_WINDOW_MS counts once, so reloads and paging through a topic do not
// inflate it. The readers seen are kept per instance, bounded in number; on a
// cluster a reader whose requests go to two instances may count twice.
import { msNow, type Clock } from '../clock.ts';

export interface ViewStore {
  addViews(counts: ReadonlyMap<number, number>): Promise<void>;
}

/** How long a reader's view of a topic stands for their later ones. */
export const REVIEW_WINDOW_MS = 30 * 60 * 1000;
/** The most (reader, topic) pairs remembered; past it the oldest are forgotten (and may count again). */
const SEEN_MAX = 200_000;

export class TopicViewCounter {
  readonly #store: ViewStore;
  readonly #clock: Clock;
  #pending = new Map<number, number>();
  /** `reader topic` → until when a view of it counts for nothing more; in the order first seen. */
  readonly #seen = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(store: ViewStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** A view of the topic by `reader` (`u<id>` for a member, `g<address>` for a guest); a repeat within the window counts nothing. */
  record(topicId: number, reader: string): void {
    const now = msNow(this.#clock);
    const key = `${reader} ${topicId}`;
    const until = this.#seen.get(key);
    if (until !== undefined && until > now) return;
    this.#seen.delete(key);
    this.#seen.set(key, now + REVIEW_WINDOW_MS);
    if (this.#seen.size > SEEN_MAX) this.#seen.delete(this.#seen.keys().next().value!);
    this.#pending.set(topicId, (this.#pending.get(topicId) ?? 0) + 1);
  }

  /** Views recorded here and not yet written: pages add them to the stored count. */
  unwritten(topicId: number): number {
    return this.#pending.get(topicId) ?? 0;
  }

  async flush(): Promise<void> {
    this.#forgetExpired();
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.#store.addViews(batch);
    } catch (error) {
      // The batch is written in one transaction, so nothing of it landed: keep it for the next flush.
      for (const [topicId, views] of batch) this.#pending.set(topicId, (this.#pending.get(topicId) ?? 0) + views);
      throw error;
    }
  }

  /** Readers' views whose window has passed, oldest first (entries are kept in the order their windows began). */
  #forgetExpired(): void {
    const now = msNow(this.#clock);
    for (const [key, until] of this.#seen) {
      if (until > now) break;
      this.#seen.delete(key);
    }
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#timer = setInterval(() => this.flush().catch(onError), intervalMs);
    this.#timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
