// Cross-site request forgery protection for everything a browser sends on
// its own. A session-authenticated request proves itself with the session's
// token (header X-CSRF-Token or form field _csrf); a guest's form (login,
// registration) with a per-browser token kept in a cookie (double submit).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiRequest } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import { newSecret, sameSecret } from './secrets.ts';

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = '_csrf';
export const GUEST_CSRF_COOKIE = 'forum_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installCsrfProtection(app: FastifyInstance): void {
  // preValidation: the body is parsed (form field) and not yet stripped by the schema.
  app.addHook('preValidation', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const credentials = request.credentials;
    const sent = request.headers[CSRF_HEADER] ?? formField(request.body, CSRF_FIELD);
    if (credentials?.kind === 'session') {
      if (typeof sent !== 'string' || !sameSecret(sent, credentials.csrfToken)) throw mismatch();
      return;
    }
    // Guests on pages: their forms carry the cookie's token. Guests of the
    // JSON API send no cookies that could be abused, so there is nothing to check.
    if (credentials === null && !isApiRequest(request)) {
      const expected = request.cookies[GUEST_CSRF_COOKIE];
      if (typeof sent !== 'string' || expected === undefined || !sameSecret(sent, expected)) throw mismatch();
    }
  });
}

/** The token this request already has (a session's, or a guest's cookie), without creating one. */
export function existingCsrfToken(request: FastifyRequest): string | undefined {
  if (request.credentials?.kind === 'session') return request.credentials.csrfToken;
  const existing = request.cookies[GUEST_CSRF_COOKIE];
  return existing !== undefined && /^[\w-]{20,}$/.test(existing) ? existing : undefined;
}

/** The token a page's forms must carry; for guests it is created on first use. */
export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = existingCsrfToken(request);
  if (existing !== undefined) return existing;
  const token = newSecret(24);
  reply.setCookie(GUEST_CSRF_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
  // Later reads in this request (a second form on the page) see the same token.
  request.cookies[GUEST_CSRF_COOKIE] = token;
  return token;
}

function mismatch(): ApiError {
  return new ApiError('FORBIDDEN', 'CSRF token mismatch. Reload the page and try again.');
}

function formField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}
