// /admin/users/: find users (the API's list filters), see their bonus
// points, change role and status (a ban ends every login at once) through
// UsersService, which also keeps admins from locking themselves out.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../http/errors.ts';
import { pageRequest } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { profilePath } from '../urls/paths.ts';
import type { UserRow } from '../users/repository.ts';
import { ListQuery, UpdateBody } from '../users/routes.ts';
import type { UsersService } from '../users/service.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { returnField, returnTo } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, selectField, textInput, type FormState } from '../web/form-controls.ts';
import { t } from '../i18n/messages.ts';
import { valueLabel, valueOptions } from './labels.ts';
import { submitted, text, validationErrors, withoutBlanks } from '../web/form.ts';
import { ADMINS, assertUser, requirePage } from '../auth/guard.ts';
import { isHtmx, liveNotice, sendFragment } from './htmx.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, timestamp } from './lists.ts';
import { passkeyAdminBlock } from './torrents.ts';
import { formatBytes } from '../i18n/sizes.ts';
import type { TrackerFigures, UserFigures } from '../tracker/figures.ts';
import { formatPoints } from '../web/format.ts';

const BASE = '/admin/users/';
const ROLES = ['user', 'moderator', 'admin'] as const;
const STATUSES = ['pending', 'active', 'banned'] as const;

export const userPages: FastifyPluginAsyncTypebox<{ users: UsersService; figures: TrackerFigures }> = async (app, { users, figures }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => {
    const raw = withoutBlanks(request.query);
    const query = checkForm(ListQuery, raw);
    const filters = formState('filters', raw, query.ok ? {} : query.errors);
    const page = pageRequest(query.ok ? query.value : {});
    const { rows, total } = query.ok ? await users.list(query.value, page.offset, page.perPage) : { rows: [], total: 0 };
    const points = await figures.bonusPoints(rows.map((row) => row.id));
    const back = request.url;
    return sendAdminPage(request, reply, {
      title: t('admin.users.title'),
      section: 'users',
      status: query.ok ? 200 : 422,
      body: html`<h1>${t('admin.users.title')}</h1>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="${t('admin.users.find')}">
  ${textInput(filters, { name: 'search', label: t('admin.users.search'), type: 'search', maxlength: 255 })}
  ${selectField(filters, { name: 'role', label: t('admin.users.role'), blank: t('admin.any'), options: valueOptions('admin.role', ROLES) })}
  ${selectField(filters, { name: 'status', label: t('admin.users.status'), blank: t('admin.any'), options: valueOptions('admin.user_status', STATUSES) })}
  <div class="actions"><button type="submit">${t('admin.search')}</button><a href="${BASE}">${t('admin.clear')}</a></div>
</form>
${errorSummary(filters, t('admin.search_invalid'))}
${
  !query.ok
    ? ''
    : html`<p class="muted">${rangeText({ page: page.page, perPage: page.perPage, total }, rows.length, { none: 'admin.users.none', range: 'admin.users.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.users.title')}</caption>
  <thead><tr><th scope="col">${t('admin.users.name')}</th><th scope="col">${t('admin.users.email')}</th><th scope="col" class="num">${t('admin.users.bonus_points')}</th><th scope="col">${t('admin.users.joined')}</th><th scope="col">${t('admin.users.access')}</th></tr></thead>
  <tbody>${rows.map((row) => userRow(request, reply, row, points.get(row.id) ?? 0, back))}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total }, t('admin.users.pages'))}`
}`,
    });
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const user = await users.get(request.params.id);
    return userPage(request, reply, user, await figures.forUser(user.id), formState(`user-${user.id}`, user));
  });

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const back = returnTo(form, BASE);
    const current = await users.get(request.params.id);
    const values = { role: text(form, 'role') ?? '', status: text(form, 'status') ?? '' };
    const checked = checkForm(UpdateBody, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const updated = await users.update(current.id, { role: checked.value.role, status: checked.value.status }, assertUser(request));
        const message = t('admin.users.changed', {
          name: updated.username,
          role: valueLabel('admin.users.now', updated.role),
          status: valueLabel('admin.users.state', updated.status),
        });
        if (isHtmx(request))
          return sendFragment(reply, html`${userRow(request, reply, updated, await bonusPointsOf(figures, updated.id), back)}${liveNotice(message)}`);
        return redirectWithNotice(request, reply, back, message);
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    const state = formState(`user-${current.id}`, values, errors);
    if (isHtmx(request)) return sendFragment(reply, userRow(request, reply, current, await bonusPointsOf(figures, current.id), back, state), 422);
    return userPage(request, reply, current, await figures.forUser(current.id), state, 422);
  });
};

