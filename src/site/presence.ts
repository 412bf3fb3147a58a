// Who is online (the index's "who is online", as TorrentPier shows it): the
// members and guests who opened a page in the last few minutes. Kept in this
// instance's memory, one entry per member or guest address, refreshed by each
// page they open and forgotten after the window: nothing is written per
// request. Behind several instances each counts its own visitors
// (docs/front-end.md). A member who chose to hide (their setting, as
// TorrentPier's user_viewonline) is counted but named to staff only.
import { type Clock, msNow } from '../clock.ts';

/** How long a visitor counts as online after their last page. */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;
/** Most members named; the rest are counted. */
export const ONLINE_NAMED = 100;
/** Most guest addresses kept: a flood from ever new addresses drops the oldest rather than grow memory. */
const GUESTS_KEPT = 100_000;

export interface Online {
  /** Newest first, at most ONLINE_NAMED; hidden members only when asked for. */
  members: Array<{ id: number; name: string; hidden: boolean }>;
  /** Every member online, hidden ones included. */
  memberCount: number;
  /** Of them, those who chose to hide. */
  hiddenCount: number;
  guestCount: number;
}

/** A member as presence sees them: their settings say whether they hide. */
export interface Visitor {
  id: number;
  name: string;
  hidesOnline?: boolean;
}

export class Presence {
  readonly #clock: Clock;
  /** By member id; a Map keeps insertion order, and each visit re-inserts: oldest first. */
  readonly #members = new Map<number, { name: string; at: number; hidden: boolean }>();
  readonly #guests = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** A page was opened by the request's member (or a guest at its address). */
  seenBy(request: { user: Visitor | null; ip: string }): void {
    this.seen(request.user, request.ip);
  }

  /** A page was opened by this member (or a guest at this address). */
  seen(member: Visitor | null, address: string): void {
    const now = msNow(this.#clock);
    if (member === null) {
      this.#guests.delete(address);
      this.#guests.set(address, now);
      if (this.#guests.size > GUESTS_KEPT) this.#guests.delete(this.#guests.keys().next().value!);
    } else {
      this.#members.delete(member.id);
      this.#members.set(member.id, { name: member.name, at: now, hidden: member.hidesOnline === true });
    }
    // Forgetting as we go keeps both maps to the visitors of one window.
    this.#forget(now - ONLINE_WINDOW_MS);
  }

  /** Who is online; `withHidden` (staff) names the members who hide too. */
  online(withHidden = false): Online {
    this.#forget(msNow(this.#clock) - ONLINE_WINDOW_MS);
    const members: Online['members'] = [];
    let hiddenCount = 0;
    for (const [id, entry] of [...this.#members].reverse()) {
      if (entry.hidden) hiddenCount += 1;
      if ((withHidden || !entry.hidden) && members.length < ONLINE_NAMED) members.push({ id, name: entry.name, hidden: entry.hidden });
    }
    return { members, memberCount: this.#members.size, hiddenCount, guestCount: this.#guests.size };
  }

  /** Drops the entries from `before` or earlier: they are first in each map. */
  #forget(before: number): void {
    for (const [id, entry] of this.#members) {
      if (entry.at > before) break;
      this.#members.delete(id);
    }
    for (const [address, at] of this.#guests) {
      if (at > before) break;
      this.#guests.delete(address);
    }
  }
}
