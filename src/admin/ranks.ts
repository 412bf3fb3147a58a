// /admin/ranks/ (docs/members.md, "Ranks"): the ranks in a table, each
// changed in place or deleted; a form to make one; and the members holding a
// special rank, with a form to give one and a button to take it back. Plain
// forms, no script needed; the rules are the service's (users/ranks.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMINS, requirePage } from '../auth/guard.ts';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { t } from '../i18n/messages.ts';
import { profilePath } from '../urls/paths.ts';
import { RANK_IMAGE_URL_MAX, RANK_TITLE_MAX, type Rank, type Ranks, type RankInput } from '../users/ranks.ts';
import { errorSummary, formState, selectField, textInput, type FormState } from '../web/form-controls.ts';
import { submitted, text, validationErrors, type SubmittedForm } from '../web/form.ts';
import { html } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/ranks/';

interface Forms {
  create?: FormState;
  give?: FormState;
  /** A refused change of one rank, by its id. */
  rows?: Record<number, FormState>;
}

export const rankPages: FastifyPluginAsyncTypebox<{ ranks: Ranks }> = async (app, { ranks }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => page(request, reply, {}));

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const input = rankInput(form);
    if ('errors' in input) return page(request, reply, { create: formState('new-rank', form, input.errors) }, 422);
    try {
      const rank = await ranks.create(input);
      return redirectWithNotice(request, reply, BASE, t('admin.ranks.created', { title: rank.title }));
    } catch (error) {
      return page(request, reply, { create: formState('new-rank', form, validationErrors(error)) }, 422);
    }
  });

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params as { id: number };
    const form = submitted(request.body);
    const input = rankInput(form);
    if ('errors' in input) return page(request, reply, { rows: { [id]: formState(`rank-${id}`, form, input.errors) } }, 422);
    try {
      const rank = await ranks.update(id, input);
      return redirectWithNotice(request, reply, BASE, t('admin.ranks.saved', { title: rank.title }));
    } catch (error) {
      return page(request, reply, { rows: { [id]: formState(`rank-${id}`, form, validationErrors(error)) } }, 422);
    }
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params as { id: number };
    const rank = await ranks.get(id);
    await ranks.delete(id);
    return redirectWithNotice(request, reply, BASE, t('admin.ranks.deleted', { title: rank.title }));
  });

  app.post(`${BASE}give/`, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const name = text(form, 'username') ?? '';
    const rankId = Number(text(form, 'rank_id') ?? '');
    const member = name.trim() === '' ? undefined : await ranks.memberNamed(name.trim());
    const errors: FieldErrors = {};
    if (member === undefined) errors['username'] = [t('admin.ranks.no_member')];
    if (!Number.isSafeInteger(rankId) || rankId < 1) errors['rank_id'] = [t('admin.ranks.choose')];
    if (member === undefined || errors['rank_id'] !== undefined) return page(request, reply, { give: formState('give-rank', form, errors) }, 422);
    try {
      await ranks.give(member.id, rankId);
    } catch (error) {
      return page(request, reply, { give: formState('give-rank', form, validationErrors(error)) }, 422);
    }
    return redirectWithNotice(request, reply, BASE, t('admin.ranks.given', { name: member.username }));
  });

  app.post(`${BASE}take/:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params as { id: number };
    await ranks.give(id, null);
    return redirectWithNotice(request, reply, BASE, t('admin.ranks.taken'));
  });

  async function page(request: FastifyRequest, reply: FastifyReply, forms: Forms, status = 200): Promise<FastifyReply> {
    const [all, holders] = await Promise.all([ranks.all(), ranks.holders()]);
    const special = all.filter((rank) => rank.minPosts === null);
    const titleOf = new Map(all.map((rank) => [rank.id, rank.title]));
    const create = forms.create ?? formState('new-rank', {});
    const give = forms.give ?? formState('give-rank', {});
    return sendAdminPage(request, reply, {
      title: t('admin.ranks.title'),
      section: 'ranks',
      status,
      body: html`<h1>${t('admin.ranks.title')}</h1>
<p class="muted">${t('admin.ranks.help')}</p>
${
  all.length === 0
    ? html`<p>${t('admin.ranks.none')}</p>`
    : html`<div class="cards">${all.map((rank) => rankForm(request, reply, rank, forms.rows?.[rank.id]))}</div>`
}
<h2>${t('admin.ranks.new')}</h2>
${errorSummary(create)}
<form method="post" action="${BASE}" class="stacked">
${csrfInput(request, reply)}
${rankFields(create)}
<div><button type="submit">${t('admin.ranks.create')}</button></div>
</form>
<h2>${t('admin.ranks.special_holders')}</h2>
${
  holders.length === 0
    ? html`<p class="muted">${t('admin.ranks.no_holders')}</p>`
    : html`<ul>${holders.map(
        (holder) =>
          html`<li><a href="${profilePath({ id: holder.id, name: holder.username })}">${holder.username}</a>: ${titleOf.get(holder.rank_id) ?? ''} <form method="post" action="${BASE}take/${holder.id}/" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('admin.ranks.take')}</button></form></li>`,
      )}</ul>`
}
${
  special.length === 0
    ? html`<p class="muted">${t('admin.ranks.no_special')}</p>`
    : html`${errorSummary(give)}<form method="post" action="${BASE}give/" class="stacked">
${csrfInput(request, reply)}
${textInput(give, { name: 'username', label: t('admin.ranks.member'), required: true, maxlength: 255 })}
${selectField(give, { name: 'rank_id', label: t('admin.ranks.special_rank'), required: true, options: special.map((rank) => ({ value: String(rank.id), label: rank.title })) })}
<div><button type="submit">${t('admin.ranks.give')}</button></div>
</form>`
}`,
    });
  }
};

function rankFields(form: FormState) {
  return html`${textInput(form, { name: 'title', label: t('admin.ranks.rank_title'), required: true, maxlength: RANK_TITLE_MAX })}
