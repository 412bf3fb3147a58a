// `/language/{en|ru}/?next=…`: a guest's choice of language, kept in a
// cookie for a year, then back to the page they were on. A member's language
// is a setting of theirs (Settings), which wins over the cookie; the footer
// offers this switch to guests only. A link rather than a form: choosing a
// language changes nothing on the server, so it needs no CSRF token.
import type { FastifyPluginAsync } from 'fastify';
import { localPath } from '../http/local-path.ts';
import { isLocale } from '../i18n/locale.ts';
import { LANGUAGE_COOKIE } from '../i18n/context.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const languageRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { locale: string }; Querystring: { next?: string } }>('/language/:locale/', { schema: { hide: true } }, async (request, reply) => {
    const { locale } = request.params;
    if (!isLocale(locale)) return reply.callNotFound();
    const next = localPath(typeof request.query.next === 'string' ? request.query.next : undefined, '/');
    reply.setCookie(LANGUAGE_COOKIE, locale, { path: '/', maxAge: YEAR_SECONDS, sameSite: 'lax', httpOnly: true, secure: request.protocol === 'https' });
    return reply.header('cache-control', 'no-store').redirect(next, 303);
  });
};
