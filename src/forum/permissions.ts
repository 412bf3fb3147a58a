// The one rule of docs/access.md: may this reader take this action in this
// forum. Every read path and every write asks it (through ForumAccess), and
// every list filters in SQL by the forums it says the reader may read.
//
// The levels and grants of all forums are small (TorrentPier's biggest sites
// have a few hundred forums) and read on every request, so they are held in
// memory as one immutable snapshot (AccessRules), rebuilt when they change
// (forum/access-service.ts). A reader's answers are computed once per
// snapshot: one bit mask per forum.
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { ACCESS_ACTIONS, ACCESS_LEVELS } from '../db/migrations/0029_forum_access.ts';
import type { AccessLevel, Role } from '../db/schema.ts';

export type AccessAction = (typeof ACCESS_ACTIONS)[number];
export { ACCESS_ACTIONS, ACCESS_LEVELS };

/** What the forum resources' `permissions` name: the actions, and moderating the forum. */
export type Permission = AccessAction | 'moderate';
export type ForumLevels = Record<AccessAction, AccessLevel>;

/** A forum as the rule sees it. */
export interface ForumRules {
  id: number;
  parentId: number | null;
  levels: ForumLevels;
}

/** Actions granted in one forum to a group or a member; `actions` is a bit mask (bit n: ACCESS_ACTIONS[n]). */
export interface Grant {
  forumId: number;
  groupId: number | null;
  userId: number | null;
  actions: number;
  moderate: boolean;
}

/**
 * Who asks: a signed-in member's role, id, accepted groups and the forums they
 * moderate (all read with their credentials on every request, so a change of
 * membership or moderators applies on their next request); null for a guest.
 */
export interface Reader {
  id: number;
  role: Role;
  groupIds?: readonly number[] | undefined;
  moderatedForums?: readonly number[] | undefined;
}

const BIT = Object.fromEntries(ACCESS_ACTIONS.map((action, index) => [action, 1 << index])) as Record<AccessAction, number>;
const MODERATE_BIT = 1 << ACCESS_ACTIONS.length;

/** The bit mask of these actions (a grant's `actions` column). */
export function actionMask(actions: Iterable<AccessAction>): number {
  let mask = 0;
  for (const action of actions) mask |= BIT[action];
  return mask;
}

/** The actions of a bit mask, in ACCESS_ACTIONS order. */
export function actionsOf(mask: number): AccessAction[] {
  return ACCESS_ACTIONS.filter((action) => (mask & BIT[action]) !== 0);
}

/**
 * SQL: the column's forum is in the scope (readScope/viewScope; null: any
 * forum). An empty scope matches nothing, written so (`in ()` is no SQL).
 */
export function inForums(column: string, scope: readonly number[] | null): RawBuilder<boolean> {
  if (scope === null) return sql<boolean>`1 = 1`;
  if (scope.length === 0) return sql<boolean>`1 = 0`;
  return sql<boolean>`${sql.ref(column)} in (${sql.join(scope)})`;
}

export function isAccessAction(value: string): value is AccessAction {
  return (ACCESS_ACTIONS as readonly string[]).includes(value);
}

export function isAccessLevel(value: string): value is AccessLevel {
  return (ACCESS_LEVELS as readonly string[]).includes(value);
}

/** How many readers' answers one snapshot keeps (a reader not kept is computed again: a few microseconds per forum). */
const READERS_KEPT = 10_000;

/** The levels and grants of every forum at one moment. Immutable: a change builds a new one. */
export class AccessRules {
  readonly #forums: ReadonlyMap<number, ForumRules>;
  /** The forums in an order where a parent comes before its subforums. */
  readonly #order: readonly ForumRules[];
  readonly #byUser = new Map<number, Grant[]>();
  readonly #byGroup = new Map<number, Grant[]>();
  readonly #readers = new Map<string, ReaderPermissions>();
  readonly #guest: ReaderPermissions;

