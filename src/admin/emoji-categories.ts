// /admin/emoji-categories/: create, rename, reorder and delete categories,
// with the number of emojis in each. Deleting one keeps its emojis, without
// a category (CategoryService; the API's schemas for the fields).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateCategoryBody, UpdateCategoryBody } from '../emoji/category-routes.ts';
import type { ListedCategory } from '../emoji/category-service.ts';
import { TITLE_MAX } from '../emoji/fields.ts';
import type { EmojiServices } from '../emoji/services.ts';
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
import { t, tn } from '../i18n/messages.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/emoji-categories/';

export const emojiCategoryPages: FastifyPluginAsyncTypebox<{ emoji: EmojiServices }> = async (app, { emoji }) => {
  const admin = requirePage(ADMINS);

  const show = async (request: FastifyRequest, reply: FastifyReply, forms: PageForms = {}, status = 200) => {
    const [categories, catalog] = await Promise.all([emoji.categories.list({ withCount: true, withEmojis: false }), emoji.catalog.snapshot()]);
    return listPage(request, reply, { categories, uncategorised: catalog.uncategorisedCount, forms, status });
  };

  app.get(BASE, { preValidation: admin }, async (request, reply) => show(request, reply));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const values = categoryValues(submitted(request.body));
    const checked = checkForm(CreateCategoryBody, values);
    if (!checked.ok) return show(request, reply, { create: formState('new-category', values, checked.errors) }, 422);
    const created = await emoji.categories.create(checked.value);
    return redirectWithNotice(request, reply, BASE, t('admin.categories.created', { name: created.title }));
  });

  // Rename and reorder from the table; htmx swaps the re-sorted table the redirect (or the refusal) shows.
  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const current = await emoji.categories.find(request.params.id);
    const values = categoryValues(submitted(request.body));
    const checked = checkForm(UpdateCategoryBody, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        const updated = await emoji.categories.update(current.id, checked.value);
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
    const category = await emoji.categories.find(request.params.id);
    if (!isConfirmed(submitted(request.body))) {
      const count = (await emoji.catalog.snapshot()).emojisIn(category.id).length;
      return sendConfirmPage(request, reply, {
        section: 'emoji-categories',
        title: t('admin.categories.delete_title', { name: category.title }),
        question:
          count === 0 ? t('admin.categories.delete_empty', { name: category.title }) : tn('admin.categories.delete_question', count, { name: category.title }),
        action: `${BASE}${category.id}/delete/`,
        confirmLabel: t('admin.categories.delete'),
        cancelHref: BASE,
      });
    }
    await emoji.categories.delete(category.id);
    return redirectWithNotice(request, reply, BASE, t('admin.categories.deleted', { name: category.title }));
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
  categories: readonly ListedCategory[];
  uncategorised: number;
  forms: PageForms;
  status: number;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const create = state.forms.create ?? formState('new-category', { display_order: 0 });
  const refused = Object.values(state.forms.rows ?? {});
  return sendAdminPage(request, reply, {
    title: t('admin.emoji_categories.title'),
    section: 'emoji-categories',
    status: state.status,
    body: html`<h1>${t('admin.emoji_categories.title')}</h1>
<div id="categories">
${refused.map((form) => errorSummary(form, t('admin.categories.not_saved')))}
<p class="muted">${tn('admin.categories.count', state.categories.length)} <a href="/admin/emojis/?category_id=none">${tn('admin.categories.uncategorised', state.uncategorised)}</a>.</p>
${
  state.categories.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.emoji_categories.title')}</caption>
  <thead><tr><th scope="col">${t('admin.categories.title_position')}</th><th scope="col" class="num">${t('admin.emojis.title')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.categories.map((listed) => categoryRow(request, reply, listed, state.forms.rows?.[listed.row.id]))}</tbody>
</table></div>`
}
</div>
<h2 id="new-category-title">${t('admin.categories.new')}</h2>
${errorSummary(create)}
<form method="post" action="${BASE}" class="stacked" aria-labelledby="new-category-title" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(create, { name: 'title', label: t('admin.emojis.emoji_title'), required: true, maxlength: TITLE_MAX })}
  ${textInput(create, { name: 'display_order', label: t('admin.position'), type: 'number', required: true, min: 0, hint: t('admin.lower_first') })}
  <div><button type="submit">${t('admin.categories.create')}</button></div>
</form>`,
  });
}

function categoryRow(request: FastifyRequest, reply: FastifyReply, listed: ListedCategory, refused: FormState | undefined): SafeHtml {
  const { row } = listed;
  const form = refused ?? formState(`category-${row.id}`, row);
  const name = t('admin.categories.named', { name: row.title });
  const swap = html` hx-target="#categories" hx-select="#categories" hx-swap="outerHTML" hx-select-oob="#admin-live"`;
  return html`<tr id="category-${row.id}">
  <td>
    <form method="post" action="${BASE}${row.id}/" class="inline-edit" hx-post="${BASE}${row.id}/"${swap} novalidate>
      ${csrfInput(request, reply)}${returnField(BASE)}
      ${textInput(form, { name: 'title', label: t('admin.categories.title_of', { name: row.title }), hideLabel: true, maxlength: TITLE_MAX })}
      ${textInput(form, { name: 'display_order', label: t('admin.forums.position_of', { name: row.title }), hideLabel: true, type: 'number', min: 0 })}
      <button type="submit" class="small">${t('admin.save')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
  <td class="num"><a href="/admin/emojis/?category_id=${row.id}">${listed.emojisCount ?? 0}<span class="visually-hidden">${t('admin.categories.emojis_in', { name })}</span></a></td>
  <td class="actions">
    <form method="post" action="${BASE}${row.id}/delete/" class="inline" hx-post="${BASE}${row.id}/delete/"${swap}${htmxConfirm(t('admin.categories.delete_ask', { name }))}>
      ${csrfInput(request, reply)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}
