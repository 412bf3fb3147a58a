// Who is calling, and may they: one guard for Bearer tokens and web sessions
// (CSRF for sessions: csrf.ts).
// Every request is looked at once (onRequest); routes state what they need
// as `preValidation`: the API with `requireRole(ADMINS)` or `requireUser()`
// (401/403 in the API's shape), pages with `requirePage(STAFF)` or
// `requirePageUser` (guests are sent to /login/ and brought back; users
// without the role get the 403 page). Both kinds are the same check, `hasRole`.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { isHtmx } from '../http/htmx.ts';
import { localPath } from '../http/local-path.ts';
import type { AuthService, AuthUser, Authenticated, Credentials, MemberTransfer } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated, active user; null for guests. */
    user: AuthUser | null;
    credentials: Credentials | null;
    /** The user's private messages not opened yet, for the page header (0 for guests). */
    unreadMessages: number;
    /** Notifications not read yet, for the header (0 for guests). */
    unreadNotifications: number;
    /** The member's language and time zone settings; null for guests (i18n/context.ts reads them). */
    readingSettings: Authenticated['reading'] | null;
    /** The member's transfer and bonus for the page header (web sessions only); null otherwise. */
    memberTransfer: MemberTransfer | null;
  }
}

export const SESSION_COOKIE = 'forum_session';

export function installAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.decorateRequest('credentials', null);
  app.decorateRequest('unreadMessages', 0);
  app.decorateRequest('unreadNotifications', 0);
  app.decorateRequest('readingSettings', null);
  app.decorateRequest('memberTransfer', null);

  app.addHook('onRequest', async (request) => {
    // The tracker's announce and scrape authenticate by passkey only: no session or token lookup on the hottest path.
    if (request.url.startsWith('/bt/')) return;
    const header = request.headers.authorization;
    // An Authorization header speaks for the request even when a cookie is present too.
    const found =
      header !== undefined
        ? await authenticateHeader(auth, header)
        : request.cookies[SESSION_COOKIE]
          ? await auth.authenticateSession(request.cookies[SESSION_COOKIE])
          : null;
    if (found !== null) {
      request.user = found.user;
      request.credentials = found.credentials;
      request.unreadMessages = found.unreadMessages;
      request.unreadNotifications = found.unreadNotifications;
      request.readingSettings = found.reading;
      request.memberTransfer = found.transfer ?? null;
    }
  });
}

export const STAFF: readonly Role[] = ['admin', 'moderator'];
export const ADMINS: readonly Role[] = ['admin'];
/**
 * Staff, and the members who moderate at least one forum (forum moderators,
 * docs/moderation.md): who may reach the moderation tools at all. Which
 * forums a forum moderator may act in is the forum module's check (forum/access.ts).
 */
export const MODERATORS = 'staff-and-forum-moderators';

/** Who a guard lets through: the users of these roles, or MODERATORS. */
export type Access = readonly Role[] | typeof MODERATORS;

/** The one role check behind every guard: a signed-in user whose role is listed (or, for MODERATORS, who moderates somewhere). */
export function hasRole(user: AuthUser | null, access: Access): user is AuthUser {
  if (user === null) return false;
  if (access === MODERATORS) return STAFF.includes(user.role) || (user.moderatedForums?.length ?? 0) > 0;
  return access.includes(user.role);
}

/** Route guard (register as `preValidation`, so it answers before the body is judged): 401 for guests, 403 for users whose role is not listed. */
export function requireRole(roles: Access) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (!hasRole(assertUser(request), roles)) throw new ApiError('FORBIDDEN', 'This action is unauthorized.');
  };
}

/** Route guard (as `preValidation`): any authenticated, active user. */
export function requireUser() {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    assertUser(request);
  };
}

/** The current user, or 401. For handlers whose guard already ran. */
export function assertUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw new ApiError('UNAUTHENTICATED', 'Unauthenticated.');
  return request.user;
}

/**
 * Page guard (as `preValidation`): guests are sent to /login/ and brought back
 * (an htmx request is redirected as a whole page: a login form swapped into a
 * table row would help nobody); signed-in users without the role get the 403 page.
 */
export function requirePage(roles: Access) {
  return async function pageGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.user === null) return sendToLogin(request, reply);
    if (!hasRole(request.user, roles)) throw new ApiError('FORBIDDEN', t('error.no_access'));
  };
}

/** Page guard (as `preValidation`) for pages that need a login, whatever the role. */
export async function requirePageUser(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.user === null) await sendToLogin(request, reply);
}

async function sendToLogin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isHtmx(request)) {
    const login = `/login/?next=${encodeURIComponent(htmxPagePath(request))}`;
    await reply.header('hx-redirect', login).code(401).send('');
    return;
  }
  await reply.redirect(`/login/?next=${encodeURIComponent(request.url)}`, 303);
}

/** The page an htmx request was made from (its URL's path and query), for coming back after login. */
function htmxPagePath(request: FastifyRequest): string {
  const current = request.headers['hx-current-url'];
  if (typeof current !== 'string' || !URL.canParse(current)) return '/admin/';
  const url = new URL(current);
  return localPath(url.pathname + url.search, '/admin/');
}

async function authenticateHeader(auth: AuthService, header: string) {
  const match = /^Bearer\s+([\w-]{16,200})\s*$/i.exec(header);
  return match?.[1] === undefined ? null : auth.authenticateToken(match[1]);
}
