// The admin page of an ordered list of titled categories (the emoji
// catalog's and the forum index's): a table to rename and reorder each one
// in place, a form to create one, and a confirmed delete. What differs
// between the two kinds (what a category holds, the words, what a delete may
// refuse) is the `CategoryKind` each passes in; the API's body schemas check
// the fields.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { htmxConfirm, isConfirmed, returnField, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, textInput, type FormState } from '../web/form-controls.ts';
import { optionalText, submitted, text, validationErrors, type SubmittedForm } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t } from '../i18n/messages.ts';
import { isHtmx, sendNoticeOnly } from './htmx.ts';
import { sendAdminPage, type SectionId } from './layout.ts';

interface Category {
  id: number;
  title: string;
  display_order: number;
}

export interface CategoryKind<Listed, Create extends TSchema, Update extends TSchema> {
  /** The page's path, `/admin/…/`. */
  base: string;
  section: SectionId;
  /** The page's heading (and a help line under it, if any), in the reader's language. */
  title(): string;
  help?(): string;
  titleMax: number;
  bodies: { create: Create; update: Update };
  /** The categories as the table lists them, and the line above the table. */
  list(request: FastifyRequest): Promise<{ categories: readonly Listed[]; summary: SafeHtml }>;
  categoryOf(listed: Listed): Category;
  /** The table's middle column: what a category holds. */
  contents: { heading(): string; numeric: boolean; cell(listed: Listed, name: string): SafeHtml };
  find(id: number): Promise<Category>;
  create(value: Static<Create>): Promise<Category>;
  update(id: number, value: Static<Update>): Promise<Category>;
  /** The question of the confirmation page (no JavaScript), and of the browser's confirm (htmx). */
  deleteQuestion(category: Category): Promise<string>;
  rowDeleteQuestion(name: string): string;
  /** Deletes it; why not (shown as an error notice), or null once deleted. */
  delete(request: FastifyRequest, category: Category): Promise<string | null>;
  deletedNotice(category: Category): string;
}

interface PageForms {
  create?: FormState;
  /** Row forms showing a refused change, by category id. */
  rows?: Record<number, FormState>;
}

export function categoryPages<Listed, Create extends TSchema, Update extends TSchema>(kind: CategoryKind<Listed, Create, Update>): FastifyPluginAsyncTypebox {
  const { base } = kind;
  return async (app) => {
    const admin = requirePage(ADMINS);

    const show = async (request: FastifyRequest, reply: FastifyReply, forms: PageForms = {}, status = 200) =>
      listPage(request, reply, kind, { ...(await kind.list(request)), forms, status });

    app.get(base, { preValidation: admin }, async (request, reply) => show(request, reply));

    app.post(base, { preValidation: admin }, async (request, reply) => {
      const values = categoryValues(submitted(request.body));
      const checked = checkForm(kind.bodies.create, values);
      if (!checked.ok) return show(request, reply, { create: formState('new-category', values, checked.errors) }, 422);
      const created = await kind.create(checked.value);
      return redirectWithNotice(request, reply, base, t('admin.categories.created', { name: created.title }));
    });

    // Rename and reorder from the table; htmx swaps in the re-sorted table the redirect (or the refusal) shows.
    app.post(`${base}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
      const current = await kind.find(request.params.id);
      const values = categoryValues(submitted(request.body));
      const checked = checkForm(kind.bodies.update, values);
      let errors: FieldErrors;
      if (checked.ok) {
        try {
          const updated = await kind.update(current.id, checked.value);
          return redirectWithNotice(request, reply, base, t('admin.categories.saved', { name: updated.title, position: String(updated.display_order) }));
        } catch (error) {
          errors = validationErrors(error);
        }
      } else {
        errors = checked.errors;
      }
      return show(request, reply, { rows: { [current.id]: formState(`category-${current.id}`, values, errors) } }, 422);
    });

    app.post(`${base}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
      const category = await kind.find(request.params.id);
      if (!isConfirmed(submitted(request.body))) {
        return sendConfirmPage(request, reply, {
          section: kind.section,
          title: t('admin.categories.delete_title', { name: category.title }),
          question: await kind.deleteQuestion(category),
          action: `${base}${category.id}/delete/`,
          confirmLabel: t('admin.categories.delete'),
          cancelHref: base,
        });
      }
      const refusal = await kind.delete(request, category);
      if (refusal === null) return redirectWithNotice(request, reply, base, kind.deletedNotice(category));
      if (isHtmx(request)) return sendNoticeOnly(reply, refusal, 'error');
      return redirectWithNotice(request, reply, base, refusal, 'error');
    });
  };
}

