// /admin/emojis/: the catalog in a table (search, category, sorting, pages),
// create and edit forms for the three kinds with a live preview, an image
// upload inside the form, and deletion. Every rule is EmojiService's,
// reached through the API's own body schemas.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { EMOJI_SORTS } from '../emoji/catalog-snapshot.ts';
import type { LoadedEmoji } from '../emoji/emoji-service.ts';
import { CreateEmojiBody, EmojiListQuery, UpdateEmojiBody } from '../emoji/emoji-routes.ts';
import { imageUpload } from '../emoji/images/routes.ts';
import { checkImage, type ImageStore } from '../emoji/images/store.ts';
import type { AliasRow, CategoryRow, EmojiRow } from '../emoji/resource.ts';
import type { EmojiServices } from '../emoji/services.ts';
import { emojiHtml } from '../forum/render.ts';
import { FieldErrorBag, type FieldErrors } from '../http/errors.ts';
import { uploadedFile } from '../http/multipart.ts';
import { pageRequest } from '../http/pagination.ts';
import { IdParams, OneOf, QueryFlag, isOn } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { tHtml } from '../web/translated.ts';
import { csrfInput } from '../web/page.ts';
import { isConfirmed, htmxConfirm, returnField, returnTo, sendConfirmPage } from './confirm.ts';
import { AliasParams, addAlias, aliasesSection, removeAlias } from './emoji-aliases.ts';
import { KIND_LABELS, emojiBody, emojiFields, emojiPreview, kindOf, rowValues, submittedValues, type EmojiFormContext } from './emoji-form.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, selectField, textInput, type FormState } from '../web/form-controls.ts';
import { submitted, text, validationErrors, withoutBlanks, type SubmittedForm } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t, tn } from '../i18n/messages.ts';
import { isHtmx, liveNotice, sendFragment } from './htmx.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText, sortHeader, timestamp } from './lists.ts';

const BASE = '/admin/emojis/';

/** The API's list parameters, plus the admin's sorting and "no category". */
const ListQuery = Type.Object({
  ...EmojiListQuery.properties,
  uncategorised: Type.Optional(QueryFlag),
  sort: Type.Optional(OneOf(EMOJI_SORTS, 'display_order (default), title or shortcode')),
  order: Type.Optional(OneOf(['asc', 'desc'] as const)),
});
type ListQueryValue = Static<typeof ListQuery>;

