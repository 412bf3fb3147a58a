// Reports of posts (migration 0048; docs/moderation.md, "Reports"): a member
// who may read a post tells its forum's moderators what is wrong with it (one
// open report per member and post, whatever the requests race); the
// moderators see the open reports of their forums, newest first, and resolve
// each (acted on it, or dismissed it), logged; the reporter is told in the
// notification centre (`report`).
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { countOf } from '../db/count.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, ModelNotFoundError, ValidationError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { hasVisibleCharacter } from '../http/validation.ts';
import { t } from '../i18n/messages.ts';
import type { NotificationStore } from '../notifications/store.ts';
import { assertModerates, assertModerator, moderatedScope } from './access.ts';
import type { ForumAccess } from './forum-access.ts';
import type { ModerationLog } from './moderation-log.ts';
import { inForums } from './permissions.ts';
import type { Posts } from './posts.ts';

export const REPORT_REASON_MAX = 1_000;
export type ReportResolution = 'acted' | 'dismissed';

export interface ReportRow {
  id: number;
  post_id: number;
  post_body: string;
  topic_id: number;
  topic_title: string;
  forum_id: number;
  reporter_id: number;
  reporter_name: string;
  reason: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by_name: string | null;
  resolution: ReportResolution | null;
}

export class Reports {
  readonly #db: Kysely<Database>;
  readonly #posts: Posts;
  readonly #access: ForumAccess;
  readonly #log: ModerationLog;
  readonly #notifications: NotificationStore;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, posts: Posts, deps: { access: ForumAccess; log: ModerationLog; notifications: NotificationStore }, clock: Clock) {
    this.#db = db;
    this.#posts = posts;
    this.#access = deps.access;
    this.#log = deps.log;
    this.#notifications = deps.notifications;
    this.#clock = clock;
  }

  /** Reports a post the member may read (not their own); answers the report's id. */
  async report(postId: number, member: AuthUser, reason: string): Promise<number> {
    const { post } = await this.#posts.withTopic(postId, member);
    if (post.author_id === member.id) throw ValidationError.field('post', t('report.own'));
    const text = reason.trim();
    if (!hasVisibleCharacter(text)) throw ValidationError.field('reason', t('report.reason_needed'));
    if (text.length > REPORT_REASON_MAX) throw ValidationError.field('reason', t('report.reason_long', { max: REPORT_REASON_MAX }));
    try {
      const row = await this.#db
        .insertInto('post_reports')
        .values({ post_id: postId, reporter_id: member.id, reason: text, created_at: isoNow(this.#clock) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      // One open report per member and post: the database's partial unique index says so.
      if (isUniqueViolation(error)) throw ValidationError.field('post', t('report.already'));
      throw error;
    }
  }

  /** A page of the reports of the posts the moderator moderates: the open ones, or those resolved, newest first. */
  async list(moderator: AuthUser, open: boolean, page: PageRequest): Promise<{ rows: ReportRow[]; total: number }> {
    assertModerator(moderator, 'access.moderators_only');
    const scope = moderatedScope(moderator, await this.#access.of(moderator));
    const base = this.#db
      .selectFrom('post_reports')
      .innerJoin('posts', 'posts.id', 'post_reports.post_id')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .where('post_reports.resolved_at', open ? 'is' : 'is not', null)
      .where(inForums('topics.forum_id', scope));
    const [rows, total] = await Promise.all([
      base
        .innerJoin('users as reporter', 'reporter.id', 'post_reports.reporter_id')
        .leftJoin('users as resolver', 'resolver.id', 'post_reports.resolved_by')
        .select([
          'post_reports.id',
          'post_reports.post_id',
          'posts.body as post_body',
          'topics.id as topic_id',
          'topics.title as topic_title',
          'topics.forum_id',
          'post_reports.reporter_id',
          'reporter.username as reporter_name',
          'post_reports.reason',
          'post_reports.created_at',
          'post_reports.resolved_at',
          'resolver.username as resolved_by_name',
          'post_reports.resolution',
        ])
        .orderBy('post_reports.id', 'desc')
        .offset(page.offset)
        .limit(page.perPage)
        .execute(),
      countOf(base),
    ]);
    return {
      rows: rows.map((row) => ({ ...row, created_at: String(row.created_at), resolved_at: row.resolved_at === null ? null : String(row.resolved_at) })),
      total,
    };
  }

  /** Resolves an open report of a post the moderator moderates: logged, and its reporter told. */
  async resolve(id: number, moderator: AuthUser, resolution: ReportResolution): Promise<void> {
    assertModerator(moderator, 'access.moderators_only');
    const report = await this.#db
      .selectFrom('post_reports')
      .innerJoin('posts', 'posts.id', 'post_reports.post_id')
      .innerJoin('topics', 'topics.id', 'posts.topic_id')
      .select([
        'post_reports.id',
        'post_reports.post_id',
        'post_reports.reporter_id',
        'post_reports.resolved_at',
        'topics.id as topic_id',
        'topics.forum_id',
        'posts.body',
      ])
      .where('post_reports.id', '=', id)
      .executeTakeFirst();
    if (report === undefined) throw new ModelNotFoundError('Report', id);
    assertModerates(moderator, report.forum_id, 'access.moderators_only');
    const at = isoNow(this.#clock);
    const telling = (await this.#notifications.deliveryOf('report', [report.reporter_id])).site.has(report.reporter_id);
    await this.#db.transaction().execute(async (trx) => {
      const resolved = await trx
        .updateTable('post_reports')
        .set({ resolved_at: at, resolved_by: moderator.id, resolution })
        .where('id', '=', id)
        .where('resolved_at', 'is', null)
        .executeTakeFirst();
      // Resolved meanwhile by another moderator: nothing more to do here.
      if (Number(resolved.numUpdatedRows) === 0) throw new ApiError('CONFLICT', t('report.resolved_already'));
      await this.#log.record(
        { actorId: moderator.id, action: 'resolve_report', forumId: report.forum_id, topicId: report.topic_id, postId: report.post_id, subject: report.body },
        at,
        trx,
      );
      if (telling) {
        await this.#notifications.add(
          trx,
          [{ userId: report.reporter_id, kind: 'report', actorId: moderator.id, topicId: report.topic_id, postId: report.post_id }],
          at,
        );
      }
    });
  }
}
