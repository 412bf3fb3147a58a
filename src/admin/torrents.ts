// /admin/torrents/: every torrent (any topic status), by status or name, with
// the status and freeleech form moderators use on topic pages (same route,
// same service). And for admins, revoking a user's tracker passkey from their
// page in /admin/users/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pageRequest, PageQueryProperties } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { topicPath } from '../urls/paths.ts';
import type { UsersService } from '../users/service.ts';
import { html } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { formatBytes } from '../i18n/sizes.ts';
import type { PasskeyService } from '../tracker/passkeys.ts';
import { moderateForm } from '../tracker/torrents/pages.ts';
import { TorrentStatusSchema } from '../tracker/torrents/resource.ts';
import type { TorrentsService } from '../tracker/torrents/service.ts';
import { TORRENT_STATUSES, statusLabel } from '../tracker/torrents/statuses.ts';
import { t } from '../i18n/messages.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, selectField, textInput } from '../web/form-controls.ts';
import { withoutBlanks } from '../web/form.ts';
import { ADMINS, STAFF, assertUser, requirePage } from '../auth/guard.ts';
import { AuthorLinks } from '../forum/pages/parts.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';

const BASE = '/admin/torrents/';

const Filters = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(TorrentStatusSchema),
  ...PageQueryProperties,
});

/** Where an admin revokes a user's passkey (a button on /admin/users/{id}/). */
export const revokePasskeyPath = (userId: number): string => `/admin/users/${userId}/passkey/revoke/`;

export const torrentAdminPages: FastifyPluginAsyncTypebox<{ torrents: TorrentsService; passkeys: PasskeyService; users: UsersService }> = async (
  app,
  { torrents, passkeys, users },
) => {
  const staff = requirePage(STAFF);
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: staff }, async (request, reply) => {
    const raw = withoutBlanks(request.query);
    const query = checkForm(Filters, raw);
    const filters = formState('filters', raw, query.ok ? {} : query.errors);
    const page = pageRequest(query.ok ? query.value : {});
    const { rows, total } = query.ok
      ? await torrents.list({ search: query.value.search, status: query.value.status, sort: 'registered', order: 'desc' }, assertUser(request), page)
      : { rows: [], total: 0 };
    const back = request.url;
    return sendAdminPage(request, reply, {
      title: t('admin.torrents.title'),
      section: 'torrents',
      status: query.ok ? 200 : 422,
      body: html`<h1>${t('admin.torrents.title')}</h1>
<p class="muted">${t('admin.torrents.intro')}</p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="${t('admin.torrents.find')}">
  ${textInput(filters, { name: 'search', label: t('admin.torrents.search'), type: 'search', maxlength: 200 })}
  ${selectField(filters, { name: 'status', label: t('admin.torrents.status'), blank: t('admin.any'), options: TORRENT_STATUSES.map((status) => ({ value: status, label: statusLabel(status) })) })}
  <div class="actions"><button type="submit">${t('admin.search')}</button><a href="${BASE}">${t('admin.clear')}</a></div>
</form>
${errorSummary(filters, t('admin.search_invalid'))}
${
  !query.ok
    ? ''
    : html`<p class="muted">${rangeText({ page: page.page, perPage: page.perPage, total }, rows.length, { none: 'admin.torrents.none', range: 'admin.torrents.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.torrents.title')}</caption>
  <thead><tr><th scope="col">${t('admin.torrents.torrent')}</th><th scope="col" class="num">${t('admin.torrents.size')}</th><th scope="col">${t('admin.torrents.uploader')}</th><th scope="col">${t('admin.torrents.registered')}</th><th scope="col">${t('admin.torrents.moderation')}</th></tr></thead>
  <tbody>${rows.map(
    (row) => html`<tr id="torrent-${row.id}">
    <th scope="row"><a href="${topicPath({ id: row.topic_id, title: row.topic_title })}">${row.name}</a></th>
    <td class="num">${formatBytes(row.size)}</td>
    <td>${new AuthorLinks().link(row.uploader_id, row.uploader_name)}</td>
    <td>${timestamp(row.registered_at)}</td>
    <td>${moderateForm(request, reply, row, back)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total }, t('admin.torrents.pages'))}`
}`,
    });
  });

  app.post('/admin/users/:id/passkey/revoke/', { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const user = await users.get(request.params.id);
    const had = await passkeys.revoke(user.id);
    const message = t(had ? 'admin.passkey.revoked' : 'admin.passkey.none', { name: user.username });
    return redirectWithNotice(request, reply, `/admin/users/${user.id}/`, message);
  });
};

/** The passkey block of an admin's user page. */
export function passkeyAdminBlock(request: Parameters<typeof csrfInput>[0], reply: Parameters<typeof csrfInput>[1], userId: number) {
  return html`<h2>${t('admin.passkey.title')}</h2>
<p class="muted">${t('admin.passkey.hint')}</p>
<form method="post" action="${revokePasskeyPath(userId)}" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('admin.passkey.revoke')}</button></form>`;
}
