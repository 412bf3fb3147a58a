// /admin/settings/: the site's own settings (site/settings.ts): its name,
// a line describing it, a logo, the language guests read it in and whether
// anyone may register. Saved, they apply on the next request everywhere.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMINS, requirePage } from '../auth/guard.ts';
import type { FieldErrors } from '../http/errors.ts';
import { checkForm } from '../http/validation.ts';
import { t } from '../i18n/messages.ts';
import { defaultRobotsTxt } from '../site/robots.ts';
import { origin } from '../http/pagination.ts';
import { DESCRIPTION_MAX, LOGO_URL_MAX, NAME_MAX, ROBOTS_TXT_MAX, SiteSettingsBody, type SiteSettings, type SiteSettingsValue } from '../site/settings.ts';
import { checkbox, errorSummary, formState, selectField, textArea, textInput, type FormState } from '../web/form-controls.ts';
import { flag, submitted, text, validationErrors } from '../web/form.ts';
import { html } from '../web/html.ts';
import { csrfInput } from '../web/page.ts';
import { redirectWithNotice } from './flash.ts';
import { sendAdminPage } from './layout.ts';

const PATH = '/admin/settings/';

export const siteSettingsPages: FastifyPluginAsyncTypebox<{ site: SiteSettings }> = async (app, { site }) => {
  const admin = requirePage(ADMINS);

  app.get(PATH, { preValidation: admin }, async (request, reply) => settingsPage(request, reply, formState('site-settings', formValues(await site.current()))));

  app.post(PATH, { preValidation: admin }, async (request, reply) => {
    const form = submitted(request.body);
    const values = {
      name: text(form, 'name') ?? '',
      description: text(form, 'description') ?? '',
      logo_url: text(form, 'logo_url') ?? '',
      default_locale: text(form, 'default_locale') ?? '',
      registration_open: flag(form, 'registration_open'),
      robots_txt: text(form, 'robots_txt') ?? '',
    };
    const checked = checkForm(SiteSettingsBody, values);
    let errors: FieldErrors;
    if (checked.ok) {
      try {
        await site.update(checked.value);
        return redirectWithNotice(request, reply, PATH, t('admin.site.saved'));
      } catch (error) {
        errors = validationErrors(error);
      }
    } else {
      errors = checked.errors;
    }
    return settingsPage(request, reply, formState('site-settings', values, errors), 422);
  });
};

function formValues(settings: SiteSettingsValue): Record<string, unknown> {
  return {
    name: settings.name,
    description: settings.description,
    logo_url: settings.logoUrl ?? '',
    default_locale: settings.defaultLocale,
    registration_open: settings.registrationOpen,
    robots_txt: settings.robotsTxt ?? '',
  };
}

function settingsPage(request: FastifyRequest, reply: FastifyReply, form: FormState, status = 200): FastifyReply {
  return sendAdminPage(request, reply, {
    title: t('admin.site.title'),
    section: 'settings',
    status,
    body: html`<h1>${t('admin.site.title')}</h1>
${errorSummary(form)}
<form method="post" action="${PATH}" class="stacked" novalidate>
  ${csrfInput(request, reply)}
  ${textInput(form, { name: 'name', label: t('admin.site.name'), required: true, maxlength: NAME_MAX, hint: t('admin.site.name_hint') })}
  ${textInput(form, { name: 'description', label: t('admin.site.description'), maxlength: DESCRIPTION_MAX, hint: t('admin.site.description_hint') })}
  ${textInput(form, { name: 'logo_url', label: t('admin.site.logo_url'), maxlength: LOGO_URL_MAX, hint: t('admin.site.logo_hint') })}
  ${selectField(form, {
    name: 'default_locale',
    label: t('admin.site.default_locale'),
    hint: t('admin.site.default_locale_hint'),
    options: [
      { value: 'en', label: 'English' },
      { value: 'ru', label: 'Русский' },
    ],
  })}
  ${checkbox(form, { name: 'registration_open', label: t('admin.site.registration_open'), hint: t('admin.site.registration_hint') })}
  ${textArea(form, { name: 'robots_txt', label: t('admin.site.robots_txt'), hint: t('admin.site.robots_hint'), rows: 8, maxlength: ROBOTS_TXT_MAX })}
  <details><summary>${t('admin.site.robots_default')}</summary><pre>${defaultRobotsTxt(origin(request, request.server.site.baseUrl))}</pre></details>
  <div><button type="submit">${t('admin.save')}</button></div>
</form>`,
  });
}
