// The moderation log: every moderator's action on topics, posts and members, written
// in the same transaction as the action itself, read by admins
// (/admin/moderation-log/, GET /api/moderation-log), newest first.
import type { Kysely, Selectable, Transaction } from 'kysely';
import { countOf } from '../db/count.ts';
import type { Database, ModerationAction, ModerationLogTable } from '../db/schema.ts';
import type { PageRequest } from '../http/pagination.ts';
import { usernameKey } from '../users/repository.ts';
import type { Listed } from './access.ts';
import { inForums } from './permissions.ts';

export const MODERATION_ACTIONS: readonly ModerationAction[] = [
  'approve',
  'reject',
  'lock',
  'unlock',
  'pin',
  'unpin',
  'announce',
  'unannounce',
  'close_poll',
  'reopen_poll',
  'delete_poll',
  'comment_post',
  'uncomment_post',
  'move',
  'split_topic',
  'merge_topic',
  'resolve_report',
  'delete_topic',
  'delete_post',
  'ban',
  'unban',
  'hide_post',
  'restore_post',
  'hide_topic',
  'restore_topic',
  'remove_avatar',
  'set_permissions',
];

/** How long a post's start kept as the subject of its entry. */
const SUBJECT_MAX = 120;

export type LogEntry = Selectable<ModerationLogTable> & {
  actor_name: string | null;
  user_name: string | null;
  forum_name: string | null;
  to_forum_name: string | null;
};

export interface NewLogEntry {
  actorId: number;
  action: ModerationAction;
  forumId: number | null;
  toForumId?: number;
  topicId: number | null;
  postId?: number;
  /** The member a ban or an avatar removal is about. */
  userId?: number;
  subject: string;
}

export interface LogFilter {
  action: ModerationAction | null;
  /** The moderator's user name, any letter case; a name nobody has matches nothing. */
  actorName: string | null;
  topicId: number | null;
}

type Db = Kysely<Database> | Transaction<Database>;

export class ModerationLog {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Written inside the action's transaction: an action is logged exactly when it happened. */
  async record(entry: NewLogEntry, at: string, db: Db): Promise<void> {
    await db
      .insertInto('moderation_log')
      .values({
        actor_id: entry.actorId,
        action: entry.action,
        forum_id: entry.forumId,
        to_forum_id: entry.toForumId ?? null,
        topic_id: entry.topicId,
        post_id: entry.postId ?? null,
        user_id: entry.userId ?? null,
        subject: subjectOf(entry.subject),
        created_at: at,
      })
      .execute();
  }

  /**
   * Entries newest first. `scope` (access.ts moderatedScope): null for every
   * entry (staff); else only those about these forums (a topic moved from or
   * into one of them), never a ban or an avatar removal (no forum). A forum
   * outside `viewable` (null: all) is not named.
   */
  async list(
    filter: LogFilter,
    page: PageRequest,
    scope: readonly number[] | null = null,
    viewable: readonly number[] | null = null,
  ): Promise<Listed<LogEntry>> {
    let base = this.#db.selectFrom('moderation_log');
    if (scope !== null) base = base.where((eb) => eb.or([inForums('moderation_log.forum_id', scope), inForums('moderation_log.to_forum_id', scope)]));
    if (filter.action !== null) base = base.where('moderation_log.action', '=', filter.action);
    if (filter.actorName !== null) {
      const key = usernameKey(filter.actorName.trim());
      base = base.where('moderation_log.actor_id', 'in', (eb) => eb.selectFrom('users').select('users.id').where('users.username_key', '=', key));
    }
    if (filter.topicId !== null) base = base.where('moderation_log.topic_id', '=', filter.topicId);
    const rows = base
      .leftJoin('users as u', 'u.id', 'moderation_log.actor_id')
      .leftJoin('users as m', 'm.id', 'moderation_log.user_id')
      .leftJoin('forums as f', 'f.id', 'moderation_log.forum_id')
      .leftJoin('forums as t', 't.id', 'moderation_log.to_forum_id')
      .selectAll('moderation_log')
      .select(['u.username as actor_name', 'm.username as user_name', 'f.name as forum_name', 't.name as to_forum_name'])
      .orderBy('moderation_log.id', 'desc')
      .offset(page.offset)
      .limit(page.perPage)
      .execute();
    const seen = viewable === null ? null : new Set(viewable);
    const named = (id: number | null, name: string | null) => (seen === null || (id !== null && seen.has(id)) ? name : null);
    const listed = (await rows).map((row) => ({
      ...row,
      forum_name: named(row.forum_id, row.forum_name),
      to_forum_name: named(row.to_forum_id, row.to_forum_name),
    }));
    return { rows: listed, total: await countOf(base) };
  }
}

/** One line of at most SUBJECT_MAX characters (whole code points). */
function subjectOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= SUBJECT_MAX ? line : `${chars.slice(0, SUBJECT_MAX - 1).join('')}…`;
}
