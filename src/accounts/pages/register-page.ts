// `/register/`: a new account, pending until its activation link is opened.
// The answer is the same whether the address is new or already has an
// account (its owner gets a mail instead); a taken user name is reported.
import { tLink } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { loginPath, passwordRecoveryPath, registerPath } from '../../urls/paths.ts';
import type { FixedPage } from '../../urls/semantic-routes.ts';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../../users/fields.ts';
import { attempt, failedNotice, failedStatus, submittedText } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textInput } from '../../web/form-controls.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { RegisterForm, withConfirmation } from '../forms.ts';
import { ACTIVATION_KEY_DAYS } from '../service.ts';
import type { AccountPageDeps } from './deps.ts';

const FIELDS = ['username', 'email', 'password', 'password_confirmation'];

export function registerPage({ accounts, site }: AccountPageDeps): FixedPage {
  function form(request: FastifyRequest, reply: FastifyReply, values: Record<string, string> = {}, errors?: FieldErrors, refusal?: FormRefusal): FastifyReply {
    return sendPage(request, reply, {
      title: t('register.title'),
      canonical: registerPath(),
      status: errors === undefined ? 200 : failedStatus(reply, refusal),
      body: html`<h1>${t('register.title')}</h1>
${errors === undefined ? '' : failedNotice(refusal, errors, FIELDS)}
<form method="post" action="${registerPath()}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(values, errors), { name: 'username', label: t('login.username'), required: true, autocomplete: 'username', maxlength: USERNAME_MAX, hint: t('register.username_hint', { min: USERNAME_MIN, max: USERNAME_MAX }) })}
${textInput(pageFormState(values, errors), { type: 'email', name: 'email', label: t('register.email'), required: true, autocomplete: 'email', hint: t('register.email_hint') })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password', label: t('login.password'), required: true, autocomplete: 'new-password', hint: t('register.password_hint', { min: PASSWORD_MIN }) })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password_confirmation', label: t('register.repeat'), required: true, autocomplete: 'new-password' })}
<div><button type="submit">${t('register.submit')}</button></div>
</form>
<p>${tLink('register.already', loginPath())}</p>`,
    });
  }

  /** Registration closed by the site's admin: said on the page; a submitted form creates nothing (403). */
  function closed(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return sendPage(request, reply, {
      title: t('register.title'),
      canonical: registerPath(),
      status: request.method === 'POST' ? 403 : 200,
      body: html`<h1>${t('register.title')}</h1>
<p class="notice error" role="alert">${t('account.registration_closed')}</p>
<p>${tLink('register.already', loginPath())}</p>`,
    });
  }

  return {
    // Passwords are not echoed: the name and address come back, the passwords are typed again.
    refused: async (request, reply, _visit, refusal) =>
      request.user !== null ? reply.redirect('/', 303) : form(request, reply, submittedText(request.body), {}, refusal),
    async serve(request, reply) {
      if (request.user !== null) return reply.redirect('/', 303);
      if (!(await site.current()).registrationOpen) return closed(request, reply);
      if (request.method !== 'POST') return form(request, reply);
      const values = submittedText(request.body);
      const check = checkForm(RegisterForm, request.body);
      const errors = withConfirmation(check.ok ? undefined : check.errors, values);
      if (!check.ok || errors !== undefined) return form(request, reply, values, errors ?? {});
      const registered = await attempt(() => accounts.register(check.value));
      if (!registered.ok) return form(request, reply, values, registered.errors);
      return sendPage(request, reply, {
        title: t('register.sent_title'),
        canonical: registerPath(),
        body: html`<h1>${t('register.sent_title')}</h1>
<p class="notice ok" role="status">${t('register.sent', { email: check.value.email, days: ACTIVATION_KEY_DAYS })}</p>
<p>${tLink('register.no_mail', passwordRecoveryPath())}</p>`,
      });
    },
  };
}
