// The one clock the service reads time from. Services, repositories and jobs
// take a Clock instead of calling `new Date()`, so tests can set the time
// (test/helpers/clock.ts) instead of sleeping or hoping two writes fall in
// different milliseconds.
//
// Wall time is still read directly, on purpose, in: logging and metrics
// durations, the rate limiter's windows (inside rate-limiter-flexible), the
// tracker's announce hot path (a cheap Date.now() per announce) and the CLIs.

export interface Clock {
  now(): Date;
}

/** The real time. The only place in src/ that creates "now" for the service. */
export const systemClock: Clock = { now: () => new Date() };

/** "Now" as the ISO text stored in timestamp columns. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** "Now" in epoch milliseconds. */
export function msNow(clock: Clock): number {
  return clock.now().getTime();
}
