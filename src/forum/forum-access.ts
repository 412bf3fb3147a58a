// Keeps the rule's snapshot (permissions.ts AccessRules) current and answers
// "what may this reader do" for every route. The snapshot is rebuilt on the
// first question after a change: this process's committed writes to the
// tables it is made of (the database's write watch), and other instances'
// (the change feed), so a change of levels or grants applies on the next
// request on every instance. Memberships and moderators come with the
// reader's credentials on each request and need no snapshot.
import type { ChangeFeed } from '../db/change-feed.ts';
import type { WriteWatch } from '../db/write-watch.ts';
import type { AccessRepository } from './access-repository.ts';
import { AccessRules, type Reader, type ReaderPermissions } from './permissions.ts';

/** The change-feed topic that tells every instance the levels or grants changed. */
export const FORUM_ACCESS_TOPIC = 'forum-access';

/** The tables the snapshot is read from (a group deleted takes its grants with it). */
export const ACCESS_TABLES: ReadonlySet<string> = new Set(['forums', 'forum_grants', 'user_groups']);

const ADMIN: Reader = { id: 0, role: 'admin' };

/** What the snapshot is read from. */
export type AccessSource = Pick<AccessRepository, 'forumRules' | 'grants'>;

export class ForumAccess {
  readonly #repository: AccessSource;
  #rules: AccessRules | null = null;
  /** Counts changes heard; a snapshot is current when it was loaded after the latest one. */
  #changes = 0;
  #loadedAt = -1;
  #loading: Promise<{ rules: AccessRules; started: number }> | null = null;

  constructor(repository: AccessSource, database: { writes: WriteWatch; changes: ChangeFeed }, onError: (error: unknown) => void) {
    this.#repository = repository;
    database.writes.subscribe((tables) => {
      for (const table of tables) {
        if (!ACCESS_TABLES.has(table)) continue;
        this.changed();
        database.changes.publish(FORUM_ACCESS_TOPIC).catch(onError);
        return;
      }
    });
    database.changes.subscribe(FORUM_ACCESS_TOPIC, () => this.changed());
  }

  /** What this reader (null: a guest) may do in every forum. */
  async of(reader: Reader | null): Promise<ReaderPermissions> {
    return (await this.rules()).for(reader);
  }

  /** An admin's answers (every forum, every action): for tools only admins open, which list every forum whoever the admin is. */
  async unrestricted(): Promise<ReaderPermissions> {
    return (await this.rules()).for(ADMIN);
  }

  /**
   * The current snapshot of every forum's levels and grants: one loaded after
   * every change heard before the question. A change heard later is for a
   * later question, so a reader waits for at most the load under way and one
   * more, however busy the writers are.
   */
  async rules(): Promise<AccessRules> {
    const asked = this.#changes;
    if (this.#rules !== null && this.#loadedAt === asked) return this.#rules;
    for (;;) {
      this.#loading ??= this.#load();
      const loaded = await this.#loading;
      if (loaded.started >= asked) return loaded.rules;
    }
  }

  /**
   * The rules changed: the next question reloads them. The write watch says so
   * for every write; a writer that answers with the new rules at once (a
   * created forum's `permissions`) says so itself, not waiting for the watch
   * (on PostgreSQL it hears of a write when the connection is released).
   */
  changed(): void {
    this.#changes++;
  }

  async #load(): Promise<{ rules: AccessRules; started: number }> {
    try {
      const started = this.#changes;
      const [forums, grants] = await Promise.all([this.#repository.forumRules(), this.#repository.grants()]);
      const rules = new AccessRules(forums, grants);
      // Loads run one at a time, so a later one never overwrites a newer snapshot.
      this.#rules = rules;
      this.#loadedAt = started;
      return { rules, started };
    } finally {
      this.#loading = null;
    }
  }
}
