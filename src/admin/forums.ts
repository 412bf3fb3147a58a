// /admin/forums/: create, rename, describe, reorder, nest (a subforum in a
// top-level forum), put in a category (docs/access.md, "Categories") and
// delete (only when empty) forums, through ForumService with the API's body
// schemas; a forum's edit page also names its moderators (docs/moderation.md,
// "Forum moderators").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CategoryRow } from '../forum/categories.ts';
import type { ForumRow } from '../forum/repository.ts';
import { FORUM_DESCRIPTION_MAX, FORUM_NAME_MAX, ForumBodies } from '../forum/routes.ts';
import { MODERATORS_MAX } from '../forum/moderators.ts';
import type { ForumService } from '../forum/service.ts';
import { ApiError, type FieldErrors } from '../http/errors.ts';
import { PageQueryProperties, pageRequest, type PageRequest } from '../http/pagination.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { forumPath } from '../urls/paths.ts';
import { html, type SafeHtml } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { htmxConfirm, isConfirmed, returnField, returnTo, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { errorSummary, formState, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { optionalText, submitted, text, validationErrors, withoutBlanks, type SubmittedForm } from '../web/form.ts';
import { ADMINS, requirePage } from '../auth/guard.ts';
import { t, tn } from '../i18n/messages.ts';
import { isHtmx, sendNoticeOnly } from './htmx.ts';
import { sendAdminPage } from './layout.ts';
import { pagination, rangeText } from './lists.ts';

const BASE = '/admin/forums/';
const PageQuery = Type.Object(PageQueryProperties);

export const forumPages: FastifyPluginAsyncTypebox<{ forum: ForumService }> = async (app, { forum }) => {
  const admin = requirePage(ADMINS);

  const showList = async (request: FastifyRequest, reply: FastifyReply, create: FormState, status = 200) => {
    const query = checkForm(PageQuery, withoutBlanks(request.query));
    const page = pageRequest(query.ok ? { per_page: 100, ...query.value } : { per_page: 100 });
    const [listed, parents, categories] = await Promise.all([
      forum.forums.list(page, await forum.access.unrestricted()),
      parentsFor(null),
      forum.categories.rows(),
    ]);
    return listPage(request, reply, { page, ...listed, parents, categories, create, status });
  };

  /** The forums a forum may sit in: the top-level ones, itself left out. */
  const parentsFor = async (forumId: number | null): Promise<ForumRow[]> =>
    (await forum.forums.topLevel({ page: 1, perPage: 100, offset: 0 }, await forum.access.unrestricted())).rows.filter((row) => row.id !== forumId);

  const choicesFor = async (forumId: number): Promise<Choices> => {
    const [parents, categories] = await Promise.all([parentsFor(forumId), forum.categories.rows()]);
    return { parents, categories };
  };

  app.get(BASE, { preValidation: admin }, async (request, reply) => showList(request, reply, formState('new-forum', { display_order: 0 })));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const values = forumValues(form);
    const checked = checkForm(ForumBodies.create, values);
    if (!checked.ok) return showList(request, reply, formState('new-forum', asTyped(form, values), checked.errors), 422);
    try {
      const created = await forum.createForum(checked.value);
      return redirectWithNotice(request, reply, BASE, t('admin.forums.created', { name: created.name }));
    } catch (error) {
      return showList(request, reply, formState('new-forum', asTyped(form, values), validationErrors(error)), 422);
    }
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const moderators = await forum.moderators.of(row.id);
    return editPage(
      request,
      reply,
      row,
      await choicesFor(row.id),
      formState('forum', { ...row, moderators: moderators.map((user) => user.username).join(', ') }),
    );
  });

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const row = await forum.getForum(request.params.id);
    const form = submitted(request.body);
    const values = forumValues(form);
    // A form without the field (one loaded before it existed) leaves the moderators as they are.
    const typed = text(form, 'moderators');
    const shown = { ...asTyped(form, values), moderators: typed ?? '' };
    const checked = checkForm(ForumBodies.update, { ...values, description: values['description'] ?? '' });
    const moderators = typed === undefined ? undefined : await moderatorsNamed(forum, typed);
    if (!checked.ok || (moderators !== undefined && !moderators.ok)) {
      const errors = { ...(checked.ok ? {} : checked.errors), ...(moderators === undefined || moderators.ok ? {} : { moderators: moderators.errors }) };
      return editPage(request, reply, row, await choicesFor(row.id), formState('forum', shown, errors), 422);
    }
    try {
      // The forum first: its rules (where it may sit) refuse more often than a list of members already found.
      const updated = await forum.updateForum(row.id, checked.value);
      if (moderators !== undefined) await forum.moderators.replace(row.id, moderators.ids);
      return redirectWithNotice(request, reply, BASE, t('admin.forums.saved', { name: updated.name }));
    } catch (error) {
      return editPage(request, reply, row, await choicesFor(row.id), formState('forum', shown, onModeratorsField(validationErrors(error))), 422);
    }
  });

  // Reordering from the table: with htmx the table is swapped for the re-sorted one the redirect shows.
  app.post(`${BASE}:id/order/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const back = returnTo(form, BASE);
    const row = await forum.getForum(request.params.id);
    const checked = checkForm(ForumBodies.update, { display_order: text(form, 'display_order') ?? '' });
    if (!checked.ok) {
      const message = `${row.name}: ${Object.values(checked.errors).flat().join(' ')}`;
      if (isHtmx(request)) return sendNoticeOnly(reply, message, 'error');
      return redirectWithNotice(request, reply, back, message, 'error');
    }
    const updated = await forum.updateForum(row.id, checked.value);
    return redirectWithNotice(request, reply, back, t('admin.forums.moved', { name: updated.name, position: String(updated.display_order) }));
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const form = submitted(request.body);
    const back = returnTo(form, BASE);
    const row = await forum.getForum(request.params.id);
    if (!isConfirmed(form)) {
      return sendConfirmPage(request, reply, {
        section: 'forums',
        title: t('admin.forums.delete_title', { name: row.name }),
        question: t('admin.forums.delete_question', { name: row.name }),
        action: `${BASE}${row.id}/delete/`,
        confirmLabel: t('admin.forums.delete'),
        cancelHref: back,
        returnTo: back,
      });
    }
    try {
      await forum.deleteForum(row.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'CONFLICT') throw error;
      const message = t('admin.forums.refused', { name: row.name, reason: error.message });
      if (isHtmx(request)) return sendNoticeOnly(reply, message, 'error');
      return redirectWithNotice(request, reply, back, message, 'error');
    }
    return redirectWithNotice(request, reply, back, t('admin.forums.deleted', { name: row.name }));
  });
};

/**
 * The members named in the Moderators field (user names, comma separated,
 * any letter case), or what is wrong with it: names no member has, too many.
 */
async function moderatorsNamed(forum: ForumService, typed: string): Promise<{ ok: true; ids: number[] } | { ok: false; errors: string[] }> {
  const names = typed
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const errors: string[] = [];
  if (names.length > MODERATORS_MAX) errors.push(tn('admin.forums.moderators_max', MODERATORS_MAX, { max: String(MODERATORS_MAX) }));
  const { found, unknown } = await forum.moderators.named(names);
  if (unknown.length > 0) {
    const quoted = unknown.map((name) => t('admin.forums.quoted', { name })).join(', ');
    errors.push(tn('admin.forums.unknown_members', unknown.length, { names: quoted }));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, ids: found.map((user) => user.id) };
}

/** The service's errors about the list of ids (`user_ids`, `user_ids.2`) belong to the Moderators field. */
function onModeratorsField(errors: FieldErrors): FieldErrors {
  const moved: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const key = field === 'user_ids' || field.startsWith('user_ids.') ? 'moderators' : field;
    moved[key] = [...(moved[key] ?? []), ...messages];
  }
  return moved;
}

/** The values to show the form again with: the category as chosen, even where it was not sent on (a subforum). */
function asTyped(form: SubmittedForm, values: Record<string, unknown>): Record<string, unknown> {
  const category = text(form, 'category_id');
  return category === undefined ? values : { ...values, category_id: category };
}

function forumValues(form: SubmittedForm): Record<string, unknown> {
  const order = optionalText(form, 'display_order');
  const parent = optionalText(form, 'parent_id');
  const category = text(form, 'category_id');
  return {
    name: text(form, 'name') ?? '',
    // The blank choice is "top level".
    parent_id: parent ?? null,
    // The blank choice is "no category". A subforum is listed in its parent's category, so the
    // field (whatever it says) is for top-level forums only, as its hint tells; a form without
    // it (one loaded before it existed) leaves the category as it is.
    ...(parent === undefined && category !== undefined ? { category_id: category === '' ? null : category } : {}),
    ...(text(form, 'description') !== undefined ? { description: text(form, 'description') } : {}),
    ...(order !== undefined ? { display_order: order } : {}),
  };
}

interface ListState {
  page: PageRequest;
  rows: ForumRow[];
  total: number;
  /** The forums a new forum may sit in. */
  parents: ForumRow[];
  categories: CategoryRow[];
  create: FormState;
  status: number;
}

function listPage(request: FastifyRequest, reply: FastifyReply, state: ListState): FastifyReply {
  const back = request.url;
  const info = { page: state.page.page, perPage: state.page.perPage, total: state.total };
  return sendAdminPage(request, reply, {
    title: t('admin.forums.title'),
    section: 'forums',
    status: state.status,
    body: html`<h1>${t('admin.forums.title')}</h1>
<div id="forums">
<p class="muted">${rangeText(info, state.rows.length, { none: 'admin.forums.none', range: 'admin.forums.range' })} ${t('admin.forums.order')}</p>
${
  state.rows.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="cards">
  <caption class="visually-hidden">${t('admin.forums.title')}</caption>
  <thead><tr><th scope="col">${t('admin.forums.forum')}</th><th scope="col" class="num">${t('admin.forums.topics')}</th><th scope="col" class="num">${t('admin.forums.posts')}</th><th scope="col">${t('admin.position')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
  <tbody>${state.rows.map((row) => forumRow(request, reply, row, back, state.categories))}</tbody>
</table></div>`
}
${pagination(request, info, t('admin.forums.pages'))}
</div>
<h2 id="new-forum-title">${t('admin.forums.new')}</h2>
${errorSummary(state.create)}
<form method="post" action="${BASE}" class="stacked" aria-labelledby="new-forum-title" novalidate>
  ${csrfInput(request, reply)}
  ${forumFields(state.create, state)}
  <div><button type="submit">${t('admin.forums.create')}</button></div>
</form>`,
  });
}

