// Topic views are counted in memory and written in one batch every few
// seconds (and when the app closes): a page view never waits for a write,
// and a busy topic costs one UPDATE per flush instead of one per view.
// A crash loses at most one interval of views, which a view count can afford.

export interface ViewStore {
  addViews(counts: ReadonlyMap<number, number>): Promise<void>;
}

export class TopicViewCounter {
  readonly #store: ViewStore;
  #pending = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(store: ViewStore) {
    this.#store = store;
  }

  record(topicId: number): void {
    this.#pending.set(topicId, (this.#pending.get(topicId) ?? 0) + 1);
  }

  /** Views recorded here and not yet written: pages add them to the stored count. */
  unwritten(topicId: number): number {
    return this.#pending.get(topicId) ?? 0;
  }

  async flush(): Promise<void> {
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
