// Indexes, in the background after start-up, the posts written before the
// search index existed (or by the importer or a copy): a batch at a time, each
// in its own transaction, the event loop free between batches. Posts written
// meanwhile are indexed by their own writes, so search is complete once it ends.
import { setTimeout as nextTurn } from 'node:timers/promises';
import type { SearchRepository } from './repository.ts';

const BATCH = 500;

export class SearchBackfill {
  readonly #index: SearchRepository;
  #running: Promise<void> | null = null;
  #stopping = false;

  constructor(index: SearchRepository) {
    this.#index = index;
  }

  /** Starts indexing what is left; `done` hears how many posts were covered. */
  start(onError: (error: unknown) => void, done: (posts: number) => void = () => undefined): void {
    this.#running ??= this.run().then(done, onError);
  }

  /** Indexes everything left, batch after batch; resolves with how many post ids were covered. */
  async run(): Promise<number> {
    let covered = 0;
    for (let batch = await this.#index.backfill(BATCH); batch > 0 && !this.#stopping; batch = await this.#index.backfill(BATCH)) {
      covered += batch;
      await nextTurn(0);
    }
    return covered;
  }

  /** Lets the batch in progress finish; the rest waits for the next start. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#running;
  }
}