/** What a forum may be put in: the top-level forums (itself left out) and the categories. */
interface Choices {
  parents: readonly ForumRow[];
  categories: readonly CategoryRow[];
}

function forumFields(form: FormState, { parents, categories }: Choices): SafeHtml {
  return html`${textInput(form, { name: 'name', label: t('admin.forums.name'), required: true, maxlength: FORUM_NAME_MAX })}
  ${selectField(form, {
    name: 'category_id',
    label: t('admin.forums.category'),
    blank: t('admin.forums.no_category'),
    hint: t('admin.forums.category_hint'),
    options: categories.map((category) => ({ value: String(category.id), label: category.title })),
  })}
  ${selectField(form, {
    name: 'parent_id',
    label: t('admin.forums.parent'),
    blank: t('admin.forums.top_level'),
    hint: t('admin.forums.parent_hint'),
    options: parents.map((parent) => ({ value: String(parent.id), label: parent.name })),
  })}
  ${textArea(form, { name: 'description', label: t('admin.forums.description'), maxlength: FORUM_DESCRIPTION_MAX, rows: 3, hint: t('admin.forums.description_hint') })}
  ${textInput(form, { name: 'display_order', label: t('admin.position'), type: 'number', min: 0, hint: t('admin.lower_first') })}`;
}

