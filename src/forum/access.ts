// Who sees and who may change forum content: one definition for every job
// of the forum module (forums.ts, topics.ts, posts.ts, moderation.ts, watchlist.ts).
// Moderation is per forum (docs/moderation.md, "Forum moderators"): staff
// moderate everywhere, a forum moderator in the forums assigned to them. The
// forum asked about is always the one the topic or post is in, as read from
// the database, never one a client names. Refusals are in the reader's
// language: a page's, or the API's English (its requests have no reader).
import { hasRole, MODERATORS, STAFF } from '../auth/guard.ts';
import type { AuthUser } from '../auth/service.ts';
import type { ContentStatus } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { t, type TextKey } from '../i18n/messages.ts';
import type { AccessAction, ReaderPermissions } from './permissions.ts';
import type { ScopedVisibility, Visibility } from './repository.ts';

/** A page of rows and how many there are in all. */
export interface Listed<T> {
  rows: T[];
  total: number;
}

/** Moderators and admins: the roles that see and change every post in every forum (the guards' one role check). */
export function isStaff(user: AuthUser | null): boolean {
  return hasRole(user, STAFF);
}

/**
 * Moderates this forum: staff everywhere; a forum moderator in each forum
 * assigned to them, and only there (not in its subforums: each forum has its
 * own moderators, as each had its own permissions in TorrentPier).
 */
export function moderates(user: AuthUser | null, forumId: number): boolean {
  return isStaff(user) || (user !== null && (user.moderatedForums?.includes(forumId) ?? false));
}

/**
 * What a viewer's reads filter on: published rows, their own pending ones, or
 * all for those who moderate there. `forumId` is the one forum the read is in
 * (a forum's topics, a topic's posts); null for reads across forums (search,
 * unread counts, the watchlist), where only staff see everything.
 */
export function visibility(viewer: AuthUser | null, forumId: number | null): Visibility {
  return { viewerId: viewer?.id ?? null, seesAllPending: forumId === null ? isStaff(viewer) : moderates(viewer, forumId) };
}

/**
 * What a viewer's reads across forums filter on (search, unread counts, the
 * watchlist): as visibility(viewer, null), in the forums their permissions
 * let them read (docs/access.md: filtered in SQL, so pages and totals agree).
 */
export function acrossForums(viewer: AuthUser | null, permissions: ReaderPermissions): ScopedVisibility {
  return { ...visibility(viewer, null), forums: permissions.readScope() };
}

/**
 * Pending topics and posts are their author's and the forum's moderators' only;
 * hidden ones the moderators' only. `forumId`: the forum the row is in.
 */
export function canSee(row: { status: ContentStatus; author_id: number | null; hidden_at: string | null }, viewer: AuthUser | null, forumId: number): boolean {
  if (moderates(viewer, forumId)) return true;
  if (row.hidden_at !== null) return false;
  return row.status === 'published' || (viewer !== null && row.author_id === viewer.id);
}

/** Why an action in a forum the reader may view is refused (403). */
const NEEDED = {
  read: 'access.read_needed',
  post: 'access.post_needed',
  reply: 'access.reply_needed',
  edit: 'access.edit_needed',
  delete: 'access.delete_needed',
  pin: 'access.pin_needed',
  announce: 'access.announce_needed',
} as const satisfies Partial<Record<AccessAction, TextKey>>;

/** The actions single resources and writes check (each with its refusal). */
export type CheckedAction = keyof typeof NEEDED;

/**
 * The one rule (permissions.ts) where one topic, post or forum is asked
 * for: in a forum the reader may not view, the thing does not exist for
 * them (`notFound`: the very answer an unknown id gets, so nothing tells the
 * two apart); in one they may view, an action they may not take is a 403
 * that says which right is missing. `forumId` is the forum the topic or
 * post is in, as read from the database.
 */
export function assertMay(permissions: ReaderPermissions, forumId: number, action: CheckedAction, notFound: () => Error): void {
  if (!permissions.may(forumId, 'view')) throw notFound();
  if (!permissions.may(forumId, action)) throw new ApiError('FORBIDDEN', t(NEEDED[action]));
}

/**
 * A change to a text (`edit`, `delete`): a moderator of the forum changes
 * any; its author changes their own when the forum gives them the right
 * (TorrentPier's auth_edit, auth_delete). The forum is one they read: the
 * post was found through the rule.
 */
export function assertMayChange(authorId: number | null, user: AuthUser, forumId: number, permissions: ReaderPermissions, action: 'edit' | 'delete'): void {
  if (moderates(user, forumId)) return;
  if (authorId !== user.id) throw new ApiError('FORBIDDEN', t('access.author_or_moderator'));
  if (!permissions.may(forumId, action)) throw new ApiError('FORBIDDEN', t(NEEDED[action]));
}

/**
 * 403 unless the user moderates somewhere: a member is refused before
 * anything is looked up, as the API's guard (MODERATORS) refuses them.
 */
/**
 * The forums whose moderation a moderator sees (the queue, the log): null for
 * staff (every forum), else the forums they moderate by the forums' rule (a
 * moderated forum that does not exist for them, under a parent they may not
 * view, is not theirs).
 */
export function moderatedScope(moderator: AuthUser, permissions: Pick<ReaderPermissions, 'moderates'>): readonly number[] | null {
  return isStaff(moderator) ? null : (moderator.moderatedForums ?? []).filter((forumId) => permissions.moderates(forumId));
}

export function assertModerator(user: AuthUser, refusal: TextKey): void {
  if (!hasRole(user, MODERATORS)) throw new ApiError('FORBIDDEN', t(refusal));
}

/** 403 unless the user moderates this forum (the forum of the topic or post acted on). */
export function assertModerates(user: AuthUser, forumId: number, refusal: TextKey): void {
  if (!moderates(user, forumId)) throw new ApiError('FORBIDDEN', t(refusal));
}