export const emojiPages: FastifyPluginAsyncTypebox<{ emoji: EmojiServices; images: ImageStore }> = async (app, { emoji, images }) => {
  const admin = requirePage(ADMINS);

  const formContext = async () => ({
    categories: (await emoji.categories.list({ withCount: false, withEmojis: false })).map((listed) => listed.row),
    sheets: (await images.list('sprites')).map((file) => file.name),
  });

  app.get(BASE, { preValidation: admin }, async (request, reply) => {
    const raw = withoutBlanks(request.query);
    // The category select offers "No category" as a value of its own.
    if (raw['category_id'] === 'none') {
      delete raw['category_id'];
      raw['uncategorised'] = '1';
    }
    const categories = (await emoji.categories.list({ withCount: true, withEmojis: false })).map((listed) => listed.row);
    const query = checkForm(ListQuery, raw);
    if (!query.ok) return listPage(request, reply, { raw, categories, errors: query.errors });
    const page = pageRequest(query.value);
    try {
      const { rows, total } = await emoji.emojis.list(
        {
          categoryId: isOn(query.value.uncategorised) ? null : query.value.category_id,
          search: query.value.search,
          sort: query.value.sort,
          descending: query.value.order === 'desc',
        },
        { offset: page.offset, limit: page.perPage },
        { category: true, aliases: true },
      );
      return listPage(request, reply, { raw, query: query.value, categories, rows, total });
    } catch (error) {
      return listPage(request, reply, { raw, categories, errors: validationErrors(error) });
    }
  });

  app.get(`${BASE}new/`, { preValidation: admin }, async (request, reply) => {
    // Links from the images page prefill the kind and the file (`kind`, `image_url`, `sprite_params.sheet`).
    const prefill = withoutBlanks(request.query);
    const values = {
      display_order: 0,
      ...Object.fromEntries(
        Object.entries(prefill).filter(
          ([key, value]) => typeof value === 'string' && ['kind', 'image_url', 'sprite_params.sheet', 'emoji_category_id'].includes(key),
        ),
      ),
    };
    return editPage(request, reply, { form: formState('emoji', values), context: await formContext() });
  });

  app.post(`${BASE}preview/`, { preValidation: admin }, async (request, reply) => sendFragment(reply, emojiPreview(submittedValues(submitted(request.body)))));

  app.post(BASE, { onRequest: admin, config: imageUpload('custom') }, async (request, reply) => {
    const prepared = await prepare(request, images);
    const context = await formContext();
    if (prepared.preview) return editPage(request, reply, { form: formState('emoji', prepared.values, prepared.errors), context, preview: true });
    const checked = checkForm(CreateEmojiBody, prepared.body);
    const errors = { ...prepared.errors, ...(checked.ok ? {} : checked.errors) };
    if (checked.ok && Object.keys(errors).length === 0) {
      try {
        const row = await emoji.emojis.create({ ...checked.value, ...(prepared.noCategory ? { emoji_category_id: null } : {}) });
        return redirectWithNotice(request, reply, `${BASE}${row.id}/`, t('admin.emojis.created', { code: row.emoji_shortcode }));
      } catch (error) {
        Object.assign(errors, validationErrors(error));
      }
    }
    return editPage(request, reply, { form: formState('emoji', prepared.values, errors), context, status: 422 });
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const loaded = await emoji.emojis.get(request.params.id);
    return editPage(request, reply, { loaded, form: formState('emoji', rowValues(loaded.row)), context: await formContext() });
  });

  app.post(`${BASE}:id/`, { onRequest: admin, schema: { params: IdParams }, config: imageUpload('custom') }, async (request, reply) => {
    const loaded = await emoji.emojis.get(request.params.id);
    const prepared = await prepare(request, images);
    const context = await formContext();
    if (prepared.preview) return editPage(request, reply, { loaded, form: formState('emoji', prepared.values, prepared.errors), context, preview: true });
    const checked = checkForm(UpdateEmojiBody, prepared.body);
    const errors = { ...prepared.errors, ...(checked.ok ? {} : checked.errors) };
    if (checked.ok && Object.keys(errors).length === 0) {
      try {
        const row = await emoji.emojis.update(loaded.row.id, { ...checked.value, ...(prepared.noCategory ? { emoji_category_id: null } : {}) });
        return redirectWithNotice(request, reply, BASE, t('admin.emojis.saved', { code: row.emoji_shortcode }));
      } catch (error) {
        Object.assign(errors, validationErrors(error));
      }
    }
    return editPage(request, reply, { loaded, form: formState('emoji', prepared.values, errors), context, status: 422 });
  });

  // Aliases, inline on the edit page: htmx swaps the section; without JavaScript the page comes back.
  const aliasAnswer = async (request: FastifyRequest, reply: FastifyReply, emojiId: number, form: FormState, message: string | null) => {
    const loaded = await emoji.emojis.get(emojiId);
    const status = Object.keys(form.errors).length > 0 ? 422 : 200;
    if (isHtmx(request))
      return sendFragment(
        reply,
        html`${aliasesSection(request, reply, loaded.row, loaded.aliases, form)}${message === null ? '' : liveNotice(message)}`,
        status,
      );
    if (status === 200 && message !== null) return redirectWithNotice(request, reply, `${BASE}${emojiId}/#aliases`, message);
    return editPage(request, reply, { loaded, form: formState('emoji', rowValues(loaded.row)), aliasForm: form, context: await formContext(), status });
  };

  app.post(`${BASE}:id/aliases/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await emoji.emojis.find(request.params.id);
    const outcome = await addAlias(emoji, row, text(submitted(request.body), 'alias') ?? '');
    if (!outcome.ok) return aliasAnswer(request, reply, row.id, outcome.form, null);
    return aliasAnswer(request, reply, row.id, formState('alias', {}), t('admin.aliases.added', { alias: outcome.alias.alias, code: row.emoji_shortcode }));
  });

  app.post(`${BASE}:id/aliases/:aliasId/delete/`, { preValidation: admin, schema: { params: AliasParams } }, async (request, reply) => {
    const row = await emoji.emojis.find(request.params.id);
    const alias = await removeAlias(emoji, row, request.params.aliasId);
    return aliasAnswer(request, reply, row.id, formState('alias', {}), t('admin.aliases.removed', { alias: alias.alias, code: row.emoji_shortcode }));
  });

  app.get(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const loaded = await emoji.emojis.get(request.params.id);
    return confirmDelete(request, reply, loaded.row, loaded.aliases, BASE);
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const back = returnTo(form, BASE);
    const loaded = await emoji.emojis.get(request.params.id);
    if (!isConfirmed(form)) return confirmDelete(request, reply, loaded.row, loaded.aliases, back);
    await emoji.emojis.delete(loaded.row.id);
    if (isHtmx(request)) return sendFragment(reply, html``);
    return redirectWithNotice(
      request,
      reply,
      back,
      loaded.aliases.length === 0
        ? t('admin.emojis.deleted', { code: loaded.row.emoji_shortcode })
        : tn('admin.emojis.deleted_with_aliases', loaded.aliases.length, { code: loaded.row.emoji_shortcode }),
    );
  });
};

interface Prepared {
  /** The form as submitted (with the stored upload's URL), to show again. */
  values: Record<string, unknown>;
  /** The API body of the chosen kind, still text for the API's schema to check. */
  body: Record<string, unknown>;
  /** The form's own problems: a refused image file, no kind, the chosen kind's field empty. */
  errors: FieldErrors;
  noCategory: boolean;
  /** The admin asked for a preview (the no-JavaScript path): nothing is saved. */
  preview: boolean;
}

/**
 * Shared by create and update. An uploaded image is checked and stored first
 * (content-addressed, so trying again reuses it) and becomes the image URL.
 */
async function prepare(request: FastifyRequest, images: ImageStore): Promise<Prepared> {
  const form: SubmittedForm = submitted(request.body);
  const bag = new FieldErrorBag();
  let imageUrl: string | undefined;
  const file = text(form, 'kind') === 'image' ? bag.collect(() => uploadedFile(request, 'image_file')) : undefined;
  const errors: FieldErrors = bag.errors;
  if (file !== undefined) {
    const checked = checkImage(file, 'custom');
    if (checked.ok) imageUrl = (await images.save('custom', file, checked.image)).url;
    else errors['image_file'] = [checked.message];
  }
  const values = submittedValues(form, imageUrl);
  const { body, noCategory, errors: formErrors } = emojiBody(values);
  for (const [field, messages] of Object.entries(formErrors)) {
    // A refused file already says what is wrong with the image.
    if (!(field === 'image_url' && errors['image_file'] !== undefined)) errors[field] = messages;
  }
  const preview = text(form, 'intent') === 'preview';
  return { values, body, noCategory, errors: preview ? pick(errors, 'image_file') : errors, preview };
}

function pick(errors: FieldErrors, field: string): FieldErrors {
  return errors[field] === undefined ? {} : { [field]: errors[field] };
}

// Pages

interface ListState {
  raw: Record<string, unknown>;
  query?: ListQueryValue;
  categories: readonly CategoryRow[];
  rows?: readonly LoadedEmoji[];
  total?: number;
  errors?: FieldErrors;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const filters = formState(
    'filters',
    { ...state.raw, category_id: state.raw['uncategorised'] !== undefined ? 'none' : state.raw['category_id'] },
    state.errors ?? {},
  );
  const sort = { field: state.query?.sort ?? 'display_order', direction: state.query?.order ?? 'asc' } as const;
  const page = pageRequest(state.query ?? {});
  const info = { page: page.page, perPage: page.perPage, total: state.total ?? 0 };
  const rows = state.rows ?? [];
  const back = request.url;
  return sendAdminPage(request, reply, {
    title: t('admin.emojis.title'),
    section: 'emojis',
    status: state.errors === undefined ? 200 : 422,
    body: html`<h1>${t('admin.emojis.title')}</h1>
<p class="actions"><a class="button" href="${BASE}new/">${t('admin.emojis.new')}</a> <a class="button secondary" href="/admin/emoji-categories/">${t('admin.emojis.categories')}</a> <a class="button secondary" href="/admin/emoji-images/">${t('admin.emojis.images')}</a></p>
<form method="get" action="${BASE}" class="toolbar" role="search" aria-label="${t('admin.emojis.find')}">
  ${textInput(filters, { name: 'search', label: t('admin.emojis.search'), type: 'search', maxlength: 255 })}
  ${selectField(filters, { name: 'category_id', label: t('admin.emojis.category'), blank: t('admin.any'), options: [{ value: 'none', label: t('admin.emojis.no_category') }, ...state.categories.map((category) => ({ value: String(category.id), label: category.title }))] })}
  ${state.query?.sort === undefined ? '' : html`<input type="hidden" name="sort" value="${state.query.sort}">`}
  ${state.query?.order === undefined ? '' : html`<input type="hidden" name="order" value="${state.query.order}">`}
  <div class="actions"><button type="submit">${t('admin.emojis.find_button')}</button><a href="${BASE}">${t('admin.clear')}</a></div>
</form>
${errorSummary(filters, t('admin.search_invalid'))}
${
  state.errors !== undefined
    ? ''
    : html`<p class="muted">${rangeText(info, rows.length, { none: 'admin.emojis.none', range: 'admin.emojis.range' })}</p>
${
  rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${t('admin.emojis.title')}</caption>
  <thead><tr>
    <th scope="col">${t('admin.emojis.emoji')}</th>
    ${sortHeader(request, t('admin.emojis.shortcode'), 'shortcode', sort)}
    ${sortHeader(request, t('admin.emojis.emoji_title'), 'title', sort)}
    <th scope="col">${t('admin.emojis.kind')}</th>
    <th scope="col">${t('admin.emojis.category')}</th>
    ${sortHeader(request, t('admin.position'), 'display_order', sort)}
    <th scope="col" class="num">${t('admin.aliases.title')}</th>
    <th scope="col">${t('admin.actions')}</th>
  </tr></thead>
  <tbody>${rows.map((loaded) => emojiRow(request, reply, loaded, back))}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.emojis.pages'))}`
}`,
  });
}

function emojiRow(request: FastifyRequest, reply: FastifyReply, loaded: LoadedEmoji, back: string): SafeHtml {
  const { row } = loaded;
  const kind = kindOf(row);
  const name = t('admin.emojis.named', { code: row.emoji_shortcode });
  return html`<tr id="emoji-${row.id}">
  <td class="emoji-cell">${emojiHtml(row, row.emoji_shortcode)}</td>
  <td><code>${row.emoji_shortcode}</code></td>
  <td>${row.title}</td>
  <td>${kind === null ? html`<span class="muted">${t('admin.none')}</span>` : t(KIND_LABELS[kind])}</td>
  <td>${loaded.category?.title ?? html`<span class="muted">${t('admin.none')}</span>`}</td>
  <td class="num">${row.display_order}</td>
  <td class="num">${loaded.aliases?.length ?? 0}</td>
  <td class="actions">
    <a href="${BASE}${row.id}/">${t('admin.edit')}<span class="visually-hidden"> ${name}</span></a>
    <form method="post" action="${BASE}${row.id}/delete/" class="inline" hx-post="${BASE}${row.id}/delete/" hx-target="closest tr" hx-swap="outerHTML"${htmxConfirm((loaded.aliases?.length ?? 0) > 0 ? t('admin.emojis.delete_with_aliases', { name }) : t('admin.delete_question', { name }))}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}

interface EditState {
  loaded?: { row: EmojiRow; category: CategoryRow | null; aliases: readonly AliasRow[] };
  form: FormState;
  /** The alias form of the edit page, when it was just refused. */
  aliasForm?: FormState;
  context: EmojiFormContext;
  status?: number;
  preview?: boolean;
}

function editPage(request: FastifyRequest, reply: FastifyReply, state: EditState): FastifyReply {
  const { loaded, form } = state;
  const title = loaded === undefined ? t('admin.emojis.new') : t('admin.emojis.edit_title', { code: loaded.row.emoji_shortcode });
  const action = loaded === undefined ? BASE : `${BASE}${loaded.row.id}/`;
  return sendAdminPage(request, reply, {
    title,
    section: 'emojis',
    status: state.status ?? 200,
    body: html`<p><a href="${BASE}">← ${t('admin.emojis.title')}</a></p>
<h1>${title}</h1>
${errorSummary(form)}
<div class="emoji-editor">
<form method="post" action="${action}" enctype="multipart/form-data" class="stacked emoji-form" novalidate>
  ${csrfInput(request, reply)}
  ${emojiFields(form, state.context)}
  <div class="actions">
    <button type="submit" name="intent" value="save">${t(loaded === undefined ? 'admin.emojis.create' : 'admin.emojis.save')}</button>
    <button type="submit" name="intent" value="preview" class="secondary">${t('admin.emojis.preview')}</button>
    <a href="${BASE}">${t('admin.cancel')}</a>
    ${loaded === undefined ? '' : html`<a href="${BASE}${loaded.row.id}/delete/" class="error">${t('admin.emojis.delete_this')}</a>`}
  </div>
</form>
<section class="preview-panel" aria-labelledby="emoji-preview-title">
  <h2 id="emoji-preview-title">${t('admin.emojis.preview')}</h2>
  <div class="preview" id="emoji-preview" aria-live="polite" hx-post="${BASE}preview/" hx-trigger="input changed delay:250ms from:.emoji-form, change from:.emoji-form" hx-include=".emoji-form" hx-params="not image_file" hx-swap="innerHTML">${emojiPreview(form.values)}</div>
  ${state.preview ? html`<p class="muted">${t('admin.emojis.not_saved')}</p>` : ''}
</section>
</div>
${loaded === undefined ? '' : aliasesSection(request, reply, loaded.row, loaded.aliases, state.aliasForm ?? formState('alias', {}))}
${loaded === undefined ? '' : html`<p class="muted">${tHtml('admin.emojis.dates', { created: timestamp(loaded.row.created_at), changed: timestamp(loaded.row.updated_at) })}</p>`}`,
  });
}

function confirmDelete(request: FastifyRequest, reply: FastifyReply, row: EmojiRow, aliases: readonly AliasRow[], back: string): FastifyReply {
  return sendConfirmPage(request, reply, {
    section: 'emojis',
    title: t('admin.emojis.delete_title', { code: row.emoji_shortcode }),
    question:
      aliases.length === 0
        ? t('admin.emojis.delete_question', { code: row.emoji_shortcode, title: row.title })
        : t('admin.emojis.delete_question_aliases', { code: row.emoji_shortcode, title: row.title, aliases: aliases.map((alias) => alias.alias).join(', ') }),
    details: html`<p>${emojiHtml(row, row.emoji_shortcode)}</p><p class="muted">${t('admin.emojis.delete_details')}</p>`,
    action: `${BASE}${row.id}/delete/`,
    confirmLabel: t('admin.emojis.delete'),
    cancelHref: back,
    returnTo: back,
  });
}