function forumRow(request: FastifyRequest, reply: FastifyReply, row: ForumRow, back: string, categories: readonly CategoryRow[]): SafeHtml {
  const name = t('admin.forums.named', { name: row.name });
  const order = formState(`forum-${row.id}`, row);
  const category = row.category_id === null ? undefined : categories.find((candidate) => candidate.id === row.category_id);
  return html`<tr id="forum-${row.id}">
  <th scope="row"><a href="${forumPath(row)}">${row.name}</a>${row.parent_id === null ? '' : html` <span class="badge">${t('admin.forums.subforum')}</span>`}${row.description === '' ? '' : html`<br><span class="muted">${row.description}</span>`}${
    category === undefined ? '' : html`<br><span class="muted category">${t('admin.forums.category_line', { name: category.title })}</span>`
  }</th>
  <td class="num" data-label="${t('admin.forums.topics')}">${row.topics_count}</td>
  <td class="num" data-label="${t('admin.forums.posts')}">${row.posts_count}</td>
  <td>
    <form method="post" action="${BASE}${row.id}/order/" class="inline-edit" hx-post="${BASE}${row.id}/order/" hx-target="#forums" hx-select="#forums" hx-swap="outerHTML" hx-select-oob="#admin-live">
      ${csrfInput(request, reply)}${returnField(back)}
      ${textInput(order, { name: 'display_order', label: t('admin.forums.position_of', { name: row.name }), hideLabel: true, type: 'number', min: 0 })}
      <button type="submit" class="small secondary">${t('admin.forums.move')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
  <td class="actions">
    <a href="${BASE}${row.id}/">${t('admin.edit')}<span class="visually-hidden"> ${name}</span></a>
    <form method="post" action="${BASE}${row.id}/delete/" class="inline" hx-post="${BASE}${row.id}/delete/" hx-target="#forums" hx-select="#forums" hx-swap="outerHTML" hx-select-oob="#admin-live"${htmxConfirm(t('admin.delete_question', { name }))}>
      ${csrfInput(request, reply)}${returnField(back)}
      <button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${name}</span></button>
    </form>
  </td>
</tr>`;
}