async function bonusPointsOf(figures: TrackerFigures, userId: number): Promise<number> {
  return (await figures.bonusPoints([userId])).get(userId) ?? 0;
}

function userRow(request: FastifyRequest, reply: FastifyReply, user: UserRow, bonusPoints: number, back: string, state?: FormState): SafeHtml {
  return html`<tr id="user-${user.id}">
  <th scope="row"><a href="${profilePath({ id: user.id, name: user.username })}">${user.username}</a></th>
  <td>${user.email}</td>
  <td class="num">${formatPoints(bonusPoints)}</td>
  <td>${timestamp(user.created_at)}</td>
  <td>${accessForm(request, reply, user, state ?? formState(`user-${user.id}`, user), back, true)}</td>
</tr>`;
}

function accessForm(request: FastifyRequest, reply: FastifyReply, user: UserRow, form: FormState, back: string, inline: boolean): SafeHtml {
  if (request.user?.id === user.id) {
    return html`${valueLabel('admin.role', user.role)}, ${valueLabel('admin.users.state', user.status)} <span class="muted">${t('admin.users.yourself')}</span>`;
  }
  const action = `${BASE}${user.id}/`;
  return html`<form method="post" action="${action}" class="${inline ? 'inline-edit' : 'stacked'}"${inline ? html` hx-post="${action}" hx-target="closest tr" hx-swap="outerHTML"` : ''}>
    ${csrfInput(request, reply)}${returnField(back)}
    ${selectField(form, { name: 'role', label: inline ? t('admin.users.role_of', { name: user.username }) : t('admin.users.role'), hideLabel: inline, options: valueOptions('admin.role', ROLES) })}
    ${selectField(form, { name: 'status', label: inline ? t('admin.users.status_of', { name: user.username }) : t('admin.users.status'), hideLabel: inline, hint: inline ? undefined : t('admin.users.status_hint'), options: valueOptions('admin.user_status', STATUSES) })}
    <button type="submit" class="small">${t('admin.save')}<span class="visually-hidden"> ${user.username}</span></button>
  </form>`;
}

function userPage(request: FastifyRequest, reply: FastifyReply, user: UserRow, tracker: UserFigures, form: FormState, status = 200): FastifyReply {
  return sendAdminPage(request, reply, {
    title: user.username,
    section: 'users',
    status,
    body: html`<p><a href="${BASE}">← ${t('admin.users.title')}</a></p>
<h1>${user.username}</h1>
${errorSummary(form)}
<dl class="facts">
  <dt>${t('admin.users.email')}</dt><dd>${user.email}</dd>
  <dt>${t('admin.users.bonus_points')}</dt><dd>${formatPoints(tracker.bonusPoints)}</dd>
  <dt>${t('admin.users.uploaded')}</dt><dd>${formatBytes(tracker.uploaded)}</dd>
  <dt>${t('admin.users.downloaded')}</dt><dd>${formatBytes(tracker.downloaded)}</dd>
  <dt>${t('admin.users.joined')}</dt><dd>${timestamp(user.created_at)}</dd>
  <dt>${t('admin.users.profile')}</dt><dd><a href="${profilePath({ id: user.id, name: user.username })}">${t('admin.users.public_profile')}</a></dd>
</dl>
<h2>${t('admin.users.access')}</h2>
${accessForm(request, reply, user, form, BASE, false)}
${passkeyAdminBlock(request, reply, user.id)}`,
  });
}
