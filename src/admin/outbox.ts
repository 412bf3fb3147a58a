// /admin/outbox/: the mail the forum sent or kept, newest first, for when
// mail does not go out through SMTP (or failed to). Admins only: messages
// carry one-time links (activation, password reset).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQueryProperties, pageRequest } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import type { Outbox, OutboxMessage } from '../mail/outbox.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { withoutBlanks } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t } from '../i18n/messages.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';

const BASE = '/admin/outbox/';
const PageQuery = Type.Object(PageQueryProperties);

export const outboxPages: FastifyPluginAsyncTypebox<{ outbox: Outbox }> = async (app, { outbox }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => {
    const query = checkForm(PageQuery, withoutBlanks(request.query));
    const page = pageRequest(query.ok ? query.value : {});
    const { rows, total } = await outbox.list(page);
    const info = { page: page.page, perPage: page.perPage, total };
    return sendAdminPage(request, reply, {
      title: t('admin.outbox.title'),
      section: 'outbox',
      body: html`<h1>${t('admin.outbox.title')}</h1>
<p class="muted">${t('admin.outbox.intro')}</p>
<p class="muted">${rangeText(info, rows.length, { none: 'admin.outbox.none', range: 'admin.outbox.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.outbox.messages')}</caption>
  <thead><tr><th scope="col">${t('admin.outbox.subject')}</th><th scope="col">${t('admin.outbox.to')}</th><th scope="col">${t('admin.outbox.written')}</th><th scope="col">${t('admin.outbox.delivery')}</th></tr></thead>
  <tbody>${rows.map(
    (message) => html`<tr>
    <th scope="row"><a href="${BASE}${message.id}/">${message.subject}</a></th>
    <td>${message.to_address}</td>
    <td>${timestamp(message.created_at)}</td>
    <td>${delivery(message)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.outbox.pages'))}`,
    });
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const message = await outbox.get(request.params.id);
    return sendAdminPage(request, reply, {
      title: message.subject,
      section: 'outbox',
      body: html`<p><a href="${BASE}">← ${t('admin.outbox.title')}</a></p>
<h1>${message.subject}</h1>
<dl class="facts">
  <dt>${t('admin.outbox.to')}</dt><dd>${message.to_address}</dd>
  <dt>${t('admin.outbox.written')}</dt><dd>${timestamp(message.created_at)}</dd>
  <dt>${t('admin.outbox.delivery')}</dt><dd>${delivery(message)}</dd>
  ${message.error === null ? '' : html`<dt>${t('admin.outbox.error')}</dt><dd class="error">${message.error}</dd>`}
  ${headerLines(message).map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}
</dl>
<h2>${t('admin.outbox.message')}</h2>
<div class="mail-body">${message.body}</div>`,
    });
  });
};

/** The extra header lines stored with a mail (a mass mail's List-Unsubscribe), as name and value. */
function headerLines(message: OutboxMessage): Array<[string, string]> {
  if (message.headers === null) return [];
  const parsed: unknown = JSON.parse(message.headers);
  if (typeof parsed !== 'object' || parsed === null) return [];
  return Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

function delivery(message: OutboxMessage): SafeHtml {
  if (message.sent_at !== null) return html`<span class="badge on">${t('admin.outbox.sent')}</span> ${timestamp(message.sent_at)}`;
  if (message.error !== null) return html`<span class="badge block">${t('admin.outbox.failed')}</span>`;
  return html`<span class="badge off">${t('admin.outbox.kept')}</span>`;
}
