// /admin/pages/ (docs/static-pages.md): the static pages (rules, FAQ, about) in a
// table, a form to write a new one and one to change each, in English,
// Russian or both; deleting asks first. Plain forms, no script needed; the
// rules are the service's (site/pages.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ADMINS, requirePage } from '../auth/guard.ts';
import type { FieldErrors } from '../http/errors.ts';
import { IdParams } from '../http/schemas.ts';
import { checkForm } from '../http/validation.ts';
import { LOCALES, LOCALE_NAMES, type Locale } from '../i18n/locale.ts';
import { t } from '../i18n/messages.ts';
import { PAGE_BODY_MAX, PAGE_POSITION_MAX, PAGE_TITLE_MAX, type SitePage, type SitePageInput, type SitePages } from '../site/pages.ts';
import { PAGE_SLUG_MAX, sitePagePath } from '../urls/paths.ts';
import { checkbox, errorSummary, formState, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { flag, submitted, text, validationErrors } from '../web/form.ts';
import { html } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { isConfirmed, sendConfirmPage } from './confirm.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';

const BASE = '/admin/pages/';

/** The form as it is posted: every field text, a language's pair blank when the page is not written in it. */
const PageForm = Type.Object({
  slug: Type.String({ maxLength: PAGE_SLUG_MAX }),
  position: Type.Integer({ minimum: -PAGE_POSITION_MAX, maximum: PAGE_POSITION_MAX }),
  in_footer: Type.Boolean(),
  title_en: Type.String({ maxLength: PAGE_TITLE_MAX }),
  body_en: Type.String({ maxLength: PAGE_BODY_MAX }),
  title_ru: Type.String({ maxLength: PAGE_TITLE_MAX }),
  body_ru: Type.String({ maxLength: PAGE_BODY_MAX }),
});

export const sitePageAdmin: FastifyPluginAsyncTypebox<{ pages: SitePages }> = async (app, { pages }) => {
  const admin = requirePage(ADMINS);

  app.get(BASE, { preValidation: admin }, async (request, reply) => listPage(request, reply, await pages.all()));

  app.get(`${BASE}new/`, { preValidation: admin }, async (request, reply) =>
    editPage(request, reply, null, formState('page', { position: '0', in_footer: true })),
  );

  app.post(BASE, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const input = pageInput(form);
    if ('errors' in input) return editPage(request, reply, null, formState('page', form, input.errors), 422);
    try {
      const page = await pages.create(input);
      return redirectWithNotice(request, reply, BASE, t('admin.pages.created', { slug: page.slug }));
    } catch (error) {
      return editPage(request, reply, null, formState('page', form, formErrors(validationErrors(error))), 422);
    }
  });

  app.get(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const page = await pages.get((request.params as { id: number }).id);
    return editPage(request, reply, page, formState('page', formValues(page)));
  });

  app.post(`${BASE}:id/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const page = await pages.get((request.params as { id: number }).id);
    const form = submitted(request.body);
    const input = pageInput(form);
    if ('errors' in input) return editPage(request, reply, page, formState('page', form, input.errors), 422);
    try {
      const saved = await pages.update(page.id, input);
      return redirectWithNotice(request, reply, BASE, t('admin.pages.saved', { slug: saved.slug }));
    } catch (error) {
      return editPage(request, reply, page, formState('page', form, formErrors(validationErrors(error))), 422);
    }
  });

  app.post(`${BASE}:id/delete/`, { preValidation: admin, schema: { params: IdParams } }, async (request, reply) => {
    const page = await pages.get((request.params as { id: number }).id);
    if (!isConfirmed(submitted(request.body))) {
      return sendConfirmPage(request, reply, {
        section: 'pages',
        title: t('admin.pages.delete_title', { slug: page.slug }),
        question: t('admin.pages.delete_question', { slug: page.slug }),
        action: `${BASE}${page.id}/delete/`,
        confirmLabel: t('admin.pages.delete'),
        cancelHref: BASE,
      });
    }
    await pages.delete(page.id);
    return redirectWithNotice(request, reply, BASE, t('admin.pages.deleted', { slug: page.slug }));
  });
};

function listPage(request: FastifyRequest, reply: FastifyReply, all: readonly SitePage[]): FastifyReply {
  return sendAdminPage(request, reply, {
    title: t('admin.pages.title'),
    section: 'pages',
    body: html`<h1>${t('admin.pages.title')}</h1>
<p class="muted">${t('admin.pages.help')}</p>
<p><a class="button" href="${BASE}new/">${t('admin.pages.new')}</a></p>
${
  all.length === 0
    ? html`<p>${t('admin.pages.none')}</p>`
    : html`<div class="table-wrap"><table class="cards">
<caption class="visually-hidden">${t('admin.pages.title')}</caption>
<thead><tr><th scope="col">${t('admin.pages.address')}</th>${LOCALES.map((locale) => html`<th scope="col">${LOCALE_NAMES[locale]}</th>`)}<th scope="col">${t('admin.pages.footer')}</th><th scope="col" class="num">${t('admin.position')}</th><th scope="col">${t('admin.actions')}</th></tr></thead>
<tbody>${all.map(
        (page) => html`<tr>
<th scope="row"><a href="${sitePagePath(page.slug)}">${sitePagePath(page.slug)}</a></th>
${LOCALES.map((locale) => html`<td data-label="${LOCALE_NAMES[locale]}" lang="${locale}">${page.texts[locale]?.title ?? '—'}</td>`)}
<td data-label="${t('admin.pages.footer')}">${page.inFooter ? t('admin.pages.in_footer_yes') : t('admin.pages.in_footer_no')}</td>
<td class="num" data-label="${t('admin.position')}">${page.position}</td>
<td class="actions"><a href="${BASE}${page.id}/">${t('admin.edit')}<span class="visually-hidden"> ${page.slug}</span></a>
<form method="post" action="${BASE}${page.id}/delete/" class="inline">${csrfInput(request, reply)}<button type="submit" class="small danger">${t('admin.delete')}<span class="visually-hidden"> ${page.slug}</span></button></form></td>
</tr>`,
      )}</tbody>
</table></div>`
}`,
  });
}

function editPage(request: FastifyRequest, reply: FastifyReply, page: SitePage | null, form: FormState, status = 200): FastifyReply {
  const title = page === null ? t('admin.pages.new') : t('admin.pages.edit_title', { slug: page.slug });
  return sendAdminPage(request, reply, {
    title,
    section: 'pages',
    status,
    body: html`<h1>${title}</h1>
${errorSummary(form)}
<form method="post" action="${page === null ? BASE : `${BASE}${page.id}/`}" class="stacked" novalidate>
${csrfInput(request, reply)}
${textInput(form, { name: 'slug', label: t('admin.pages.slug'), hint: t('admin.pages.slug_hint'), required: true, maxlength: PAGE_SLUG_MAX })}
${textInput(form, { name: 'position', label: t('admin.position'), hint: t('admin.lower_first'), type: 'number', inputmode: 'numeric' })}
${checkbox(form, { name: 'in_footer', label: t('admin.pages.in_footer') })}
<p class="muted">${t('admin.pages.languages_hint')}</p>
${LOCALES.map(
  (locale) => html`<fieldset lang="${locale}"><legend>${LOCALE_NAMES[locale]}</legend>
${textInput(form, { name: `title_${locale}`, label: t('admin.pages.page_title'), maxlength: PAGE_TITLE_MAX })}
${textArea(form, { name: `body_${locale}`, label: t('admin.pages.body'), hint: t('admin.pages.body_hint'), rows: 14, maxlength: PAGE_BODY_MAX })}
</fieldset>`,
)}
<div><button type="submit">${t('admin.save')}</button> <a class="button secondary" href="${BASE}">${t('admin.cancel')}</a></div>
</form>`,
  });
}

function formValues(page: SitePage): Record<string, unknown> {
  const values: Record<string, unknown> = { slug: page.slug, position: String(page.position), in_footer: page.inFooter };
  for (const locale of LOCALES) {
    values[`title_${locale}`] = page.texts[locale]?.title ?? '';
    values[`body_${locale}`] = page.texts[locale]?.body ?? '';
  }
  return values;
}

/** The posted form as the service's input, or its field errors. A language counts once its title or body is filled in. */
function pageInput(form: ReturnType<typeof submitted>): SitePageInput | { errors: FieldErrors } {
  const values = {
    slug: text(form, 'slug') ?? '',
    position: (text(form, 'position') ?? '').trim() === '' ? '0' : (text(form, 'position') ?? ''),
    in_footer: flag(form, 'in_footer'),
    title_en: text(form, 'title_en') ?? '',
    body_en: text(form, 'body_en') ?? '',
    title_ru: text(form, 'title_ru') ?? '',
    body_ru: text(form, 'body_ru') ?? '',
  };
  const checked = checkForm(PageForm, values);
  if (!checked.ok) return { errors: checked.errors };
  const texts: SitePageInput['texts'] = {};
  for (const locale of LOCALES) {
    const title = checked.value[`title_${locale}`];
    const body = checked.value[`body_${locale}`];
    texts[locale] = title.trim() === '' && body.trim() === '' ? null : { title, body };
  }
  return { slug: checked.value.slug, position: checked.value.position, in_footer: checked.value.in_footer, texts };
}

/** The service names a language's fields `texts.{locale}.title`; the form calls them `title_{locale}`. */
function formErrors(errors: FieldErrors): FieldErrors {
  const named: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const match = /^texts\.(en|ru)\.(title|body)$/.exec(field);
    const name = match === null ? (field === 'texts' ? `title_${LOCALES[0] satisfies Locale}` : field) : `${match[2]}_${match[1]}`;
    (named[name] ??= []).push(...messages);
  }
  return named;
}
