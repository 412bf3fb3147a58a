// /admin/word-filters/: the rules in a table with the API's list filters,
// create and edit forms validated by the API's schemas and the service (regex
// errors as the engine reports them), inline activation, and deletion.
// Moderators read the table; only admins change rules.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { pageRequest } from '../http/pagination.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import type { WordFilterRecord } from '../word-filters/repository.ts';
import { CreateBody, ListQuery, PatchBody, listFilter, sortOf, type ListQueryValue } from '../word-filters/routes.ts';
import { CONTENT_TYPES, FILTER_TYPES, NOTES_MAX_LENGTH, PATTERN_MAX_LENGTH, PATTERN_TYPES, REPLACEMENT_MAX_LENGTH, SEVERITIES } from '../word-filters/rules.ts';
import type { WordFiltersService } from '../word-filters/service.ts';
import { htmxConfirm, isConfirmed, returnField, returnTo, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { checkbox, checkboxGroup, errorSummary, formState, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { t } from '../i18n/messages.ts';
import { valueLabel, valueOptions } from './labels.ts';
import { flag, list, optionalText, submitted, text, validationErrors, withoutBlanks, type SubmittedForm } from '../web/form.ts';
import { ADMINS, STAFF, assertUser, hasRole, requirePage } from '../auth/guard.ts';
import { isHtmx, sendFragment } from './htmx.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, sortHeader, timestamp } from './lists.ts';

const BASE = '/admin/word-filters/';

export const wordFilterPages: FastifyPluginAsyncTypebox<{ wordFilters: WordFiltersService }> = async (app, { wordFilters }) => {
  const staff = requirePage(STAFF);
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: staff }, async (request, reply) => {
    const query = checkForm(ListQuery, withoutBlanks(request.query));
    if (!query.ok) return listPage(request, reply, { query: withoutBlanks(request.query), errors: query.errors });
    const page = pageRequest(query.value);
    const { records, total } = await wordFilters.list(listFilter(query.value), sortOf(query.value), page);
    return listPage(request, reply, { query: query.value, records, total });
  });

  app.get(`${BASE}new/`, { preValidation: admin }, async (request, reply) =>
    editPage(request, reply, {
      form: formState('rule', { pattern_type: 'exact', filter_type: 'replace', severity: 'medium', is_active: true, applies_to: ['posts'] }),
    }),
  );

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const values = ruleValues(form);
    const checked = checkForm(CreateBody, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const record = await wordFilters.create(withNulls(checked.value), assertUser(request).id);
        return redirectWithNotice(request, reply, BASE, t('admin.rules.created', { id: String(record.id), pattern: record.pattern }));
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    return editPage(request, reply, { form: formState('rule', values, errors), status: 422 });
  });

  app.get(`${BASE}:id/`, { preValidation: staff, schema: { params: IdParams } }, async (request, reply) => {
    const record = await wordFilters.get(request.params.id);
    if (!hasRole(request.user, ADMINS)) return detailPage(request, reply, record);
    return editPage(request, reply, { record, form: formState('rule', recordValues(record)) });
  });

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const record = await wordFilters.get(request.params.id);
    const values = ruleValues(submitted(request.body));
    const checked = checkForm(PatchBody, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const updated = await wordFilters.update(record.id, withNulls(checked.value));
        return redirectWithNotice(request, reply, BASE, t('admin.rules.saved', { id: String(updated.id), pattern: updated.pattern }));
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    return editPage(request, reply, { record, form: formState('rule', values, errors), status: 422 });
  });

  app.post(`${BASE}:id/active/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const active = flag(form, 'is_active');
    const record = await wordFilters.update(request.params.id, { is_active: active });
    const back = returnTo(form, BASE);
    if (isHtmx(request)) return sendFragment(reply, ruleRow(request, reply, record, back));
    return redirectWithNotice(
      request,
      reply,
      back,
      t(active ? 'admin.rules.activated' : 'admin.rules.deactivated', { id: String(record.id), pattern: record.pattern }),
    );
  });

  app.get(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const record = await wordFilters.get(request.params.id);
    return confirmDelete(request, reply, record, BASE);
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const record = await wordFilters.get(request.params.id);
    const back = returnTo(form, BASE);
    if (!isConfirmed(form)) return confirmDelete(request, reply, record, back);
    await wordFilters.delete(record.id);
    if (isHtmx(request)) return sendFragment(reply, html``);
    return redirectWithNotice(request, reply, back, t('admin.rules.deleted', { id: String(record.id), pattern: record.pattern }));
  });
};

// Form values ↔ API bodies

/** The submitted form as the API's body: checkboxes to booleans, the content types to a list. */
function ruleValues(form: SubmittedForm): Record<string, unknown> {
  // An unchosen select is a missing field (so "is required"), not an invalid "".
  const chosen = (name: string) => (optionalText(form, name) === undefined ? {} : { [name]: optionalText(form, name) });
  return {
    pattern: text(form, 'pattern') ?? '',
    ...chosen('pattern_type'),
    ...chosen('filter_type'),
    ...chosen('severity'),
    replacement: text(form, 'replacement') ?? '',
    applies_to: list(form, 'applies_to'),
    case_sensitive: flag(form, 'case_sensitive'),
    is_active: flag(form, 'is_active'),
    notes: text(form, 'notes') ?? '',
  };
}

/** An emptied optional text field clears the stored value. */
function withNulls<T extends { replacement?: string | null | undefined; notes?: string | null | undefined }>(body: T): T {
  return { ...body, replacement: body.replacement === '' ? null : body.replacement, notes: body.notes === '' ? null : body.notes };
}

function recordValues(record: WordFilterRecord): Record<string, unknown> {
  return { ...record, replacement: record.replacement ?? '', notes: record.notes ?? '' };
}

// Pages

interface ListState {
  query: Partial<ListQueryValue> | Record<string, unknown>;
  records?: WordFilterRecord[];
  total?: number;
  errors?: FieldErrors;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const admin = hasRole(request.user, ADMINS);
  const filters = formState('filters', state.query, state.errors ?? {});
  const query = state.query as Partial<ListQueryValue>;
  const sort = sortOf({ ...query } as ListQueryValue);
  const page = pageRequest({
    page: typeof query.page === 'number' ? query.page : 1,
    per_page: typeof query.per_page === 'number' ? query.per_page : undefined,
  });
  const records = state.records ?? [];
  const back = request.url;
  return sendAdminPage(request, reply, {
    title: t('admin.word_filters.title'),
    section: 'word-filters',
    status: state.errors === undefined ? 200 : 422,
    body: html`<h1>${t('admin.word_filters.title')}</h1>
<p class="actions">
  ${admin ? html`<a class="button" href="${BASE}new/">${t('admin.rules.new')}</a>` : html`<span class="muted">${t('admin.rules.read_only')}</span>`}
  <a class="button secondary" href="${BASE}tester/">${t('admin.rules.test')}</a>
</p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="${t('admin.rules.filter')}">
  ${textInput(filters, { name: 'search', label: t('admin.rules.search'), type: 'search', maxlength: 255 })}
  ${selectField(filters, { name: 'filter_type', label: t('admin.rules.action'), blank: t('admin.any'), options: valueOptions('admin.filter_type', FILTER_TYPES) })}
  ${selectField(filters, { name: 'pattern_type', label: t('admin.rules.pattern_type'), blank: t('admin.any'), options: valueOptions('admin.pattern_type', PATTERN_TYPES) })}
  ${selectField(filters, { name: 'severity', label: t('admin.rules.severity'), blank: t('admin.any'), options: valueOptions('admin.severity', SEVERITIES) })}
  ${selectField(filters, {
    name: 'is_active',
    label: t('admin.rules.state'),
    blank: t('admin.any'),
    options: [
      { value: '1', label: t('admin.rules.active') },
      { value: '0', label: t('admin.rules.inactive') },
    ],
  })}
  ${selectField(filters, { name: 'applies_to', label: t('admin.rules.applies_to'), blank: t('admin.any'), options: valueOptions('admin.content_type', CONTENT_TYPES) })}
  ${query.sort === undefined ? '' : html`<input type="hidden" name="sort" value="${query.sort}">`}
  ${query.order === undefined ? '' : html`<input type="hidden" name="order" value="${query.order}">`}
  <div class="actions"><button type="submit">${t('admin.filter')}</button><a href="${BASE}">${t('admin.clear')}</a></div>
</form>
${errorSummary(filters, t('admin.filter_invalid'))}
${
  state.errors !== undefined
    ? ''
    : html`<p class="muted">${rangeText({ page: page.page, perPage: page.perPage, total: state.total ?? 0 }, records.length, { none: 'admin.rules.none', range: 'admin.rules.range' })}</p>
${
  records.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.rules.caption')}</caption>
  <thead><tr>
    ${sortHeader(request, t('admin.rules.pattern'), 'pattern', sort)}
    ${sortHeader(request, t('admin.rules.action'), 'filter_type', sort)}
    ${sortHeader(request, t('admin.rules.pattern_type'), 'pattern_type', sort)}
    <th scope="col">${t('admin.rules.applies_to')}</th>
    ${sortHeader(request, t('admin.rules.severity'), 'severity', sort)}
    ${sortHeader(request, t('admin.rules.state'), 'is_active', sort)}
    ${sortHeader(request, t('admin.rules.created_at'), 'created_at', sort)}
    <th scope="col">${t('admin.actions')}</th>
  </tr></thead>
  <tbody>${records.map((record) => ruleRow(request, reply, record, back))}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total: state.total ?? 0 }, t('admin.rules.pages'))}`
}`,
  });
}

function ruleRow(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord, back: string): SafeHtml {
  const admin = hasRole(request.user, ADMINS);
  const name = t('admin.rules.named', { pattern: record.pattern });
  return html`<tr id="rule-${record.id}">
  <td><code>${record.pattern}</code>${record.case_sensitive ? html` <span class="badge">${t('admin.rules.case_badge')}</span>` : ''}</td>
  <td><span class="badge ${record.filter_type}">${valueLabel('admin.filter_type', record.filter_type)}</span>${record.filter_type === 'replace' ? html` → <code>${record.replacement ?? ''}</code>` : ''}</td>
  <td>${valueLabel('admin.pattern_type', record.pattern_type)}</td>
  <td>${appliesTo(record)}</td>
  <td><span class="badge ${record.severity}">${valueLabel('admin.severity', record.severity)}</span></td>
  <td>
    <span class="badge ${record.is_active ? 'on' : 'off'}">${t(record.is_active ? 'admin.rules.active' : 'admin.rules.inactive')}</span>
    ${
      admin
        ? html`<form method="post" action="${BASE}${record.id}/active/" class="inline" hx-post="${BASE}${record.id}/active/" hx-target="closest tr" hx-swap="outerHTML">
      ${csrfInput(request, reply)}${returnField(back)}
      <input type="hidden" name="is_active" value="${record.is_active ? '0' : '1'}">
      <button type="submit" class="small secondary">${t(record.is_active ? 'admin.rules.deactivate' : 'admin.rules.activate')}<span class="visually-hidden"> ${name}</span></button>
    </form>`
        : ''
    }
  </td>
  <td>${timestamp(record.created_at)}</td>
  <td class="actions">
    ${
      admin
        ? html`<a href="${BASE}${record.id}/">${t('admin.edit')}<span class="visually-hidden"> ${name}</span></a>
    <form method="post" action="${BASE}${record.id}/delete/" class="inline" hx-post="${BASE}${record.id}/delete/" hx-target="closest tr" hx-swap="outerHTML"${htmxConfirm(t('admin.delete_question', { name }))}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>`
        : html`<a href="${BASE}${record.id}/">${t('admin.rules.view')}<span class="visually-hidden"> ${name}</span></a>`
    }
  </td>
</tr>`;
}

interface EditState {
  record?: WordFilterRecord;
  form: FormState;
  status?: number;
}

function editPage(request: FastifyRequest, reply: FastifyReply, state: EditState): FastifyReply {
  const { record, form } = state;
  const title = record === undefined ? t('admin.rules.new_title') : t('admin.rules.edit_title', { id: String(record.id) });
  return sendAdminPage(request, reply, {
    title,
    section: 'word-filters',
    status: state.status ?? 200,
    body: html`<p><a href="${BASE}">← ${t('admin.word_filters.title')}</a></p>
<h1>${title}</h1>
${errorSummary(form)}
<form method="post" action="${record === undefined ? BASE : `${BASE}${record.id}/`}" class="stacked" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(form, {
    name: 'pattern',
    label: t('admin.rules.pattern'),
    required: true,
    maxlength: PATTERN_MAX_LENGTH,
    hint: t('admin.rules.pattern_hint'),
  })}
  ${selectField(form, { name: 'pattern_type', label: t('admin.rules.pattern_type'), required: true, options: valueOptions('admin.pattern_type', PATTERN_TYPES) })}
  ${selectField(form, { name: 'filter_type', label: t('admin.rules.action'), required: true, hint: t('admin.rules.action_hint'), options: valueOptions('admin.filter_type', FILTER_TYPES) })}
  ${textInput(form, { name: 'replacement', label: t('admin.rules.replacement'), maxlength: REPLACEMENT_MAX_LENGTH, hint: t('admin.rules.replacement_hint') })}
  ${selectField(form, { name: 'severity', label: t('admin.rules.severity'), options: valueOptions('admin.severity', SEVERITIES) })}
  ${checkboxGroup(form, { name: 'applies_to', label: t('admin.rules.applies_to'), required: true, options: valueOptions('admin.content_type', CONTENT_TYPES) })}
  ${checkbox(form, { name: 'case_sensitive', label: t('admin.rules.case_sensitive') })}
  ${checkbox(form, { name: 'is_active', label: t('admin.rules.active') })}
  ${textArea(form, { name: 'notes', label: t('admin.rules.notes'), maxlength: NOTES_MAX_LENGTH, rows: 3 })}
  <div class="actions">
    <button type="submit">${t(record === undefined ? 'admin.rules.create' : 'admin.rules.save')}</button>
    <a href="${BASE}">${t('admin.cancel')}</a>
    ${record === undefined ? '' : html`<a href="${BASE}${record.id}/delete/" class="error">${t('admin.rules.delete_this')}</a>`}
  </div>
