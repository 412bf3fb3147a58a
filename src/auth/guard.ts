// Who is calling, and may they: one guard for Bearer tokens and web sessions
// (CSRF for sessions: csrf.ts).
// Every request is looked at once (onRequest); routes state what they need
// with `preValidation: requireRole('admin')` or `requireUser()`.
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthService, AuthUser, Credentials } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated, active user; null for guests. */
    user: AuthUser | null;
    credentials: Credentials | null;
  }
}

export const SESSION_COOKIE = 'forum_session';

export function installAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.decorateRequest('credentials', null);

  app.addHook('onRequest', async (request) => {
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
    }
  });
}

/** Route guard (register as `preValidation`, so it answers before the body is judged): 401 for guests, 403 for users whose role is not listed. */
export function requireRole(...roles: Role[]) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const user = assertUser(request);
    if (!roles.includes(user.role)) throw new ApiError('FORBIDDEN', 'This action is unauthorized.');
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

async function authenticateHeader(auth: AuthService, header: string) {
  const match = /^Bearer\s+([\w-]{16,200})\s*$/i.exec(header);
  return match?.[1] === undefined ? null : auth.authenticateToken(match[1]);
}
