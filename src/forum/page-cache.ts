// Rendered fragments of the forum's busiest pages: a topic page's list of
// posts and a forum page's table of topics, kept with the count of what they
// list so that a view that finds them runs neither the list's query nor its
// rendering. The rest of the page (heading, counters, forms with their CSRF
// token, watch buttons, the torrent block with the viewer's passkey) is built
// for each view as before.
//
// Who may share a fragment: a fragment holds only what every viewer of its
// kind sees alike. Guests see the published posts and topics; moderators and
// admins see everything (pending ones too); a member also sees their own
// pending posts and topics. A post list holds "Delete" under the viewer's own
// replies, so every signed-in viewer's fragments are kept under their own id
// (staff are few: `s<id>`; members `u<id>`). A forum moderator sees their forum
// as staff do, but stays one member: their fragments of that forum are kept
// under their own id with its own mark (`m` rather than `u`), so a fragment
// filled before they began or stopped moderating it is never shown to them.
// The key says which (`viewerKind`), with the reader's language and time
// zone, which its dates and words follow.
//
// Freshness: any committed write to the forums, forum_grants, categories,
// topics, posts, users, user_groups, group_members or ranks tables (posts,
// moderation, renames, signatures, a forum's moderators, deleted users,
// view-count batches, memberships) and any change to the word-filter rules
// or the emoji catalog empties the cache on every instance (the database's
// write watch and the change feed, services.ts). A fill that began before an
// emptying is not kept. View counts not yet written are not in the fragment:
// its view cells are holes filled on every view, so a view shows at once as
// before.
import { randomUUID } from 'node:crypto';
import { nextTurn } from '../turns.ts';
import type { AuthUser } from '../auth/service.ts';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import { raw, type SafeHtml } from '../web/html.ts';
import { isStaff, moderates } from './service.ts';
import { currentReader } from '../i18n/context.ts';

/** The change-feed topic that empties every instance's page cache. */
export const FORUM_PAGES_TOPIC = 'forum-pages';

/** About 32 MB of UTF-16 text. */
const DEFAULT_MAX_CHARS = 16_000_000;
/** A fragment longer than this (50 very long posts) is rendered each time rather than crowd out many pages. */
const MAX_ENTRY_CHARS = 2_000_000;

/** A rendered list and the number of items it was paged from. */
export interface Fragment<T = unknown> {
  /** HTML with holes: parts[0], hole 0, parts[1], …; holes.length === parts.length - 1. */
  parts: readonly string[];
  /** The number each hole was made with (PageCache.hole). */
  holes: readonly number[];
  total: number;
  /** What the fill kept beside the HTML to fill its holes. */
  data: T;
  chars: number;
}

/** A marker no escaped HTML contains, cut out of a fill to leave a hole. */
const HOLE = `\u0000${randomUUID()}\u0000`;

/**
 * Who sees a list of forum `forumId` the same way: guests, staff, one member, or
 * one member who moderates that forum; each in one language and time zone (its dates and words).
 */
export function viewerKind(viewer: AuthUser | null, forumId: number): string {
  const { locale, timeZone } = currentReader();
  const who = viewer === null ? 'g' : isStaff(viewer) ? `s${viewer.id}` : moderates(viewer, forumId) ? `m${viewer.id}` : `u${viewer.id}`;
  return `${who} ${locale} ${timeZone}`;
}

export class PageCache {
  readonly #maxChars: number;
  #entries = new Map<string, Fragment<unknown>>();
  #chars = 0;
  #generation = 0;

  constructor(maxChars = DEFAULT_MAX_CHARS) {
    this.#maxChars = maxChars;
  }

  get size(): number {
    return this.#entries.size;
  }

  get chars(): number {
    return this.#chars;
  }

  /** Marks where hole `id` goes in a fill's HTML (the hole's value is given to html()). */
  static hole(id: number): SafeHtml {
    return raw(`${HOLE}${id}${HOLE}`);
  }

  /**
   * The fragment under `key`, or `fill`'s, kept unless the cache was emptied
   * meanwhile. `fill` returns the HTML (with holes) and the total.
   */
  async get<T>(key: string, fill: () => Promise<{ html: SafeHtml; total: number; data: T }>): Promise<Fragment<T>> {
    const hit = this.#entries.get(key) as Fragment<T> | undefined;
    if (hit !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    // A fill is a page's costliest part: fills take turns, so other requests are answered between them.
    await nextTurn();
    const generation = this.#generation;
    const filled = await fill();
    const fragment = cut(filled.html.value, filled.total, filled.data);
    if (generation === this.#generation) this.#store(key, fragment);
    return fragment;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries = new Map();
    this.#chars = 0;
  }

  #store(key: string, fragment: Fragment<unknown>): void {
    const size = key.length + fragment.chars;
    if (size > MAX_ENTRY_CHARS || size > this.#maxChars) return;
    for (const [oldKey, old] of this.#entries) {
      if (this.#chars + size <= this.#maxChars) break;
      this.#entries.delete(oldKey);
      this.#chars -= oldKey.length + old.chars;
    }
    this.#entries.set(key, fragment);
    this.#chars += size;
  }
}

/** The fragment's HTML with each hole's value (from `value(id)`) put in. */
export function filled<T>(fragment: Fragment<T>, value: (id: number) => number | string): SafeHtml {
  const { parts, holes } = fragment;
  if (holes.length === 0) return raw(parts[0]!);
  let out = parts[0]!;
  for (let i = 0; i < holes.length; i++) out += String(value(holes[i]!)) + parts[i + 1]!;
  return raw(out);
}

/** A fill used once, without a cache. */
export function uncached<T>(fill: { html: SafeHtml; total: number; data: T }): Fragment<T> {
  return cut(fill.html.value, fill.total, fill.data);
}

function cut<T>(text: string, total: number, data: T): Fragment<T> {
  const pieces = text.split(HOLE);
  // pieces: text, id, text, id, text …
  const parts: string[] = [];
  const holes: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 0) parts.push(pieces[i]!);
    else holes.push(Number(pieces[i]));
  }
  return { parts, holes, total, data, chars: text.length };
}

/**
 * The tables whose rows show on the forum's pages: a committed write to any of
 * them empties every instance's cache. Forum categories (the index's headings)
 * are among them, so that a fragment that ever shows one is never stale; so
 * are grants (a forum's moderators are grants that moderate, migration 0029),
 * groups and their memberships, which decide what a member may read (a
 * fragment kept under their id must not outlive a membership that ended).
 */
export const PAGE_TABLES: ReadonlySet<string> = new Set([
  'forums',
  'forum_grants',
  'categories',
  'topics',
  'posts',
  'users',
  'user_groups',
  'group_members',
  'ranks',
]);

/**
 * Keeps `cache` fresh: empties it when this process writes one of
 * PAGE_TABLES (and tells the other instances through the change feed), when
 * another instance says so, and on any of `alsoOn` (rules, emoji catalog:
 * they change how texts render).
 */
export function keepFresh(
  cache: PageCache,
  database: { writes: WriteWatch; changes: ChangeFeed },
  alsoOn: readonly string[],
  onError: (error: unknown) => void,
): void {
  database.writes.subscribe((tables) => {
    for (const table of tables) {
      if (!PAGE_TABLES.has(table)) continue;
      cache.clear();
      database.changes.publish(FORUM_PAGES_TOPIC).catch(onError);
      return;
    }
  });
  for (const topic of [FORUM_PAGES_TOPIC, ...alsoOn]) database.changes.subscribe(topic, () => cache.clear());
}
