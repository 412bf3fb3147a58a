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
      title: 'Outbox',
      section: 'outbox',
      body: html`<h1>Outbox</h1>
<p class="muted">Every message the forum sent, newest first. Without SMTP_URL mail is only kept here.</p>
<p class="muted">${rangeText(info, rows.length, 'messages')}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Messages</caption>
  <thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Written</th><th scope="col">Delivery</th></tr></thead>
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
${pagination(request, info, 'Outbox pages')}`,
    });
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const message = await outbox.get(request.params.id);
    return sendAdminPage(request, reply, {
      title: message.subject,
      section: 'outbox',
      body: html`<p><a href="${BASE}">← Outbox</a></p>
<h1>${message.subject}</h1>
<dl class="facts">
  <dt>To</dt><dd>${message.to_address}</dd>
  <dt>Written</dt><dd>${timestamp(message.created_at)}</dd>
  <dt>Delivery</dt><dd>${delivery(message)}</dd>
  ${message.error === null ? '' : html`<dt>Error</dt><dd class="error">${message.error}</dd>`}
</dl>
<h2>Message</h2>
<div class="mail-body">${message.body}</div>`,
    });
  });
};

function delivery(message: OutboxMessage): SafeHtml {
  if (message.sent_at !== null) return html`<span class="badge on">Sent</span> ${timestamp(message.sent_at)}`;
  if (message.error !== null) return html`<span class="badge block">Failed</span>`;
  return html`<span class="badge off">Kept here</span>`;
}
