// Failed logins are counted per user name and per client address; after five
// failures in a minute either key is refused with 429 until the window ends.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { LimiterFactory } from './limiters.ts';

export const LOGIN_FAILURES_ALLOWED = 5;
const WINDOW_SECONDS = 60;

export class LoginThrottle {
  readonly #byName: RateLimiterAbstract;
  readonly #byAddress: RateLimiterAbstract;

  constructor(limiters: LimiterFactory) {
    this.#byName = limiters.create('login_fail_name', LOGIN_FAILURES_ALLOWED, WINDOW_SECONDS);
    this.#byAddress = limiters.create('login_fail_addr', LOGIN_FAILURES_ALLOWED, WINDOW_SECONDS);
  }

  /** Throws 429 when either key has used up its failures. */
  async assertAllowed(nameKey: string, address: string): Promise<void> {
    const [byName, byAddress] = await Promise.all([this.#byName.get(nameKey), this.#byAddress.get(address)]);
    const blocked = [byName, byAddress].filter((res) => res !== null && res.consumedPoints >= LOGIN_FAILURES_ALLOWED);
    if (blocked.length === 0) return;
    const waitMs = Math.max(...blocked.map((res) => res!.msBeforeNext));
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError('RATE_LIMITED', t('auth.throttled'), {
      details: { retry_after: Number(retryAfter) },
      headers: { 'retry-after': retryAfter },
    });
  }

  async recordFailure(nameKey: string, address: string): Promise<void> {
    await Promise.all([this.#byName.penalty(nameKey, 1), this.#byAddress.penalty(address, 1)]);
  }

  async recordSuccess(nameKey: string): Promise<void> {
    await this.#byName.delete(nameKey);
  }
}
