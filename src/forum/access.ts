// Who sees and who may change forum content: one definition for every job
// of the forum module (forums.ts, topics.ts, posts.ts, moderation.ts, watchlist.ts).
import { hasRole, STAFF } from '../auth/guard.ts';
import type { AuthUser } from '../auth/service.ts';
import type { ContentStatus } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { Visibility } from './repository.ts';

/** A page of rows and how many there are in all. */
export interface Listed<T> {
  rows: T[];
  total: number;
}

/** Moderators and admins: the roles that see and change every post (the guards' one role check). */
export function isStaff(user: AuthUser | null): boolean {
  return hasRole(user, STAFF);
}

/** What a viewer's reads filter on: published rows, their own pending ones, or all for moderators. */
export function visibility(viewer: AuthUser | null): Visibility {
  return { viewerId: viewer?.id ?? null, seesAllPending: isStaff(viewer) };
}

/** Pending topics and posts are their author's and the moderators' only; hidden ones the moderators' only. */
export function canSee(row: { status: ContentStatus; author_id: number | null; hidden_at: string | null }, viewer: AuthUser | null): boolean {
  if (isStaff(viewer)) return true;
  if (row.hidden_at !== null) return false;
  return row.status === 'published' || (viewer !== null && row.author_id === viewer.id);
}

export function assertMayEdit(authorId: number | null, editor: AuthUser): void {
  if (!isStaff(editor) && authorId !== editor.id) throw new ApiError('FORBIDDEN', 'Only the author or a moderator can change this.');
}
