// /admin/groups/: groups of members (docs/access.md, "Groups") for admins:
// the list with a form to create one; each group's page to rename, describe
// and retype it, to add members and appoint or demote leaders, to accept or
// refuse requests and remove members; and delete (after asking). The API's
// body schemas and the same service check every field; plain forms, no
// JavaScript needed.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ADMINS, assertUser, requirePage } from '../auth/guard.ts';
import { ValidationError, type FieldErrors } from '../http/errors.ts';
import { PageQueryProperties, pageRequest, type PageRequest } from '../http/pagination.ts';
import { Id, IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { t } from '../i18n/messages.ts';
import { USERNAME_MAX } from '../users/fields.ts';
import { groupPath, profilePath } from '../urls/paths.ts';
import { errorSummary, formState, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { submitted, text, validationErrors, withoutBlanks, type SubmittedForm } from '../web/form.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { htmxConfirm, isConfirmed, sendConfirmPage } from '../admin/confirm.ts';
import { redirectWithNotice } from '../admin/flash.ts';
import { sendAdminPage } from '../admin/layout.ts';
import { pagination, rangeText, timestamp } from '../admin/lists.ts';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, GROUP_ROLES, GROUP_TYPES, GroupBodies, type GroupRole } from './fields.ts';
import { typeName } from './parts.ts';
import type { GroupListed, Groups, MemberRow } from './service.ts';

const BASE = '/admin/groups/';
const PageQuery = Type.Object(PageQueryProperties);
const MemberParams = Type.Object({ id: Id('Group id'), userId: Id('User id') });
/** Members and requests on one page of a group's admin page. */
const MEMBERS_PER_PAGE = 100;

export const groupAdminPages: FastifyPluginAsyncTypebox<{ groups: Groups }> = async (app, { groups }) => {
  const admin = requirePage(ADMINS);

  const showList = async (request: FastifyRequest, reply: FastifyReply, create: FormState, status = 200) => {
    const query = checkForm(PageQuery, withoutBlanks(request.query));
    const page = pageRequest(query.ok ? { per_page: 100, ...query.value } : { per_page: 100 });
    const listed = await groups.list(request.user, page);
    const pending = await groups.pendingCounts(listed.rows.map((row) => row.id));
    return listPage(request, reply, { page, ...listed, pending, create, status });
  };

  const showGroup = async (request: FastifyRequest, reply: FastifyReply, id: number, forms: GroupForms = {}, status = 200) => {
    const user = assertUser(request);
    const group = await groups.get(id, user);
    const query = checkForm(PageQuery, withoutBlanks(request.query));
    const page = pageRequest({ per_page: MEMBERS_PER_PAGE, ...(query.ok ? { page: query.value.page } : {}) });
    const [members, requests] = await Promise.all([
      groups.members(group.id, user, 'accepted', page),
      groups.members(group.id, user, 'pending', { page: 1, perPage: MEMBERS_PER_PAGE, offset: 0 }),
    ]);
    return groupPage(request, reply, { group, page, members, requests, forms, status });
  };

  app.get(BASE, { preValidation: admin }, async (request, reply) => showList(request, reply, formState('new-group', { type: 'closed' })));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const values = groupValues(submitted(request.body));
    const checked = checkForm(GroupBodies.create, values);
    if (!checked.ok) return showList(request, reply, formState('new-group', values, checked.errors), 422);
    try {
      const created = await groups.create(checked.value);
      return redirectWithNotice(request, reply, `${BASE}${created.id}/`, t('admin.groups.created', { name: created.name }));
    } catch (error) {
      return showList(request, reply, formState('new-group', values, validationErrors(error)), 422);
    }
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => showGroup(request, reply, request.params.id));

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const group = await groups.get(request.params.id, request.user);
    const values = groupValues(submitted(request.body));
    const checked = checkForm(GroupBodies.update, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const updated = await groups.update(group.id, checked.value);
        return redirectWithNotice(request, reply, `${BASE}${group.id}/`, t('admin.groups.saved', { name: updated.name }));
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    return showGroup(request, reply, group.id, { edit: formState('group', values, errors) }, 422);
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const group = await groups.get(request.params.id, request.user);
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'groups',
        title: t('admin.groups.delete_title', { name: group.name }),
        question: t('admin.groups.delete_question', { name: group.name, count: group.members_count }),
        action: `${BASE}${group.id}/delete/`,
        confirmLabel: t('admin.groups.delete'),
        cancelHref: `${BASE}${group.id}/`,
      });
    }
    await groups.delete(group.id);
    return redirectWithNotice(request, reply, BASE, t('admin.groups.deleted', { name: group.name }));
  });

  // Adding by name, as admins know members; the role as chosen.
  app.post(`${BASE}:id/members/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const user = assertUser(request);
    const group = await groups.get(request.params.id, user);
    const form = submitted(request.body);
    const values = { name: text(form, 'name') ?? '', role: text(form, 'role') ?? '' };
    const checked = checkForm(AddMemberForm, values);
    let errors: FieldErrors = checked.ok ? {} : checked.errors;
    if (checked.ok) {
      const person = await groups.personNamed(checked.value.name);
      if (person === undefined) errors = { name: [t('validation.no_member', { name: checked.value.name })] };
      else {
        try {
          const member = await groups.setMember(group.id, user, person.id, checked.value.role);
          return redirectWithNotice(request, reply, `${BASE}${group.id}/`, memberNotice(member, group));
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          errors = error.errors;
        }
      }
    }
    return showGroup(request, reply, group.id, { add: formState('add-member', values, errors) }, 422);
  });

  // A role changed, or a request accepted (with the role chosen).
  app.post(`${BASE}:id/members/:userId/`, { preValidation: admin, schema: { params: MemberParams } }, async (request, reply) => {
    const user = assertUser(request);
    const group = await groups.get(request.params.id, user);
    const checked = checkForm(GroupBodies.member, { role: text(submitted(request.body), 'role') ?? '' });
    if (!checked.ok) return redirectWithNotice(request, reply, `${BASE}${group.id}/`, Object.values(checked.errors).flat().join(' '), 'error');
    const member = await groups.setMember(group.id, user, request.params.userId, checked.value.role);
    return redirectWithNotice(request, reply, `${BASE}${group.id}/`, memberNotice(member, group));
  });

  app.post(`${BASE}:id/members/:userId/delete/`, { preValidation: admin, schema: { params: MemberParams } }, async (request, reply) => {
    const user = assertUser(request);
    const group = await groups.get(request.params.id, user);
    const removed = await groups.removeMember(group.id, user, request.params.userId);
    const key = removed.status === 'pending' ? 'admin.groups.refused' : 'admin.groups.removed';
    return redirectWithNotice(request, reply, `${BASE}${group.id}/`, t(key, { name: removed.username, group: group.name }));
  });
};

const AddMemberForm = Type.Object({
  name: Type.String({ minLength: 1, maxLength: USERNAME_MAX, notBlank: true }),
  role: GroupBodies.member.properties.role,
});

function memberNotice(member: MemberRow, group: GroupListed): string {
  return t(member.role === 'leader' ? 'admin.groups.now_leader' : 'admin.groups.now_member', { name: member.username, group: group.name });
}

function groupValues(form: SubmittedForm): Record<string, unknown> {
  return {
    name: text(form, 'name') ?? '',
    ...(text(form, 'description') !== undefined ? { description: text(form, 'description') } : {}),
    ...(text(form, 'type') !== undefined ? { type: text(form, 'type') } : {}),
  };
}

function groupFields(form: FormState): SafeHtml {
  return html`${textInput(form, { name: 'name', label: t('admin.groups.name'), required: true, maxlength: GROUP_NAME_MAX, hint: t('admin.groups.name_hint') })}
  ${selectField(form, {
    name: 'type',
    label: t('admin.groups.type'),
    required: true,
    hint: t('admin.groups.type_hint'),
    options: GROUP_TYPES.map((type) => ({ value: type, label: typeName(type) })),
  })}
  ${textArea(form, { name: 'description', label: t('admin.groups.description'), maxlength: GROUP_DESCRIPTION_MAX, rows: 4 })}`;
}

interface ListState {
  page: PageRequest;
  rows: GroupListed[];
  total: number;
  pending: ReadonlyMap<number, number>;
  create: FormState;
  status: number;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const info = { page: state.page.page, perPage: state.page.perPage, total: state.total };
  return sendAdminPage(request, reply, {
    title: t('admin.groups.title'),
    section: 'groups',
    status: state.status,
    body: html`<h1>${t('admin.groups.title')}</h1>
<p>${t('admin.groups.help')}</p>
<div id="groups">
<p class="muted">${rangeText(info, state.rows.length, { none: 'admin.groups.none', range: 'admin.groups.range' })}</p>
${
  state.rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="cards">
  <caption class="visually-hidden">${t('admin.groups.title')}</caption>
  <thead><tr><th scope="col">${t('admin.groups.group')}</th><th scope="col">${t('admin.groups.type')}</th><th scope="col" class="num">${t('admin.groups.members')}</th><th scope="col" class="num">${t('admin.groups.requests')}</th><th scope="col">${t('admin.groups.leader')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.rows.map((row) => groupRow(request, reply, row, state.pending.get(row.id) ?? 0))}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.groups.pages'))}
</div>
<h2 id="new-group-title">${t('admin.groups.new')}</h2>
${errorSummary(state.create)}
<form method="post" action="${BASE}" class="stacked" aria-labelledby="new-group-title" novalidate>
  ${csrfInput(request, reply)}
  ${groupFields(state.create)}
  <div><button type="submit">${t('admin.groups.create')}</button></div>
</form>`,
  });
}

function groupRow(request: FastifyRequest, reply: FastifyReply, row: GroupListed, pending: number): SafeHtml {
  const name = t('admin.groups.named', { name: row.name });
  return html`<tr id="group-${row.id}">
  <th scope="row"><a href="${BASE}${row.id}/">${row.name}</a>${row.description === '' ? '' : html`<br><span class="muted">${row.description.split(/\r?\n/)[0]}</span>`}</th>
  <td data-label="${t('admin.groups.type')}">${typeName(row.type)}</td>
  <td class="num" data-label="${t('admin.groups.members')}">${row.members_count}</td>
  <td class="num" data-label="${t('admin.groups.requests')}">${pending}</td>
  <td data-label="${t('admin.groups.leader')}">${row.leader === null ? html`<span class="muted">${t('groups.no_leader')}</span>` : html`<a href="${profilePath(row.leader)}">${row.leader.name}</a>`}</td>
  <td class="actions">
    <a href="${BASE}${row.id}/">${t('admin.edit')}<span class="visually-hidden"> ${name}</span></a>
    <a href="${groupPath(row)}">${t('admin.groups.view')}<span class="visually-hidden"> ${name}</span></a>
    <form method="post" action="${BASE}${row.id}/delete/" class="inline"${htmxConfirm(t('admin.delete_question', { name }))} hx-post="${BASE}${row.id}/delete/" hx-target="#groups" hx-select="#groups" hx-swap="outerHTML" hx-select-oob="#admin-live">
      ${csrfInput(request, reply)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}

interface GroupForms {
  edit?: FormState;
  add?: FormState;
}

interface GroupState {
  group: GroupListed;
  page: PageRequest;
  members: { rows: MemberRow[]; total: number };
  requests: { rows: MemberRow[]; total: number };
  forms: GroupForms;
  status: number;
}

function groupPage(request: FastifyRequest, reply: FastifyReply, state: GroupState): FastifyReply {
  const { group } = state;
  const edit = state.forms.edit ?? formState('group', { name: group.name, description: group.description, type: group.type });
  const add = state.forms.add ?? formState('add-member', { role: 'member' });
  const base = `${BASE}${group.id}/`;
  const info = { page: state.page.page, perPage: state.page.perPage, total: state.members.total };
  return sendAdminPage(request, reply, {
    title: t('admin.groups.edit_title', { name: group.name }),
    section: 'groups',
    status: state.status,
    body: html`<p><a href="${BASE}">← ${t('admin.groups.title')}</a> · <a href="${groupPath(group)}">${t('admin.groups.view')}</a></p>
<h1>${t('admin.groups.edit_title', { name: group.name })}</h1>
${errorSummary(edit)}
<form method="post" action="${base}" class="stacked" novalidate>
  ${csrfInput(request, reply)}
  ${groupFields(edit)}
  <div class="actions"><button type="submit">${t('admin.groups.save')}</button></div>
</form>

<h2 id="requests-title">${t('admin.groups.requests_title')}</h2>
${
  state.requests.rows.length === 0
    ? html`<p class="muted">${t('admin.groups.no_requests')}</p>`
    : html`<div class="table-wrap"><table class="cards" aria-labelledby="requests-title">
  <thead><tr><th scope="col">${t('admin.groups.member')}</th><th scope="col">${t('admin.groups.asked')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.requests.rows.map(
    (row) => html`<tr id="request-${row.user_id}">
    <th scope="row"><a href="${profilePath({ id: row.user_id, name: row.username })}">${row.username}</a></th>
    <td data-label="${t('admin.groups.asked')}">${timestamp(row.created_at)}</td>
    <td class="actions">${roleButton(request, reply, base, row, 'member', t('admin.groups.accept'))} ${removeButton(request, reply, base, row, t('admin.groups.refuse'))}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}

<h2 id="members-title">${t('admin.groups.members_title')}</h2>
<p class="muted">${rangeText(info, state.members.rows.length, { none: 'admin.groups.no_members', range: 'admin.groups.members_range' })}</p>
${
  state.members.rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="cards" aria-labelledby="members-title">
  <thead><tr><th scope="col">${t('admin.groups.member')}</th><th scope="col">${t('admin.groups.role')}</th><th scope="col">${t('admin.groups.joined')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.members.rows.map(
    (row) => html`<tr id="member-${row.user_id}">
    <th scope="row"><a href="${profilePath({ id: row.user_id, name: row.username })}">${row.username}</a></th>
    <td data-label="${t('admin.groups.role')}">${row.role === 'leader' ? html`<span class="badge">${t('groups.role.leader')}</span>` : t('groups.role.member')}</td>
    <td data-label="${t('admin.groups.joined')}">${timestamp(row.created_at)}</td>
    <td class="actions">${
      row.role === 'leader'
        ? roleButton(request, reply, base, row, 'member', t('admin.groups.make_member'))
        : roleButton(request, reply, base, row, 'leader', t('admin.groups.make_leader'))
    } ${removeButton(request, reply, base, row, t('admin.groups.remove'))}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.groups.member_pages'))}

<h2 id="add-member-title">${t('admin.groups.add_title')}</h2>
${errorSummary(add)}
<form method="post" action="${base}members/" class="stacked" aria-labelledby="add-member-title" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(add, { name: 'name', label: t('admin.groups.member_name'), required: true, maxlength: USERNAME_MAX })}
  ${selectField(add, { name: 'role', label: t('admin.groups.role'), required: true, options: GROUP_ROLES.map((role) => ({ value: role, label: roleName(role) })) })}
  <div><button type="submit">${t('admin.groups.add')}</button></div>
</form>

<h2>${t('admin.groups.delete_heading')}</h2>
<form method="post" action="${base}delete/" class="inline">
  ${csrfInput(request, reply)}
  <button type="submit" class="danger">${t('admin.groups.delete')}</button>
</form>`,
  });
}

function roleName(role: GroupRole): string {
  return t(role === 'leader' ? 'groups.role.leader' : 'groups.role.member');
}

function roleButton(request: FastifyRequest, reply: FastifyReply, base: string, row: MemberRow, role: GroupRole, label: string): SafeHtml {
  return html`<form method="post" action="${base}members/${row.user_id}/" class="inline">${csrfInput(request, reply)}<input type="hidden" name="role" value="${role}"><button type="submit" class="small secondary">${label}<span class="visually-hidden"> ${row.username}</span></button></form>`;
}

function removeButton(request: FastifyRequest, reply: FastifyReply, base: string, row: MemberRow, label: string): SafeHtml {
  return html`<form method="post" action="${base}members/${row.user_id}/delete/" class="inline">${csrfInput(request, reply)}<button type="submit" class="small danger">${label}<span class="visually-hidden"> ${row.username}</span></button></form>`;
}
