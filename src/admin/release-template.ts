// /admin/forums/{id}/release-template/ (docs/release-templates.md): a forum's
// release template in one form, without JavaScript: the title and post
// layouts and a row per field (its key, label, kind, whether it is required
// or a filter, a choice field's options), with blank rows to add fields (a
// row left without a key is no field); removing the template asks first.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMINS, requirePage } from '../auth/guard.ts';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { t } from '../i18n/messages.ts';
import {
  BODY_LAYOUT_MAX,
  CHOICE_MAX,
  FIELDS_MAX,
  LABEL_MAX,
  RELEASE_FIELD_KINDS,
  TITLE_LAYOUT_MAX,
  VALUE_MAX,
  type ReleaseFieldInput,
  type ReleaseFieldKind,
  type ReleaseTemplate,
} from '../forum/release-templates.ts';
import type { ForumRow } from '../forum/repository.ts';
import type { ForumService } from '../forum/service.ts';
import { checkbox, errorSummary, formState, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { flag, submitted, text, validationErrors, type SubmittedForm } from '../web/form.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { isConfirmed, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/forums/';
/** Blank rows under the fields, for new ones. */
const BLANK_ROWS = 3;

export const releaseTemplatePages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  const admin = requirePage(ADMINS);
  const path = (row: ForumRow) => `${BASE}${row.id}/release-template/`;

  app.get(`${BASE}:id/release-template/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const template = await forum.releases.of(row.id);
    return page(
      request,
      reply,
      row,
      template,
      formState('release', template === null ? { title_layout: '', body_layout: '' } : values(template)),
      template?.fields.length ?? 0,
    );
  });

  app.post(`${BASE}:id/release-template/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const template = await forum.releases.of(row.id);
    const form = submitted(request.body);
    const read = readForm(form);
    const rows = rowCount(form);
    if (read.fields.length === 0)
      return page(request, reply, row, template, formState('release', form, { fields: [t('release.error.fields', { max: FIELDS_MAX })] }), rows, 422);
    try {
      await forum.releases.set(row.id, read);
    } catch (error) {
      return page(request, reply, row, template, formState('release', form, rowErrors(validationErrors(error), read.rows)), rows, 422);
    }
    return redirectWithNotice(request, reply, path(row), t('admin.release.saved'));
  });

  app.post(`${BASE}:id/release-template/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'forums',
        title: t('admin.release.remove'),
        question: t('admin.release.remove_question', { forum: row.name }),
        action: `${path(row)}delete/`,
        confirmLabel: t('admin.release.remove'),
        cancelHref: path(row),
      });
    }
    await forum.releases.remove(row.id);
    return redirectWithNotice(request, reply, path(row), t('admin.release.removed'));
  });
};

function page(
  request: FastifyRequest,
  reply: FastifyReply,
  row: ForumRow,
  template: ReleaseTemplate | null,
  form: FormState,
  fieldRows: number,
  status = 200,
): FastifyReply {
  const title = t('admin.release.title', { forum: row.name });
  const action = `${BASE}${row.id}/release-template/`;
  const rows = Math.min(FIELDS_MAX, fieldRows + BLANK_ROWS);
  return sendAdminPage(request, reply, {
    title,
    section: 'forums',
    status,
    body: html`<h1>${title}</h1>
<p class="muted">${t('admin.release.help')}</p>
${errorSummary(form)}
<form method="post" action="${action}" class="stacked" novalidate>
${csrfInput(request, reply)}
${textInput(form, { name: 'title_layout', label: t('admin.release.title_layout'), hint: t('admin.release.title_layout_hint'), maxlength: TITLE_LAYOUT_MAX })}
${textArea(form, { name: 'body_layout', label: t('admin.release.body_layout'), hint: t('admin.release.body_layout_hint'), rows: 8, maxlength: BODY_LAYOUT_MAX })}
<h2>${t('admin.release.fields')}</h2>
<p class="muted">${t('admin.release.blank_hint')}</p>
${Array.from({ length: rows }, (_, n) => fieldRow(form, n))}
<div><button type="submit">${t('admin.release.save')}</button></div>
</form>
${
  template === null
    ? ''
    : html`<form method="post" action="${action}delete/" class="inline">${csrfInput(request, reply)}<button type="submit" class="danger">${t('admin.release.remove')}</button></form>`
}`,
  });
}

function fieldRow(form: FormState, n: number): SafeHtml {
  const name = (part: string) => `fields.${n}.${part}`;
  return html`<fieldset class="field group"><legend>${t('admin.release.field', { n: n + 1 })}</legend>
${textInput(form, { name: name('key'), label: t('admin.release.key'), maxlength: 32 })}
${textInput(form, { name: name('label'), label: t('admin.release.label'), maxlength: LABEL_MAX })}
${selectField(form, { name: name('kind'), label: t('admin.release.kind'), options: RELEASE_FIELD_KINDS.map((kind) => ({ value: kind, label: t(`admin.release.kind.${kind}`) })) })}
${checkbox(form, { name: name('required'), label: t('admin.release.required') })}
${checkbox(form, { name: name('filterable'), label: t('admin.release.filterable') })}
${textArea(form, { name: name('choices'), label: t('admin.release.choices'), rows: 3, maxlength: CHOICE_MAX * 50 })}
</fieldset>`;
}

function values(template: ReleaseTemplate): Record<string, unknown> {
  const out: Record<string, unknown> = { title_layout: template.titleLayout, body_layout: template.bodyLayout };
  template.fields.forEach((field, n) => {
    out[`fields.${n}.key`] = field.key;
    out[`fields.${n}.label`] = field.label;
    out[`fields.${n}.kind`] = field.kind;
    out[`fields.${n}.required`] = field.required;
    out[`fields.${n}.filterable`] = field.filterable;
    out[`fields.${n}.choices`] = field.choices.join('\n');
  });
  return out;
}

/** How many rows the form sent (so a refused form comes back with as many). */
function rowCount(form: SubmittedForm): number {
  let n = 0;
  while (n < FIELDS_MAX && text(form, `fields.${n}.key`) !== undefined) n++;
  return Math.max(0, n - BLANK_ROWS);
}

/** The template the form holds; `rows[i]` is the form row of the service's field i (rows without a key are no field). */
function readForm(form: SubmittedForm): { title_layout: string; body_layout: string; fields: ReleaseFieldInput[]; rows: number[] } {
  const fields: ReleaseFieldInput[] = [];
  const rows: number[] = [];
  for (let n = 0; n < FIELDS_MAX; n++) {
    const key = text(form, `fields.${n}.key`);
    if (key === undefined) break;
    if (key.trim() === '') continue;
    const kind = text(form, `fields.${n}.kind`) ?? 'text';
    fields.push({
      key: key.slice(0, 64),
      label: (text(form, `fields.${n}.label`) ?? '').slice(0, LABEL_MAX + 1),
      kind: (RELEASE_FIELD_KINDS as readonly string[]).includes(kind) ? (kind as ReleaseFieldKind) : 'text',
      required: flag(form, `fields.${n}.required`),
      filterable: flag(form, `fields.${n}.filterable`),
      choices: (text(form, `fields.${n}.choices`) ?? '').slice(0, VALUE_MAX * 10).split(/\r?\n/),
    });
    rows.push(n);
  }
  return {
    title_layout: (text(form, 'title_layout') ?? '').slice(0, TITLE_LAYOUT_MAX + 1),
    body_layout: (text(form, 'body_layout') ?? '').slice(0, BODY_LAYOUT_MAX + 1),
    fields,
    rows,
  };
}

/** The service's `fields.{i}.…` errors at the form row that field came from. */
function rowErrors(errors: FieldErrors, rows: readonly number[]): FieldErrors {
  const named: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const match = /^fields\.(\d+)\.(.+)$/.exec(field);
    const name = match === null ? field : `fields.${rows[Number(match[1])] ?? match[1]}.${match[2]}`;
    (named[name] ??= []).push(...messages);
  }
  return named;
}
