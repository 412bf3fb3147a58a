// The footer's switches: `/language/{en|ru}/?next=…` (a guest's language; a
// member's is a setting of theirs, which wins over the cookie) and
// `/theme/{auto|light|dark}/?next=…` (everyone's colours: theme.ts). Each
// choice is kept in a cookie for a year, then the reader goes back to the page
// they were on (a local path only). Links rather than forms: a choice changes
// nothing on the server, so it needs no CSRF token.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { localPath } from '../http/local-path.ts';
import { isLocale } from '../i18n/locale.ts';
import { LANGUAGE_COOKIE } from '../i18n/context.ts';
import { THEME_COOKIE, isTheme } from './theme.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

type ChoiceRequest = FastifyRequest<{ Querystring: { next?: string } }>;

/** Keeps `value` in `cookie` (null: forgets it) and sends the reader back to `?next=`. */
function remember(request: ChoiceRequest, reply: FastifyReply, cookie: string, value: string | null): FastifyReply {
  const options = { path: '/', sameSite: 'lax', httpOnly: true, secure: request.protocol === 'https' } as const;
  if (value === null) reply.clearCookie(cookie, options);
  else reply.setCookie(cookie, value, { ...options, maxAge: YEAR_SECONDS });
  const next = localPath(typeof request.query.next === 'string' ? request.query.next : undefined, '/');
  return reply.header('cache-control', 'no-store').redirect(next, 303);
}

export const readerChoiceRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { locale: string }; Querystring: { next?: string } }>('/language/:locale/', { schema: { hide: true } }, async (request, reply) => {
    const { locale } = request.params;
    if (!isLocale(locale)) return reply.callNotFound();
    return remember(request, reply, LANGUAGE_COOKIE, locale);
  });

  // `auto` follows the system again: the cookie is forgotten.
  app.get<{ Params: { theme: string }; Querystring: { next?: string } }>('/theme/:theme/', { schema: { hide: true } }, async (request, reply) => {
    const { theme } = request.params;
    if (!isTheme(theme)) return reply.callNotFound();
    return remember(request, reply, THEME_COOKIE, theme === 'auto' ? null : theme);
  });
};
