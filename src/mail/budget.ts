// How many mails one key (a recipient's address, a sending member) may cause
// per window. Mail that anyone can trigger (registration, password recovery,
// messages between members) must not become a way to flood a mailbox.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export class MailBudget {
  readonly #limiter: RateLimiterAbstract;

  constructor(limiter: RateLimiterAbstract) {
    this.#limiter = limiter;
  }

  /** Takes one mail from the key's budget; false when it is spent for this window. */
  async take(key: string): Promise<boolean> {
    try {
      await this.#limiter.consume(key);
      return true;
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      return false;
    }
  }
}
