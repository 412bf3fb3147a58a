// Who may open an admin page. Guests are sent to /login/ and brought back
// (an htmx request is redirected as a whole page: a login form swapped into a
// table row would help nobody); signed-in users without the role get the 403
// page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/service.ts';
import type { Role } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { localPath } from '../web/page.ts';
import { isHtmx } from './htmx.ts';

export const STAFF: readonly Role[] = ['admin', 'moderator'];
export const ADMINS: readonly Role[] = ['admin'];

export function requirePage(roles: readonly Role[]) {
  return async function pageGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.user === null) {
      const back = isHtmx(request) ? htmxPagePath(request) : request.url;
      const login = `/login/?next=${encodeURIComponent(back)}`;
      if (isHtmx(request)) {
        await reply.header('hx-redirect', login).code(401).send('');
        return;
      }
      await reply.redirect(login, 303);
      return;
    }
    if (!roles.includes(request.user.role)) throw new ApiError('FORBIDDEN', 'You do not have access to this page.');
  };
}

/** The viewer of a page whose guard already ran. */
export function viewer(request: FastifyRequest): AuthUser {
  if (request.user === null) throw new ApiError('UNAUTHENTICATED', 'Unauthenticated.');
  return request.user;
}

export function isAdmin(user: AuthUser | null): boolean {
  return user?.role === 'admin';
}

/** The page an htmx request was made from (its URL's path and query), for coming back after login. */
function htmxPagePath(request: FastifyRequest): string {
  const current = request.headers['hx-current-url'];
  if (typeof current !== 'string' || !URL.canParse(current)) return '/admin/';
  const url = new URL(current);
  return localPath(url.pathname + url.search, '/admin/');
}
