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
import { formatBytes } from '../tracker/metainfo.ts';
import type { PasskeyService } from '../tracker/passkeys.ts';
import { moderateForm } from '../tracker/torrents/pages.ts';
import { TorrentStatusSchema } from '../tracker/torrents/resource.ts';
import type { TorrentsService } from '../tracker/torrents/service.ts';
import { STATUS_LABELS, TORRENT_STATUSES } from '../tracker/torrents/statuses.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, options, selectField, textInput } from '../web/form-controls.ts';
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
      title: 'Torrents',
      section: 'torrents',
      status: query.ok ? 200 : 422,
      body: html`<h1>Torrents</h1>
<p class="muted">Statuses closed, duplicate, closed by the right holder, absorbed and premoderation are frozen: no download and no announce. Every status change is recorded with who made it.</p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="Find torrents">
  ${textInput(filters, { name: 'search', label: 'Name contains', type: 'search', maxlength: 200 })}
  ${selectField(filters, { name: 'status', label: 'Status', blank: 'Any', options: options(TORRENT_STATUSES, (status) => STATUS_LABELS[status as keyof typeof STATUS_LABELS]) })}
  <div class="actions"><button type="submit">Search</button><a href="${BASE}">Clear</a></div>
</form>
${errorSummary(filters, 'The search is not valid:')}
${
  !query.ok
    ? ''
    : html`<p class="muted">${rangeText({ page: page.page, perPage: page.perPage, total }, rows.length, 'torrents')}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Torrents</caption>
  <thead><tr><th scope="col">Torrent</th><th scope="col" class="num">Size</th><th scope="col">Uploader</th><th scope="col">Registered</th><th scope="col">Status and freeleech</th></tr></thead>
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
${pagination(request, { page: page.page, perPage: page.perPage, total }, 'Torrent pages')}`
}`,
    });
  });

  app.post('/admin/users/:id/passkey/revoke/', { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const user = await users.get(request.params.id);
    const had = await passkeys.revoke(user.id);
    const message = had
      ? `The passkey of ${user.username} is revoked: their .torrent files stop working now; a new passkey is made when they next download one.`
      : `${user.username} had no passkey.`;
    return redirectWithNotice(request, reply, `/admin/users/${user.id}/`, message);
  });
};

/** The passkey block of an admin's user page. */
export function passkeyAdminBlock(request: Parameters<typeof csrfInput>[0], reply: Parameters<typeof csrfInput>[1], userId: number) {
  return html`<h2>Tracker passkey</h2>
<p class="muted">Revoking it stops every .torrent this user downloaded from working at once; a new one is made when they next download.</p>
<form method="post" action="${revokePasskeyPath(userId)}" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">Revoke passkey</button></form>`;
}