</form>`,
  });
}

function detailPage(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord): FastifyReply {
  return sendAdminPage(request, reply, {
    title: t('admin.rules.rule', { id: String(record.id) }),
    section: 'word-filters',
    body: html`<p><a href="${BASE}">← ${t('admin.word_filters.title')}</a></p>
<h1>${t('admin.rules.rule', { id: String(record.id) })}</h1>
<dl class="facts">
  <dt>${t('admin.rules.pattern')}</dt><dd><code>${record.pattern}</code></dd>
  <dt>${t('admin.rules.pattern_type')}</dt><dd>${valueLabel('admin.pattern_type', record.pattern_type)}</dd>
  <dt>${t('admin.rules.action')}</dt><dd>${valueLabel('admin.filter_type', record.filter_type)}${record.replacement === null ? '' : html` → <code>${record.replacement}</code>`}</dd>
  <dt>${t('admin.rules.severity')}</dt><dd>${valueLabel('admin.severity', record.severity)}</dd>
  <dt>${t('admin.rules.applies_to')}</dt><dd>${appliesTo(record)}</dd>
  <dt>${t('admin.rules.case')}</dt><dd>${t(record.case_sensitive ? 'admin.rules.case_sensitive_short' : 'admin.rules.case_ignored')}</dd>
  <dt>${t('admin.rules.state')}</dt><dd>${t(record.is_active ? 'admin.rules.active' : 'admin.rules.inactive')}</dd>
  <dt>${t('admin.rules.notes_short')}</dt><dd>${record.notes ?? html`<span class="muted">${t('admin.none')}</span>`}</dd>
  <dt>${t('admin.rules.created_by')}</dt><dd>${record.creator?.name ?? html`<span class="muted">${t('admin.rules.deleted_user')}</span>`}, ${timestamp(record.created_at)}</dd>
  <dt>${t('admin.rules.changed')}</dt><dd>${timestamp(record.updated_at)}</dd>
</dl>
<p><a href="${BASE}tester/">${t('admin.rules.test')}</a></p>`,
  });
}

function confirmDelete(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord, back: string): FastifyReply {
  return sendConfirmPage(request, reply, {
    section: 'word-filters',
    title: t('admin.rules.delete_title', { id: String(record.id) }),
    question: t('admin.rules.delete_question', { pattern: record.pattern, action: valueLabel('admin.filter_kind', record.filter_type) }),
    details: html`<p class="muted">${t('admin.rules.delete_details')}</p>`,
    action: `${BASE}${record.id}/delete/`,
    confirmLabel: t('admin.rules.delete'),
    cancelHref: back,
    returnTo: back,
  });
}

/** Where a rule applies, each place named in the reader's language. */
function appliesTo(record: WordFilterRecord): string {
  return record.applies_to.map((type) => valueLabel('admin.content_type', type)).join(', ');
}
