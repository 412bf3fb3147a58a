// `/theme/{auto|light|dark}/?next=…`: the reader's choice of colours, kept in
// a cookie for a year (members and guests alike: it belongs to the device, as
// a system's dark mode does), then back to the page they were on. `auto`
// follows the system (prefers-color-scheme) and forgets the cookie. The page
// names the choice on <html data-theme>; the style sheet's colours follow
// (light-dark()). A link rather than a form: it changes nothing on the server.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { localPath } from '../http/local-path.ts';

export const THEME_COOKIE = 'theme';
export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const YEAR_SECONDS = 365 * 24 * 60 * 60;

function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The reader's chosen theme; `auto` when they chose none (or the cookie says something else). */
export function themeOf(request: FastifyRequest): Theme {
  const chosen = request.cookies[THEME_COOKIE];
  return isTheme(chosen) ? chosen : 'auto';
}

export const themeRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { theme: string }; Querystring: { next?: string } }>('/theme/:theme/', { schema: { hide: true } }, async (request, reply) => {
    const { theme } = request.params;
    if (!isTheme(theme)) return reply.callNotFound();
    const next = localPath(typeof request.query.next === 'string' ? request.query.next : undefined, '/');
    const options = { path: '/', sameSite: 'lax', httpOnly: true, secure: request.protocol === 'https' } as const;
    if (theme === 'auto') reply.clearCookie(THEME_COOKIE, options);
    else reply.setCookie(THEME_COOKIE, theme, { ...options, maxAge: YEAR_SECONDS });
    return reply.header('cache-control', 'no-store').redirect(next, 303);
  });
};
