// Flood control: a member writes at most once per interval
// (FLOOD_INTERVAL_SECONDS) of each kind, through the API and the pages alike.
// The counters are the rate limiter's (limiters.ts), so with REDIS_URL every
// instance shares them and a flood cannot be spread over instances.
//
//   posts     new topics and replies: a topic is its opening post, so both
//             run on one clock (as phpBB and TorrentPier count them);
//   messages  what members send each other: the profile mail relay today,
//             private messages when they exist.
//
// Moderators and administrators are exempt (as in TorrentPier): they post
// announcements and answer reports in bursts, and they are few and trusted.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../http/errors.ts';
import { t, tn } from '../i18n/messages.ts';
import { STAFF } from './guard.ts';
import type { LimiterFactory } from './limiters.ts';
import type { AuthUser } from './service.ts';

export type FloodKind = 'posts' | 'messages';

const KINDS: readonly FloodKind[] = ['posts', 'messages'];

/** 429 in the general envelope with Retry-After; pages catch it and show the form again with its text (in the reader's language; the API's English). */
export class FloodError extends ApiError {
  /** Whole seconds until the member may write again (at least 1). */
  readonly retryAfter: number;

  constructor(kind: FloodKind, intervalSeconds: number, retryAfter: number) {
    super('RATE_LIMITED', t(kind === 'posts' ? 'flood.posts' : 'flood.messages', { interval: seconds(intervalSeconds), wait: seconds(retryAfter) }), {
      details: { retry_after: retryAfter, interval: intervalSeconds },
      headers: { 'retry-after': String(retryAfter) },
    });
    this.retryAfter = retryAfter;
  }
}

export class FloodControl {
  readonly #intervalSeconds: number;
  readonly #limiters: ReadonlyMap<FloodKind, RateLimiterAbstract>;

  /** `intervalSeconds` 0 turns flood control off. */
  constructor(limiters: LimiterFactory, intervalSeconds: number) {
    this.#intervalSeconds = intervalSeconds;
    this.#limiters = new Map(intervalSeconds === 0 ? [] : KINDS.map((kind) => [kind, limiters.create(`flood_${kind}`, 1, intervalSeconds)]));
  }

  /**
   * Runs `write` as the member's next write of this kind, or throws a
   * FloodError when their last one was less than the interval ago. The clock
   * is taken before `write` runs, so concurrent requests cannot all pass; a
   * write that fails (a validation error, a blocked word) gives it back.
   */
  async guard<T>(user: AuthUser, kind: FloodKind, write: () => Promise<T>): Promise<T> {
    const limiter = this.#limiters.get(kind);
    if (limiter === undefined || STAFF.includes(user.role)) return write();
    const key = `u${user.id}`;
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      const waitMs = (rejection as { msBeforeNext: number }).msBeforeNext;
      throw new FloodError(kind, this.#intervalSeconds, Math.max(1, Math.ceil(waitMs / 1000)));
    }
    try {
      return await write();
    } catch (error) {
      await limiter.delete(key).catch(() => {});
      throw error;
    }
  }
}

/** Written as the contract writes it (`3600 seconds`, not `3,600`) in every language. */
function seconds(count: number): string {
  return tn('flood.seconds', count, { seconds: String(count) });
}
