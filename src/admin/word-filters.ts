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
import { checkbox, checkboxGroup, errorSummary, formState, humanize, options, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
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
        return redirectWithNotice(request, reply, BASE, `Rule #${record.id} “${record.pattern}” created.`);
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
        return redirectWithNotice(request, reply, BASE, `Rule #${updated.id} “${updated.pattern}” saved.`);
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
    return redirectWithNotice(request, reply, back, `Rule #${record.id} “${record.pattern}” ${active ? 'activated' : 'deactivated'}.`);
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
    return redirectWithNotice(request, reply, back, `Rule #${record.id} “${record.pattern}” deleted.`);
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
    title: 'Word filters',
    section: 'word-filters',
    status: state.errors === undefined ? 200 : 422,
    body: html`<h1>Word filters</h1>
<p class="actions">
  ${admin ? html`<a class="button" href="${BASE}new/">New rule</a>` : html`<span class="muted">You can read the rules and test text against them; only administrators change them.</span>`}
  <a class="button secondary" href="${BASE}tester/">Test text against the rules</a>
</p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="Filter rules">
  ${textInput(filters, { name: 'search', label: 'Pattern or notes contain', type: 'search', maxlength: 255 })}
  ${selectField(filters, { name: 'filter_type', label: 'Action', blank: 'Any', options: options(FILTER_TYPES) })}
  ${selectField(filters, { name: 'pattern_type', label: 'Pattern type', blank: 'Any', options: options(PATTERN_TYPES) })}
  ${selectField(filters, { name: 'severity', label: 'Severity', blank: 'Any', options: options(SEVERITIES) })}
  ${selectField(filters, {
    name: 'is_active',
    label: 'State',
    blank: 'Any',
    options: [
      { value: '1', label: 'Active' },
      { value: '0', label: 'Inactive' },
    ],
  })}
  ${selectField(filters, { name: 'applies_to', label: 'Applies to', blank: 'Any', options: options(CONTENT_TYPES) })}
  ${query.sort === undefined ? '' : html`<input type="hidden" name="sort" value="${query.sort}">`}
  ${query.order === undefined ? '' : html`<input type="hidden" name="order" value="${query.order}">`}
  <div class="actions"><button type="submit">Filter</button><a href="${BASE}">Clear</a></div>
</form>
${errorSummary(filters, 'The filter is not valid:')}
${
  state.errors !== undefined
    ? ''
    : html`<p class="muted">${rangeText({ page: page.page, perPage: page.perPage, total: state.total ?? 0 }, records.length, 'rules')}</p>
${
  records.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Word-filter rules</caption>
  <thead><tr>
    ${sortHeader(request, 'Pattern', 'pattern', sort)}
    ${sortHeader(request, 'Action', 'filter_type', sort)}
    ${sortHeader(request, 'Pattern type', 'pattern_type', sort)}
    <th scope="col">Applies to</th>
    ${sortHeader(request, 'Severity', 'severity', sort)}
    ${sortHeader(request, 'State', 'is_active', sort)}
    ${sortHeader(request, 'Created', 'created_at', sort)}
    <th scope="col">Actions</th>
  </tr></thead>
  <tbody>${records.map((record) => ruleRow(request, reply, record, back))}</tbody>
</table></div>`
}
${pagination(request, { page: page.page, perPage: page.perPage, total: state.total ?? 0 }, 'Rule pages')}`
}`,
  });
}

function ruleRow(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord, back: string): SafeHtml {
  const admin = hasRole(request.user, ADMINS);
  const name = `rule “${record.pattern}”`;
  return html`<tr id="rule-${record.id}">
  <td><code>${record.pattern}</code>${record.case_sensitive ? html` <span class="badge">case-sensitive</span>` : ''}</td>
  <td><span class="badge ${record.filter_type}">${humanize(record.filter_type)}</span>${record.filter_type === 'replace' ? html` → <code>${record.replacement ?? ''}</code>` : ''}</td>
  <td>${humanize(record.pattern_type)}</td>
  <td>${record.applies_to.map(humanize).join(', ')}</td>
  <td><span class="badge ${record.severity}">${humanize(record.severity)}</span></td>
  <td>
    <span class="badge ${record.is_active ? 'on' : 'off'}">${record.is_active ? 'Active' : 'Inactive'}</span>
    ${
      admin
        ? html`<form method="post" action="${BASE}${record.id}/active/" class="inline" hx-post="${BASE}${record.id}/active/" hx-target="closest tr" hx-swap="outerHTML">
      ${csrfInput(request, reply)}${returnField(back)}
      <input type="hidden" name="is_active" value="${record.is_active ? '0' : '1'}">
      <button type="submit" class="small secondary">${record.is_active ? 'Deactivate' : 'Activate'}<span class="visually-hidden"> ${name}</span></button>
    </form>`
        : ''
    }
  </td>
  <td>${timestamp(record.created_at)}</td>
  <td class="actions">
    ${
      admin
        ? html`<a href="${BASE}${record.id}/">Edit<span class="visually-hidden"> ${name}</span></a>
    <form method="post" action="${BASE}${record.id}/delete/" class="inline" hx-post="${BASE}${record.id}/delete/" hx-target="closest tr" hx-swap="outerHTML"${htmxConfirm(`Delete ${name}?`)}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">Delete<span class="visually-hidden"> ${name}</span></button>
    </form>`
        : html`<a href="${BASE}${record.id}/">View<span class="visually-hidden"> ${name}</span></a>`
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
  const title = record === undefined ? 'New word-filter rule' : `Edit rule #${record.id}`;
  return sendAdminPage(request, reply, {
    title,
    section: 'word-filters',
    status: state.status ?? 200,
    body: html`<p><a href="${BASE}">← Word filters</a></p>
<h1>${title}</h1>
${errorSummary(form)}
<form method="post" action="${record === undefined ? BASE : `${BASE}${record.id}/`}" class="stacked" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(form, {
    name: 'pattern',
    label: 'Pattern',
    required: true,
    maxlength: PATTERN_MAX_LENGTH,
    hint: 'Exact: a word or phrase matched as whole words. Wildcard: * is any run of letters or digits, ? one character. Regex: RE2 syntax, bare or as /…/flags.',
  })}
  ${selectField(form, { name: 'pattern_type', label: 'Pattern type', required: true, options: options(PATTERN_TYPES) })}
  ${selectField(form, { name: 'filter_type', label: 'Action', required: true, hint: 'Block refuses the text, moderate holds it for a moderator, replace puts the replacement in place of each match.', options: options(FILTER_TYPES) })}
  ${textInput(form, { name: 'replacement', label: 'Replacement', maxlength: REPLACEMENT_MAX_LENGTH, hint: 'Required when the action is replace.' })}
  ${selectField(form, { name: 'severity', label: 'Severity', options: options(SEVERITIES) })}
  ${checkboxGroup(form, { name: 'applies_to', label: 'Applies to', required: true, options: options(CONTENT_TYPES) })}
  ${checkbox(form, { name: 'case_sensitive', label: 'Case-sensitive (otherwise case is ignored)' })}
  ${checkbox(form, { name: 'is_active', label: 'Active' })}
  ${textArea(form, { name: 'notes', label: 'Notes for moderators', maxlength: NOTES_MAX_LENGTH, rows: 3 })}
  <div class="actions">
    <button type="submit">${record === undefined ? 'Create rule' : 'Save rule'}</button>
    <a href="${BASE}">Cancel</a>
    ${record === undefined ? '' : html`<a href="${BASE}${record.id}/delete/" class="error">Delete this rule</a>`}
  </div>
</form>`,
  });
}

function detailPage(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord): FastifyReply {
  return sendAdminPage(request, reply, {
    title: `Rule #${record.id}`,
    section: 'word-filters',
    body: html`<p><a href="${BASE}">← Word filters</a></p>
<h1>Rule #${record.id}</h1>
<dl class="facts">
  <dt>Pattern</dt><dd><code>${record.pattern}</code></dd>
  <dt>Pattern type</dt><dd>${humanize(record.pattern_type)}</dd>
  <dt>Action</dt><dd>${humanize(record.filter_type)}${record.replacement === null ? '' : html` → <code>${record.replacement}</code>`}</dd>
  <dt>Severity</dt><dd>${humanize(record.severity)}</dd>
  <dt>Applies to</dt><dd>${record.applies_to.map(humanize).join(', ')}</dd>
  <dt>Case</dt><dd>${record.case_sensitive ? 'Case-sensitive' : 'Ignores case'}</dd>
  <dt>State</dt><dd>${record.is_active ? 'Active' : 'Inactive'}</dd>
  <dt>Notes</dt><dd>${record.notes ?? html`<span class="muted">None</span>`}</dd>
  <dt>Created by</dt><dd>${record.creator?.name ?? html`<span class="muted">A deleted user</span>`}, ${timestamp(record.created_at)}</dd>
  <dt>Changed</dt><dd>${timestamp(record.updated_at)}</dd>
</dl>
<p><a href="${BASE}tester/">Test text against the rules</a></p>`,
  });
}

function confirmDelete(request: FastifyRequest, reply: FastifyReply, record: WordFilterRecord, back: string): FastifyReply {
  return sendConfirmPage(request, reply, {
    section: 'word-filters',
    title: `Delete rule #${record.id}`,
    question: `Delete the rule “${record.pattern}” (${record.filter_type}) for good?`,
    details: html`<p class="muted">Posts it is holding stay in the moderation queue, shown as held by a deleted rule.</p>`,
    action: `${BASE}${record.id}/delete/`,
    confirmLabel: 'Delete rule',
    cancelHref: back,
    returnTo: back,
  });
}
