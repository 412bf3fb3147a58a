// `/password-recovery/`: asks for an address and mails a reset link to the
// account that uses it; the answer is the same whether there is one or not.
// `/password-recovery/{key}/`: the mailed link, where a new password is set
// once; every existing login of the account ends with it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { loginPath, passwordRecoveryPath } from '../../urls/paths.ts';
import type { FixedPage, PageVisit } from '../../urls/semantic-routes.ts';
import type { UserRow } from '../../users/repository.ts';
import { PASSWORD_MIN } from '../../users/fields.ts';
import { CHECK_FIELDS, attempt, failedNotice, failedStatus, formNotice, submittedText } from '../../web/form.ts';
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
      title: 'Forgot your password?',
      canonical: passwordRecoveryPath(),
      status: errors === undefined ? 200 : failedStatus(reply, refusal),
      body: html`<h1>Forgot your password?</h1>
<p>Enter the e-mail address of your account. We mail you a link to choose a new password.</p>
${errors === undefined ? '' : failedNotice(refusal, errors, ['email'])}
<form method="post" action="${passwordRecoveryPath()}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(values, errors), { type: 'email', name: 'email', label: 'E-mail address', required: true, autocomplete: 'email' })}
<div><button type="submit">Send me a link</button></div>
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
        title: 'Check your mail',
        canonical: passwordRecoveryPath(),
        body: html`<h1>Check your mail</h1>
<p class="notice ok" role="status">If an account uses ${check.value.email}, we sent a link to that address. It works once and for ${RESET_KEY_MINUTES} minutes.</p>
<p>No mail after a few minutes? Look in your spam folder, or check the address and <a href="${passwordRecoveryPath()}">try again</a>.</p>`,
      });
    },
  };
}

const PROBLEMS: KeyProblemTexts = {
  title: 'Password link not valid',
  messages: {
    unknown: 'This password link is not valid. Check that you copied the whole link from the mail.',
    expired: 'This password link has expired. Ask for a new one.',
    used: 'This password link was already used. Ask for a new one if you need to change the password again.',
  },
  next: html`<p><a href="${passwordRecoveryPath()}">Ask for a new link</a> · <a href="${loginPath()}">Log in</a></p>`,
};

export function passwordResetPage({ accounts }: AccountPageDeps): FixedPage {
  function form(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, user: UserRow, errors?: FieldErrors): FastifyReply {
    return sendPage(request, reply, {
      title: 'Choose a new password',
      status: errors === undefined ? 200 : 422,
      head: NOINDEX,
      body: html`<h1>Choose a new password</h1>
<p>For the account <strong>${user.username}</strong>. Every place where it is logged in now will be logged out.</p>
${errors === undefined ? '' : formNotice(CHECK_FIELDS, errors, ['password', 'password_confirmation'])}
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password', label: 'New password', required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters.` })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password_confirmation', label: 'Repeat the new password', required: true, autocomplete: 'new-password' })}
<div><button type="submit">Save the new password</button></div>
</form>`,
    });
  }

  return {
    async serve(request, reply, visit) {
      const key = visit.params['key'] ?? '';
      return withKey(request, reply, PROBLEMS, async () => {
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
        return sendPage(request, reply, {
          title: 'Password changed',
          head: NOINDEX,
          body: html`<h1>Password changed</h1>
<p class="notice ok" role="status">The password of ${user.username} is changed, and every login with the old one has ended.</p>
<p><a class="button" href="${loginPath()}">Log in</a></p>`,
        });
      });
    },
  };
}
