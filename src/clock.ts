// The one clock the service reads time from. Services, repositories and jobs
// take a Clock instead of calling `new Date()`, so tests can set the time
// (test/helpers/clock.ts) instead of sleeping or hoping two writes fall in
// different milliseconds.
//
// Wall time is still read directly, on purpose, in: logging and metrics
// durations, the rate limiter's windows (inside rate-limiter-flexible), the
// probe's timestamp and the CLIs. Everywhere else a bare `Date.now()` or
// `new Date()` is a lint error unless its line says why (tools/eslint).

export interface Clock {
  now(): Date;
  /** The same time in epoch milliseconds, without making a Date (the tracker reads it on every announce). */
  nowMs(): number;
}

/** The real time. The only place in src/ that creates "now" for the service. */
export const systemClock: Clock = { now: () => new Date(), nowMs: () => Date.now() };

/** "Now" as the ISO text stored in timestamp columns. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** "Now" in epoch milliseconds. */
export function msNow(clock: Clock): number {
  return clock.nowMs();
}

/**
 * `work`, run at most once per `freshMs`: calls in between share the last
 * result (or the pending one). A failure is not kept: the next call runs again.
 */
export function atMostEvery<T>(freshMs: number, clock: Clock, work: () => Promise<T>): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | null = null;
  return () => {
    const now = msNow(clock);
    if (last === null || now - last.at >= freshMs) {
      const result = work();
      result.catch(() => {
        if (last?.result === result) last = null;
      });
      last = { at: now, result };
    }
    return last.result;
  };
}
