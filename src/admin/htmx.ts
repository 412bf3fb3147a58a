// Answers for htmx: the same handlers serve a whole page to a plain form post
// and a fragment to htmx, which swaps it in place.
import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from '../web/html.ts';
import type { NoticeKind } from './flash.ts';

export { isHtmx } from '../http/htmx.ts';

export function sendFragment(reply: FastifyReply, fragment: SafeHtml, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'HX-Request').send(fragment.value);
}

/** The page's notice area, replaced out of band (it travels with any fragment). */
export function liveNotice(message: string, kind: NoticeKind = 'ok'): SafeHtml {
  return html`<div id="admin-live" class="admin-live" role="status" aria-live="polite" hx-swap-oob="true"><p class="notice ${kind}">${message}</p></div>`;
}

/** Only a notice: the element that made the request stays as it is. */
export function sendNoticeOnly(reply: FastifyReply, message: string, kind: NoticeKind): FastifyReply {
  reply.header('hx-reswap', 'none');
  return sendFragment(reply, liveNotice(message, kind));
}
