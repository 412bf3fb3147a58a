// Expensive work takes turns on the event loop. A page built from scratch
// (a deep page of a big topic: on SQLite its queries run on the event loop)
// holds the loop for a few milliseconds. Twenty arriving at once used to run
// back to back, and every other request (the API, announces, cached pages)
// waited behind all of them: /api/hello at p50 33 ms, p99 69 ms (bench
// pages-at-scale, 2026-11-28). Each such piece of work now starts in a pass of
// the event loop of its own, after the previous one's, so whatever arrives
// meanwhile is read and answered between them. Nothing waits for the previous
// work to finish (a PostgreSQL query in flight holds no turn): turns only
// space out the starts.
import { setImmediate } from 'node:timers';

let last: Promise<void> = Promise.resolve();

/** Resolves in a later pass of the event loop than the previous caller's turn. */
export function nextTurn(): Promise<void> {
  const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = turn;
  return turn;
}
