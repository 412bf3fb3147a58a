// How much transfer one user may be credited on one torrent over time: at
// most the configured maximum speed over wall-clock time, however many peers
// (clients, peer_ids, sessions) report it. A bound per announce would bound
// nothing: twenty peers announcing in one second would each get a second's
// worth. Each (user, torrent, direction) keeps the moment up to which its
// budget is spent, starting when it is first seen (a new session's baseline
// announce): a transfer of b bytes spends b / speed seconds from there, and is
// refused when that would run more than a second past now. Budget left unused
// for longer than `horizonMs` (a peer's lifetime without an announce) does not
// pile up.
//
// Kept in this process's memory: with several instances behind a load
// balancer each bounds what it is told (docs/tracker.md, "Accounting").

/** A transfer may run this far ahead of the clock (one announce's rounding). */
const SLACK_MS = 1000;

export class TransferBudget {
  readonly #bytesPerMs: number;
  readonly #horizonMs: number;
  readonly #spentUntil = new Map<string, number>();

  constructor(bytesPerSecond: number, horizonMs: number) {
    this.#bytesPerMs = bytesPerSecond / 1000;
    this.#horizonMs = horizonMs;
  }

  /** Spends `bytes` of the budget of `key` at `now` (ms) and answers true, or answers false and spends nothing. */
  take(key: string, bytes: number, now: number): boolean {
    const spent = this.#spentUntil.get(key);
    if (bytes <= 0) {
      if (spent === undefined) this.#spentUntil.set(key, now);
      return true;
    }
    const from = Math.max(spent ?? now, now - this.#horizonMs);
    const until = from + bytes / this.#bytesPerMs;
    if (until > now + SLACK_MS) return false;
    this.#spentUntil.set(key, until);
    return true;
  }

  /** Forgets keys whose budget is whole again (nothing spent within the horizon). */
  prune(now: number): void {
    for (const [key, until] of this.#spentUntil) if (until <= now - this.#horizonMs) this.#spentUntil.delete(key);
  }

  get size(): number {
    return this.#spentUntil.size;
  }
}
