// Login attempts are counted per user name and per client address; after five
// failures in a minute either key is refused with 429 until the window ends.
//
// An attempt is reserved on both keys before the password is hashed, with the
// limiter's atomic consume (one Lua script per key in Redis, a synchronous
// increment in memory). Reading the counters first and counting the failure
// after the slow hash let 40 guesses sent at once all pass the read (issue 27:
// 39 × 401 and 1 × 200 where the sixth should have been 429). A failure keeps
// its reservation; a success clears the name and gives the address its
// attempt back, so logins that succeed never use up an address.
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { LimiterFactory } from './limiters.ts';

export const LOGIN_FAILURES_ALLOWED = 5;
const WINDOW_SECONDS = 60;

/** An attempt taken on both keys, to be settled by `succeeded` (a failure needs nothing: it stays counted). */
export interface LoginAttempt {
  readonly nameKey: string;
  readonly address: string;
  readonly byAddress: Taken;
}

/** A point taken from one limiter: its window's remaining time when it was taken, by the monotonic clock. */
interface Taken {
  readonly res: RateLimiterRes;
  readonly at: number;
}

/** A point is given back only while its window has at least this long to run, so it never lands in the next window. */
const GIVE_BACK_MARGIN_MS = 1000;

export class LoginThrottle {
  readonly #byName: RateLimiterAbstract;
  readonly #byAddress: RateLimiterAbstract;

  constructor(limiters: LimiterFactory) {
    this.#byName = limiters.create('login_fail_name', LOGIN_FAILURES_ALLOWED, WINDOW_SECONDS);
    this.#byAddress = limiters.create('login_fail_addr', LOGIN_FAILURES_ALLOWED, WINDOW_SECONDS);
  }

  /**
   * Takes one attempt on the name and on the address, or throws 429 when
   * either has used up its attempts; a refused attempt takes nothing (the key
   * that had room gets its point back).
   */
  async reserve(nameKey: string, address: string): Promise<LoginAttempt> {
    const [byName, byAddress] = await Promise.allSettled([take(this.#byName, nameKey), take(this.#byAddress, address)]);
    if (byName.status === 'fulfilled' && byAddress.status === 'fulfilled') return { nameKey, address, byAddress: byAddress.value };
    if (byName.status === 'fulfilled') await giveBack(this.#byName, nameKey, byName.value);
    if (byAddress.status === 'fulfilled') await giveBack(this.#byAddress, address, byAddress.value);
    const refusals = [byName, byAddress].flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    // A store that failed (not a refusal) is an error, not a reason to let the attempt through.
    const failure = refusals.find((reason) => reason instanceof Error);
    if (failure !== undefined) throw failure;
    const waitMs = Math.max(...refusals.map((reason) => (reason as RateLimiterRes).msBeforeNext));
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError('RATE_LIMITED', t('auth.throttled'), {
      details: { retry_after: Number(retryAfter) },
      headers: { 'retry-after': retryAfter },
    });
  }

  /** The password was right: the name's failures are forgotten and the address gets this attempt back. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await Promise.all([this.#byName.delete(attempt.nameKey), giveBack(this.#byAddress, attempt.address, attempt.byAddress)]);
  }
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<Taken> {
  const at = performance.now();
  return { res: await limiter.consume(key), at };
}

/**
 * Returns a point taken by `take`, unless its window is (nearly) over: a
 * window that ended has no point to return, and rewarding a key that has
 * expired would start the next window below zero (an extra attempt).
 */
async function giveBack(limiter: RateLimiterAbstract, key: string, taken: Taken): Promise<void> {
  // Elapsed time on the monotonic clock against the window's remaining time the store reported; no wall clock involved.
  if (performance.now() - taken.at > taken.res.msBeforeNext - GIVE_BACK_MARGIN_MS) return;
  await limiter.reward(key, 1);
}
