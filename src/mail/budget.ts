// How many mails one key (a recipient's address, a sending member) may cause
// per window. Mail that anyone can trigger (registration, password recovery,
// messages between members) must not become a way to flood a mailbox; mail an
// administrator sends to every member goes out at the pace the operator set
// (MASS_MAIL_PER_MINUTE), waiting for the next window instead of giving up.
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export class MailBudget {
  readonly #limiter: RateLimiterAbstract;

  constructor(limiter: RateLimiterAbstract) {
    this.#limiter = limiter;
  }

  /** Takes one mail from the key's budget; false when it is spent for this window. */
  async take(key: string): Promise<boolean> {
    return (await this.tryTake(key)) === 0;
  }

  /**
   * Takes one mail from the key's budget and answers 0, or, when it is spent,
   * takes nothing and answers how many milliseconds are left until the window
   * that has room: for senders that wait rather than give up (mass mail).
   */
  async tryTake(key: string): Promise<number> {
    try {
      await this.#limiter.consume(key);
      return 0;
    } catch (rejection) {
      // rate-limiter-flexible rejects with its RateLimiterRes when the points are spent, with an Error when its store fails.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return Math.max(1, rejection.msBeforeNext);
    }
  }
}