function categoryValues(form: SubmittedForm): Record<string, unknown> {
  const order = optionalText(form, 'display_order');
  return { title: text(form, 'title') ?? '', ...(order === undefined ? {} : { display_order: order }) };
}

interface ListState<Listed> {
  categories: readonly Listed[];
  summary: SafeHtml;
  forms: PageForms;
  status: number;
}

function listPage<Listed, Create extends TSchema, Update extends TSchema>(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CategoryKind<Listed, Create, Update>,
  state: ListState<Listed>,
): FastifyReply {
  const create = state.forms.create ?? formState('new-category', { display_order: 0 });
  const refused = Object.values(state.forms.rows ?? {});
  return sendAdminPage(request, reply, {
    title: kind.title(),
    section: kind.section,
    status: state.status,
    body: html`<h1>${kind.title()}</h1>
${kind.help === undefined ? '' : html`<p>${kind.help()}</p>`}
<div id="categories">
${refused.map((form) => errorSummary(form, t('admin.categories.not_saved')))}
<p class="muted">${state.summary}</p>
${
  state.categories.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${kind.title()}</caption>
  <thead><tr><th scope="col">${t('admin.categories.title_position')}</th><th scope="col"${kind.contents.numeric ? html` class="num"` : ''}>${kind.contents.heading()}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.categories.map((listed) => categoryRow(request, reply, kind, listed, state.forms.rows?.[kind.categoryOf(listed).id]))}</tbody>
</table></div>`
}
</div>
<h2 id="new-category-title">${t('admin.categories.new')}</h2>
${errorSummary(create)}
<form method="post" action="${kind.base}" class="stacked" aria-labelledby="new-category-title" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(create, { name: 'title', label: t('admin.emojis.emoji_title'), required: true, maxlength: kind.titleMax })}
  ${textInput(create, { name: 'display_order', label: t('admin.position'), type: 'number', required: true, min: 0, hint: t('admin.lower_first') })}
  <div><button type="submit">${t('admin.categories.create')}</button></div>
</form>`,
  });
}

function categoryRow<Listed, Create extends TSchema, Update extends TSchema>(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CategoryKind<Listed, Create, Update>,
  listed: Listed,
  refused: FormState | undefined,
): SafeHtml {
  const row = kind.categoryOf(listed);
  const { base } = kind;
  const form = refused ?? formState(`category-${row.id}`, { ...row });
  const name = t('admin.categories.named', { name: row.title });
  const swap = html` hx-target="#categories" hx-select="#categories" hx-swap="outerHTML" hx-select-oob="#admin-live"`;
  return html`<tr id="category-${row.id}">
  <td>
    <form method="post" action="${base}${row.id}/" class="inline-edit" hx-post="${base}${row.id}/"${swap} novalidate>
      ${csrfInput(request, reply)}${returnField(base)}
      ${textInput(form, { name: 'title', label: t('admin.categories.title_of', { name: row.title }), hideLabel: true, maxlength: kind.titleMax })}
      ${textInput(form, { name: 'display_order', label: t('admin.forums.position_of', { name: row.title }), hideLabel: true, type: 'number', min: 0 })}
      <button type="submit" class="small">${t('admin.save')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
  <td${kind.contents.numeric ? html` class="num"` : ''}>${kind.contents.cell(listed, name)}</td>
  <td class="actions">
    <form method="post" action="${base}${row.id}/delete/" class="inline" hx-post="${base}${row.id}/delete/"${swap}${htmxConfirm(kind.rowDeleteQuestion(name))}>
      ${csrfInput(request, reply)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}
