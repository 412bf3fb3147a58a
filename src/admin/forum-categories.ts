// /admin/categories/: the forum categories, the index's headings
// (docs/access.md, "Categories"): create, rename and reorder from the table,
// delete an empty one. A category that still holds forums is refused with the
// reason and the forums in it. Which forum is in which is chosen on the
// forum's page (forums.ts). The API's body schemas check the fields.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CategoryWithForums } from '../forum/categories.ts';
import { CATEGORY_TITLE_MAX, CategoryBodies } from '../forum/category-routes.ts';
import type { ForumService } from '../forum/service.ts';
import { ApiError, type FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { htmxConfirm, isConfirmed, returnField, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, textInput, type FormState } from '../web/form-controls.ts';
import { optionalText, submitted, text, validationErrors, type SubmittedForm } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t, tn } from '../i18n/messages.ts';
import { isHtmx, sendNoticeOnly } from './htmx.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/categories/';

export const forumCategoryPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  const admin = requirePage(ADMINS);

  const show = async (request: FastifyRequest, reply: FastifyReply, forms: PageForms = {}, status = 200) =>
    listPage(request, reply, { categories: await forum.categories.list(await forum.access.of(request.user)), forms, status });

  app.get(BASE, { preValidation: admin }, async (request, reply) => show(request, reply));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const values = categoryValues(submitted(request.body));
    const checked = checkForm(CategoryBodies.create, values);
    if (!checked.ok) return show(request, reply, { create: formState('new-category', values, checked.errors) }, 422);
    const created = await forum.categories.create(checked.value);
    return redirectWithNotice(request, reply, BASE, t('admin.categories.created', { name: created.title }));
  });

  // Rename and reorder from the table; htmx swaps in the re-sorted table the redirect (or the refusal) shows.
  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const current = await forum.categories.find(request.params.id);
    const values = categoryValues(submitted(request.body));
    const checked = checkForm(CategoryBodies.update, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const updated = await forum.categories.update(current.id, checked.value);
        return redirectWithNotice(request, reply, BASE, t('admin.categories.saved', { name: updated.title, position: String(updated.display_order) }));
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    return show(request, reply, { rows: { [current.id]: formState(`category-${current.id}`, values, errors) } }, 422);
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const category = await forum.categories.find(request.params.id);
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'categories',
        title: t('admin.categories.delete_title', { name: category.title }),
        question: t('admin.forum_categories.delete_question', { name: category.title }),
        action: `${BASE}${category.id}/delete/`,
        confirmLabel: t('admin.categories.delete'),
        cancelHref: BASE,
      });
    }
    try {
      await forum.categories.delete(category.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'CONFLICT') throw error;
      // Say which forums keep it, so the admin knows where to go.
      const { forums } = await forum.categories.get(category.id, await forum.access.of(request.user));
      const names = forums.filter((row) => row.parent_id === null).map((row) => t('admin.forums.quoted', { name: row.name }));
      const reason = names.length === 0 ? error.message : `${error.message} ${t('admin.forum_categories.in_it', { names: names.join(', ') })}`;
      const message = t('admin.forum_categories.refused', { name: category.title, reason });
      if (isHtmx(request)) return sendNoticeOnly(reply, message, 'error');
      return redirectWithNotice(request, reply, BASE, message, 'error');
    }
    return redirectWithNotice(request, reply, BASE, t('admin.forum_categories.deleted', { name: category.title }));
  });
};

function categoryValues(form: SubmittedForm): Record<string, unknown> {
  const order = optionalText(form, 'display_order');
  return { title: text(form, 'title') ?? '', ...(order === undefined ? {} : { display_order: order }) };
}

interface PageForms {
  create?: FormState;
  /** Row forms showing a refused change, by category id. */
  rows?: Record<number, FormState>;
}

interface ListState {
  categories: readonly CategoryWithForums[];
  forms: PageForms;
  status: number;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const create = state.forms.create ?? formState('new-category', { display_order: 0 });
  const refused = Object.values(state.forms.rows ?? {});
  return sendAdminPage(request, reply, {
    title: t('admin.forum_categories.title'),
    section: 'categories',
    status: state.status,
    body: html`<h1>${t('admin.forum_categories.title')}</h1>
<p>${t('admin.forum_categories.help')}</p>
<div id="categories">
${refused.map((form) => errorSummary(form, t('admin.categories.not_saved')))}
<p class="muted">${tn('admin.forum_categories.count', state.categories.length)}</p>
${
  state.categories.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.forum_categories.title')}</caption>
  <thead><tr><th scope="col">${t('admin.categories.title_position')}</th><th scope="col">${t('admin.forum_categories.forums')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.categories.map((category) => categoryRow(request, reply, category, state.forms.rows?.[category.row.id]))}</tbody>
</table></div>`
}
</div>
<h2 id="new-category-title">${t('admin.categories.new')}</h2>
${errorSummary(create)}
<form method="post" action="${BASE}" class="stacked" aria-labelledby="new-category-title" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(create, { name: 'title', label: t('admin.emojis.emoji_title'), required: true, maxlength: CATEGORY_TITLE_MAX })}
  ${textInput(create, { name: 'display_order', label: t('admin.position'), type: 'number', required: true, min: 0, hint: t('admin.lower_first') })}
  <div><button type="submit">${t('admin.categories.create')}</button></div>
</form>`,
  });
}

function categoryRow(request: FastifyRequest, reply: FastifyReply, category: CategoryWithForums, refused: FormState | undefined): SafeHtml {
  const { row } = category;
  const form = refused ?? formState(`category-${row.id}`, row);
  const name = t('admin.categories.named', { name: row.title });
  const swap = html` hx-target="#categories" hx-select="#categories" hx-swap="outerHTML" hx-select-oob="#admin-live"`;
  // Subforums are listed with their forum; the table names the forums admins put in the category.
  const forums = category.forums.filter((forumRow) => forumRow.parent_id === null);
  return html`<tr id="category-${row.id}">
  <td>
    <form method="post" action="${BASE}${row.id}/" class="inline-edit" hx-post="${BASE}${row.id}/"${swap} novalidate>
      ${csrfInput(request, reply)}${returnField(BASE)}
      ${textInput(form, { name: 'title', label: t('admin.categories.title_of', { name: row.title }), hideLabel: true, maxlength: CATEGORY_TITLE_MAX })}
      ${textInput(form, { name: 'display_order', label: t('admin.forums.position_of', { name: row.title }), hideLabel: true, type: 'number', min: 0 })}
      <button type="submit" class="small">${t('admin.save')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
  <td>${
    forums.length === 0
      ? html`<span class="muted">${t('admin.forum_categories.empty')}</span>`
      : html`<ul class="inline-list" aria-label="${t('admin.forum_categories.forums_of', { name: row.title })}">${forums.map(
          (forumRow) => html`<li><a href="/admin/forums/${forumRow.id}/">${forumRow.name}</a></li>`,
        )}</ul>`
  }</td>
  <td class="actions">
    <form method="post" action="${BASE}${row.id}/delete/" class="inline" hx-post="${BASE}${row.id}/delete/"${swap}${htmxConfirm(
      t('admin.delete_question', { name }),
    )}>
      ${csrfInput(request, reply)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}
