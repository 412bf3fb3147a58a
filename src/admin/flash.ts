// A one-time notice shown on the next admin page after a form post that
// redirects ("Rule #3 created."), kept in a short-lived cookie: there is no
// server-side session store to hold it, and a query parameter could be
// forged into a link.
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'forum_admin_notice';
const OPTIONS = { path: '/admin/', httpOnly: true, sameSite: 'lax' as const };

export type NoticeKind = 'ok' | 'error';

export interface Notice {
  kind: NoticeKind;
  message: string;
}

export function flash(request: FastifyRequest, reply: FastifyReply, message: string, kind: NoticeKind = 'ok'): void {
  reply.setCookie(COOKIE, `${kind}|${message}`, { ...OPTIONS, maxAge: 60, secure: request.protocol === 'https' });
}

/** The pending notice, if any; it is cleared as it is shown. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply): Notice | null {
  const value = request.cookies[COOKIE];
  if (value === undefined || value === '') return null;
  reply.clearCookie(COOKIE, OPTIONS);
  const [kind, ...rest] = value.split('|');
  return { kind: kind === 'error' ? 'error' : 'ok', message: rest.join('|') };
}

/** After a plain form post: the notice, then back to where the form was (a local path only). */
export function redirectWithNotice(request: FastifyRequest, reply: FastifyReply, to: string, message: string, kind: NoticeKind = 'ok'): FastifyReply {
  flash(request, reply, message, kind);
  return reply.redirect(to, 303);
}