${textInput(form, { name: 'min_posts', label: t('admin.ranks.min_posts'), hint: t('admin.ranks.min_posts_hint'), type: 'number', min: 0, inputmode: 'numeric' })}
${textInput(form, { name: 'image_url', label: t('admin.ranks.image_url'), hint: t('admin.ranks.image_hint'), maxlength: RANK_IMAGE_URL_MAX })}`;
}

function rankForm(request: FastifyRequest, reply: FastifyReply, rank: Rank, failed: FormState | undefined) {
  const form =
    failed ??
    formState(`rank-${rank.id}`, { title: rank.title, min_posts: rank.minPosts === null ? '' : String(rank.minPosts), image_url: rank.imageUrl ?? '' });
  return html`<section class="card" aria-label="${rank.title}">
${errorSummary(form)}
<form method="post" action="${BASE}${rank.id}/" class="stacked">
${csrfInput(request, reply)}
${rankFields(form)}
<div><button type="submit">${t('admin.save')}</button></div>
</form>
<form method="post" action="${BASE}${rank.id}/delete/" class="inline">${csrfInput(request, reply)}<button type="submit" class="danger">${t('admin.ranks.delete')}</button></form>
</section>`;
}

/** The form's rank, or its field errors (the threshold must be a whole number of posts). */
function rankInput(form: SubmittedForm): RankInput | { errors: FieldErrors } {
  const threshold = (text(form, 'min_posts') ?? '').trim();
  const minPosts = threshold === '' ? null : Number(threshold);
  if (minPosts !== null && (!/^\d{1,9}$/.test(threshold) || !Number.isSafeInteger(minPosts)))
    return { errors: { min_posts: [t('admin.ranks.min_posts_invalid')] } };
  const title = text(form, 'title') ?? '';
  if (title.length > RANK_TITLE_MAX) return { errors: { title: [t('admin.ranks.title_long', { max: RANK_TITLE_MAX })] } };
  const image = text(form, 'image_url') ?? '';
  if (image.length > RANK_IMAGE_URL_MAX) return { errors: { image_url: [t('ranks.error.image_url')] } };
  return { title, min_posts: minPosts, image_url: image };
}
