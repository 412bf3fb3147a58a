// `/password-recovery/`: asks for an address and mails a reset link to the
// account that uses it; the answer is the same whether there is one or not.
// `/password-recovery/{key}/`: the mailed link, where a new password is set
// once; every existing login of the account ends with it.
import { tHtml, tLink } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { loginPath, passwordRecoveryPath } from '../../urls/paths.ts';
import type { FixedPage, PageVisit } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { PASSWORD_MIN } from '../../users/fields.ts';
import { attempt, checkFields, failedNotice, failedStatus, formNotice, submittedText } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textInput } from '../../web/form-controls.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { NewPasswordForm, RecoveryForm, withConfirmation } from '../forms.ts';
import { RESET_KEY_MINUTES } from '../service.ts';
import type { AccountPageDeps } from './deps.ts';
import { withKey, type KeyProblemTexts } from './key-problem.ts';

const NOINDEX = html`<meta name="robots" content="noindex">`;

export function passwordRecoveryPage({ accounts }: AccountPageDeps): FixedPage {
  function form(request: FastifyRequest, reply: FastifyReply, values: Record<string, string> = {}, errors?: FieldErrors, refusal?: FormRefusal): FastifyReply {
    return sendPage(request, reply, {
      title: t('recovery.title'),
      canonical: passwordRecoveryPath(),
      status: errors === undefined ? 200 : failedStatus(reply, refusal),
      body: html`<h1>${t('recovery.title')}</h1>
<p>${t('recovery.intro')}</p>
${errors === undefined ? '' : failedNotice(refusal, errors, ['email'])}
<form method="post" action="${passwordRecoveryPath()}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(values, errors), { type: 'email', name: 'email', label: t('register.email'), required: true, autocomplete: 'email' })}
<div><button type="submit">${t('recovery.submit')}</button></div>
</form>`,
    });
  }

  return {
    refused: async (request, reply, _visit, refusal) => form(request, reply, submittedText(request.body), {}, refusal),
    async serve(request, reply) {
      if (request.method !== 'POST') return form(request, reply);
      const check = checkForm(RecoveryForm, request.body);
      if (!check.ok) return form(request, reply, submittedText(request.body), check.errors);
      await accounts.requestPasswordReset(check.value.email);
      return sendPage(request, reply, {
        title: t('register.sent_title'),
        canonical: passwordRecoveryPath(),
        body: html`<h1>${t('register.sent_title')}</h1>
<p class="notice ok" role="status">${t('recovery.sent', { email: check.value.email, minutes: RESET_KEY_MINUTES })}</p>
<p>${tLink('recovery.no_mail', passwordRecoveryPath())}</p>`,
      });
    },
  };
}

/** In the reader's language, so made for each request. */
function problems(): KeyProblemTexts {
  return {
    title: t('reset.invalid_title'),
    messages: { unknown: t('reset.unknown'), expired: t('reset.expired'), used: t('reset.used') },
    next: html`<p><a href="${passwordRecoveryPath()}">${t('reset.new_link')}</a> · <a href="${loginPath()}">${t('login.title')}</a></p>`,
  };
}

export function passwordResetPage({ accounts }: AccountPageDeps): FixedPage {
  function form(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, user: UserRow, errors?: FieldErrors): FastifyReply {
    return sendPage(request, reply, {
      title: t('reset.title'),
      status: errors === undefined ? 200 : 422,
      head: NOINDEX,
      body: html`<h1>${t('reset.title')}</h1>
<p>${tHtml('reset.intro', { name: html`<strong>${user.username}</strong>` })}</p>
${errors === undefined ? '' : formNotice(checkFields(), errors, ['password', 'password_confirmation'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password', label: t('reset.password'), required: true, autocomplete: 'new-password', hint: t('register.password_hint', { min: PASSWORD_MIN }) })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password_confirmation', label: t('reset.repeat'), required: true, autocomplete: 'new-password' })}
<div><button type="submit">${t('reset.submit')}</button></div>
</form>`,
    });
  }

  return {
    async serve(request, reply, visit) {
      const key = visit.params['key'] ?? '';
      return withKey(request, reply, problems(), async () => {
        const user = await accounts.checkPasswordReset(key);
        if (request.method !== 'POST') return form(request, reply, visit, user);
        const check = checkForm(NewPasswordForm, request.body);
        const errors = withConfirmation(check.ok ? undefined : check.errors, submittedText(request.body));
        if (!check.ok || errors !== undefined) return form(request, reply, visit, user, errors ?? {});
        const reset = await attempt(() => accounts.resetPassword(key, check.value.password));
        if (!reset.ok) return form(request, reply, visit, user, reset.errors);
        // Every session of the account has just ended, this browser's too.
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        request.user = null;
        request.credentials = null;
        request.memberTransfer = null;
        return sendPage(request, reply, {
          title: t('reset.done_title'),
          head: NOINDEX,
          body: html`<h1>${t('reset.done_title')}</h1>
<p class="notice ok" role="status">${t('reset.done', { name: user.username })}</p>
<p><a class="button" href="${loginPath()}">${t('login.title')}</a></p>`,
        });
      });
    },
  };
}