/** The edit page's Moderators field: names, as admins know members (the API takes their ids). */
function moderatorsField(form: FormState): SafeHtml {
  return textInput(form, {
    name: 'moderators',
    label: t('admin.forums.moderators'),
    hint: t('admin.forums.moderators_hint'),
  });
}

function editPage(request: FastifyRequest, reply: FastifyReply, row: ForumRow, choices: Choices, form: FormState, status = 200): FastifyReply {
  return sendAdminPage(request, reply, {
    title: t('admin.forums.edit_title', { name: row.name }),
    section: 'forums',
    status,
    body: html`<p><a href="${BASE}">← ${t('admin.forums.title')}</a></p>
<h1>${t('admin.forums.edit_title', { name: row.name })}</h1>
<p><a href="${BASE}${row.id}/permissions/">${t('admin.permissions.title', { name: row.name })}</a></p>
<p><a href="${BASE}${row.id}/release-template/">${t('admin.release.link')}</a></p>
${errorSummary(form)}
<form method="post" action="${BASE}${row.id}/" class="stacked" novalidate>
  ${csrfInput(request, reply)}
  ${forumFields(form, choices)}
  ${moderatorsField(form)}
  <div class="actions"><button type="submit">${t('admin.forums.save')}</button><a href="${BASE}">${t('admin.cancel')}</a></div>
</form>`,
  });
}
