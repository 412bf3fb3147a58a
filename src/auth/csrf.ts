// Cross-site request forgery protection for everything a browser sends on
// its own. A session-authenticated request proves itself with the session's
// token (header X-CSRF-Token or form field _csrf); a guest's form (login,
// registration) with a per-browser token kept in a cookie (double submit).
//
// The page registry (urls/semantic-routes.ts) checks the token itself, after
// it has named the page's canonical address: a refused form is shown again
// with what was typed (expiredForm), and a refused POST to a legacy address
// still carries its canonical Link header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiRequest } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import { hookRoutesWhere, takesBody } from '../http/route-hooks.ts';
import { t } from '../i18n/messages.ts';
import { newSecret, sameSecret } from './secrets.ts';

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = '_csrf';
export const GUEST_CSRF_COOKIE = 'forum_csrf';

/** What a page says above a form it shows again after refusing its token, in the reader's language. */
export function expiredForm(): string {
  return t('form.expired');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks the CSRF token itself, with csrfTokenAccepted (the page registry does). */
    csrfCheckedByRoute?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function installCsrfProtection(app: FastifyInstance): void {
  // preValidation: the body is parsed (form field) and not yet stripped by the schema. Only routes that take a
  // body and do not check the token themselves get the hook; a safe method never needs it.
  hookRoutesWhere(
    app,
    (route) => takesBody(route) && route.config?.csrfCheckedByRoute !== true,
    'preValidation',
    async (request) => {
      if (!csrfTokenAccepted(request)) throw csrfMismatch();
    },
  );
}

/** Whether this request may change state: a safe method, or the right token for its session or guest cookie. */
export function csrfTokenAccepted(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const credentials = request.credentials;
  const sent = request.headers[CSRF_HEADER] ?? formField(request.body, CSRF_FIELD);
  if (credentials?.kind === 'session') return typeof sent === 'string' && sameSecret(sent, credentials.csrfToken);
  // Guests on pages: their forms carry the cookie's token. Guests of the
  // JSON API send no cookies that could be abused, so there is nothing to check.
  if (credentials === null && !isApiRequest(request)) {
    const expected = request.cookies[GUEST_CSRF_COOKIE];
    return typeof sent === 'string' && expected !== undefined && sameSecret(sent, expected);
  }
  return true;
}

/** 403 for a request whose token is missing or wrong. */
export function csrfMismatch(): ApiError {
  return new ApiError('FORBIDDEN', t('error.csrf'));
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

function formField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}
