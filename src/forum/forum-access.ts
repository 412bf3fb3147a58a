// Keeps the rule's snapshot (permissions.ts AccessRules) current and answers
// "what may this reader do" for every route. The snapshot (db/snapshot.ts) is
// rebuilt on the first question after a change of the tables it is made of,
// by this process or another instance, so a change of levels or grants
// applies on the next request on every instance. Memberships and moderators
// come with the reader's credentials on each request and need no snapshot.
import type { ChangeFeed } from '../db/change-feed.ts';
import { Snapshot } from '../db/snapshot.ts';
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
  readonly #snapshot: Snapshot<AccessRules>;

  constructor(repository: AccessSource, database: { writes: WriteWatch; changes: ChangeFeed }, onError: (error: unknown) => void) {
    this.#snapshot = new Snapshot(
      {
        topic: FORUM_ACCESS_TOPIC,
        tables: ACCESS_TABLES,
        load: async () => {
          const [forums, grants] = await Promise.all([repository.forumRules(), repository.grants()]);
          return new AccessRules(forums, grants);
        },
      },
      database,
      onError,
    );
  }

  /** What this reader (null: a guest) may do in every forum. */
  async of(reader: Reader | null): Promise<ReaderPermissions> {
    return (await this.rules()).for(reader);
  }

  /** An admin's answers (every forum, every action): for tools only admins open, which list every forum whoever the admin is. */
  async unrestricted(): Promise<ReaderPermissions> {
    return (await this.rules()).for(ADMIN);
  }

  /** The current snapshot of every forum's levels and grants (db/snapshot.ts: loaded after every change heard before the question). */
  rules(): Promise<AccessRules> {
    return this.#snapshot.current();
  }

  /**
   * The rules changed: the next question reloads them. A writer that answers
   * with the new rules at once (a created forum's `permissions`) says so
   * itself, not waiting for the write watch.
   */
  changed(): void {
    this.#snapshot.changed();
  }
}
