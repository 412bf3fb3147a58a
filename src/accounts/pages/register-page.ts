// `/register/`: a new account, pending until its activation link is opened.
// The answer is the same whether the address is new or already has an
// account (its owner gets a mail instead); a taken user name is reported.
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

export function registerPage({ accounts }: AccountPageDeps): FixedPage {
  function form(request: FastifyRequest, reply: FastifyReply, values: Record<string, string> = {}, errors?: FieldErrors, refusal?: FormRefusal): FastifyReply {
    return sendPage(request, reply, {
      title: 'Create an account',
      canonical: registerPath(),
      status: errors === undefined ? 200 : failedStatus(reply, refusal),
      body: html`<h1>Create an account</h1>
${errors === undefined ? '' : failedNotice(refusal, errors, FIELDS)}
<form method="post" action="${registerPath()}" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState(values, errors), { name: 'username', label: 'User name', required: true, autocomplete: 'username', maxlength: USERNAME_MAX, hint: `${USERNAME_MIN} to ${USERNAME_MAX} characters: letters, digits, spaces, _ - and . Everyone sees it.` })}
${textInput(pageFormState(values, errors), { type: 'email', name: 'email', label: 'E-mail address', required: true, autocomplete: 'email', hint: 'We send the activation link there. Nobody else sees it.' })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password', label: 'Password', required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters.` })}
${textInput(pageFormState({}, errors), { type: 'password', name: 'password_confirmation', label: 'Repeat the password', required: true, autocomplete: 'new-password' })}
<div><button type="submit">Create account</button></div>
</form>
<p>Already registered? <a href="${loginPath()}">Log in</a>.</p>`,
    });
  }

  return {
    // Passwords are not echoed: the name and address come back, the passwords are typed again.
    refused: async (request, reply, _visit, refusal) =>
      request.user !== null ? reply.redirect('/', 303) : form(request, reply, submittedText(request.body), {}, refusal),
    async serve(request, reply) {
      if (request.user !== null) return reply.redirect('/', 303);
      if (request.method !== 'POST') return form(request, reply);
      const values = submittedText(request.body);
      const check = checkForm(RegisterForm, request.body);
      const errors = withConfirmation(check.ok ? undefined : check.errors, values);
      if (!check.ok || errors !== undefined) return form(request, reply, values, errors ?? {});
      const registered = await attempt(() => accounts.register(check.value));
      if (!registered.ok) return form(request, reply, values, registered.errors);
      return sendPage(request, reply, {
        title: 'Check your mail',
        canonical: registerPath(),
        body: html`<h1>Check your mail</h1>
<p class="notice ok" role="status">We sent a mail to ${check.value.email}. Open the link in it to activate your account; it works for ${ACTIVATION_KEY_DAYS} days.</p>
<p>No mail after a few minutes? Look in your spam folder, or ask for a new link through <a href="${passwordRecoveryPath()}">password recovery</a>.</p>`,
      });
    },
  };
}