  constructor(forums: readonly ForumRules[], grants: readonly Grant[]) {
    this.#forums = new Map(forums.map((forum) => [forum.id, forum]));
    this.#order = [...forums].sort((a, b) => (a.parentId === null ? 0 : 1) - (b.parentId === null ? 0 : 1) || a.id - b.id);
    for (const grant of grants) {
      const [index, key] = grant.userId !== null ? [this.#byUser, grant.userId] : [this.#byGroup, grant.groupId!];
      const list = index.get(key) ?? [];
      list.push(grant);
      index.set(key, list);
    }
    this.#guest = this.#compute(null);
  }

  /** An empty rule set (no forum exists): what a reader sees before the first load. */
  static empty(): AccessRules {
    return new AccessRules([], []);
  }

  forum(id: number): ForumRules | undefined {
    return this.#forums.get(id);
  }

  /** What this reader may do in each forum. */
  for(reader: Reader | null): ReaderPermissions {
    if (reader === null) return this.#guest;
    const signature = `${reader.role}|${reader.id}|${(reader.groupIds ?? []).join(',')}|${(reader.moderatedForums ?? []).join(',')}`;
    let permissions = this.#readers.get(signature);
    if (permissions === undefined) {
      if (this.#readers.size >= READERS_KEPT) this.#readers.clear();
      permissions = this.#compute(reader);
      this.#readers.set(signature, permissions);
    }
    return permissions;
  }

  #compute(reader: Reader | null): ReaderPermissions {
    const granted = this.#grantedTo(reader);
    const moderated = new Set(reader?.moderatedForums ?? []);
    const masks = new Map<number, number>();
    for (const forum of this.#order) {
      const moderates = reader !== null && (reader.role === 'admin' || reader.role === 'moderator' || moderated.has(forum.id));
      let mask = 0;
      for (const action of ACCESS_ACTIONS) {
        if (passes(forum.levels[action], reader, moderates, ((granted.get(forum.id) ?? 0) & BIT[action]) !== 0)) mask |= BIT[action];
      }
      if (moderates) mask |= MODERATE_BIT;
      // A forum one may not view does not exist for one: nothing else in it either, nor in its subforums.
      const parentViewable = forum.parentId === null || ((masks.get(forum.parentId) ?? 0) & BIT.view) !== 0;
      masks.set(forum.id, (mask & BIT.view) !== 0 && parentViewable ? mask : 0);
    }
    return new ReaderPermissions(masks);
  }

  /** Per forum, the actions granted to the reader or to one of their accepted groups. */
  #grantedTo(reader: Reader | null): Map<number, number> {
    const granted = new Map<number, number>();
    if (reader === null) return granted;
    const grants = [...(this.#byUser.get(reader.id) ?? []), ...(reader.groupIds ?? []).flatMap((id) => this.#byGroup.get(id) ?? [])];
    for (const grant of grants) granted.set(grant.forumId, (granted.get(grant.forumId) ?? 0) | grant.actions);
    return granted;
  }
}

/**
 * TorrentPier's levels: everyone; signed-in members; those granted the
 * action; the forum's moderators; admins. Who passes a level passes every
 * lower one: a forum's moderators pass `private`, admins pass everything.
 */
function passes(level: AccessLevel, reader: Reader | null, moderates: boolean, granted: boolean): boolean {
  if (level === 'all') return true;
  if (reader === null) return false;
  if (reader.role === 'admin') return true;
  switch (level) {
    case 'members':
      return true;
    case 'private':
      return granted || moderates;
    case 'moderators':
      return moderates;
    case 'admins':
      return false;
  }
}

/** One reader's answers in every forum, for one snapshot of the rules. */
export class ReaderPermissions {
  readonly #masks: ReadonlyMap<number, number>;
  #key: string | undefined;
  #readable: readonly number[] | undefined;
  #viewable: readonly number[] | undefined;
  /** May read (and so view) every forum: lists need no filter. */
  readonly readsEverything: boolean;
  readonly viewsEverything: boolean;

  constructor(masks: ReadonlyMap<number, number>) {
    this.#masks = masks;
    this.readsEverything = [...masks.values()].every((mask) => (mask & BIT.read) !== 0);
    this.viewsEverything = [...masks.values()].every((mask) => (mask & BIT.view) !== 0);
  }

  /** May take this action in this forum; false for a forum that does not exist. */
  may(forumId: number, action: AccessAction): boolean {
    return ((this.#masks.get(forumId) ?? 0) & BIT[action]) !== 0;
  }

  /** Moderates this forum (staff everywhere; a forum moderator in their forums). */
  moderates(forumId: number): boolean {
    return ((this.#masks.get(forumId) ?? 0) & MODERATE_BIT) !== 0;
  }

  /** The forum resources' `permissions`: every action, and `moderate`. */
  flags(forumId: number): Record<Permission, boolean> {
    const mask = this.#masks.get(forumId) ?? 0;
    const flags = Object.fromEntries(ACCESS_ACTIONS.map((action) => [action, (mask & BIT[action]) !== 0])) as Record<Permission, boolean>;
    flags.moderate = (mask & MODERATE_BIT) !== 0;
    return flags;
  }

  /** The forums whose topics and posts this reader may read, ascending: what every list across forums filters on. */
  readableForumIds(): readonly number[] {
    return (this.#readable ??= this.#having(BIT.read));
  }

  /** What a list across forums filters on: null when this reader may read every forum (no filter at all), else readableForumIds(). */
  readScope(): readonly number[] | null {
    return this.readsEverything ? null : this.readableForumIds();
  }

  /** What a list of forums filters on: null when every forum exists for this reader, else viewableForumIds(). */
  viewScope(): readonly number[] | null {
    return this.viewsEverything ? null : this.viewableForumIds();
  }

  /** The forums that exist for this reader (listed, searchable, 404 otherwise), ascending. */
  viewableForumIds(): readonly number[] {
    return (this.#viewable ??= this.#having(BIT.view));
  }

  /**
   * Names this reader's answers, not the reader: two readers with the same
   * answers everywhere share it (all guests do; so do members without grants),
   * so page caches keyed by it are shared exactly as far as they may be.
   */
  get key(): string {
    if (this.#key === undefined) {
      const digest = createHash('sha256');
      for (const [forumId, mask] of [...this.#masks].sort((a, b) => a[0] - b[0])) digest.update(`${forumId}:${mask};`);
      this.#key = digest.digest('base64url').slice(0, 22);
    }
    return this.#key;
  }

  #having(bit: number): number[] {
    return [...this.#masks]
      .filter(([, mask]) => (mask & bit) !== 0)
      .map(([id]) => id)
      .sort((a, b) => a - b);
  }
}
