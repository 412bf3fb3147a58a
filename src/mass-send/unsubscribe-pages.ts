// /unsubscribe/{key}/ (docs/mass-mail.md): the link in every mass mail, which
// works without logging in. GET only asks (mail scanners and link previews
// open links; opening changes nothing); POST unsubscribes, from the page's
// button or from a mail program's own button (RFC 8058 one-click: a POST of
// `List-Unsubscribe=One-Click` without cookies, which must be answered
// without a redirect). The key in the address is what authorises it, so no
// CSRF token is asked for, and the body is not read at all.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../i18n/messages.ts';
import { massMailUnsubscribePath, settingsPath } from '../urls/paths.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { sendPage } from '../web/page.ts';
import { tLink } from '../web/translated.ts';
import type { MassMailSubscriptions } from './subscriptions.ts';

const NOINDEX = html`<meta name="robots" content="noindex">`;

export const unsubscribePages: FastifyPluginAsync<{ subscriptions: MassMailSubscriptions }> = async (app, { subscriptions }) => {
  app.get('/unsubscribe/:key/', async (request, reply) => {
    const member = await subscriptions.holder(keyOf(request));
    if (member === undefined) return unknownKey(request, reply);
    if (!member.subscribed) return answer(request, reply, t('mass_mail.unsubscribe.already', { name: member.username }));
    return page(
      request,
      reply,
      t('mass_mail.unsubscribe.title'),
      html`<form method="post" action="${massMailUnsubscribePath(keyOf(request))}" class="stacked">
<p>${t('mass_mail.unsubscribe.question', { site: siteName(request), name: member.username })}</p>
<p class="muted">${t('mass_mail.unsubscribe.keeps')}</p>
<div><button type="submit">${t('mass_mail.unsubscribe.submit')}</button></div>
</form>`,
    );
  });

  app.post('/unsubscribe/:key/', { config: { csrfCheckedByRoute: true, bodyIgnored: true } }, async (request, reply) => {
    const member = await subscriptions.unsubscribe(keyOf(request));
    if (member === undefined) return unknownKey(request, reply);
    return answer(request, reply, t('mass_mail.unsubscribe.done', { name: member.username }));
  });
};

function keyOf(request: FastifyRequest): string {
  return (request.params as { key: string }).key;
}

function siteName(request: FastifyRequest): string {
  return (request.siteSettings ?? request.server.site.lastKnown()).name;
}

/** The member is off mass mail: said, with the way back on. */
function answer(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  return page(request, reply, t('mass_mail.unsubscribe.title'), html`<p class="notice ok" role="status">${message}</p>${settingsLine(request)}`);
}

function unknownKey(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return page(
    request,
    reply,
    t('mass_mail.unsubscribe.invalid_title'),
    html`<p class="notice error" role="alert">${t('mass_mail.unsubscribe.unknown')}</p>`,
    404,
  );
}

function settingsLine(request: FastifyRequest): SafeHtml {
  return html`<p>${tLink(request.user === null ? 'mass_mail.unsubscribe.settings_login' : 'mass_mail.unsubscribe.settings', settingsPath())}</p>`;
}

function page(request: FastifyRequest, reply: FastifyReply, title: string, body: SafeHtml, status = 200): FastifyReply {
  // The address holds the key: not cached, not indexed.
  reply.header('cache-control', 'no-store');
  return sendPage(request, reply, { title, head: NOINDEX, status, body: html`<h1>${title}</h1>${body}` });
}
