// `/messages/new/` (login required): write a message to a member. `?to=`
// fills the recipient (the profile's "Send a private message" link). The form
// posts to `/messages/new/send/`; a sent message opens on its own page.
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { messagePath, newMessagePath } from '../../urls/paths.ts';
import { USERNAME_MAX } from '../../users/fields.ts';
import { fixedForm, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { attempt, failedNotice, failedStatus, outdatedForm, sessionEndedPage, submittedText } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { pageFormState, textInput } from '../../web/form-controls.ts';
import { EDITOR_SCRIPTS } from '../../web/emoji-picker.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { MessageBodies } from '../routes.ts';
import { DRAFT_FIELDS, folderTabs, messageFields, type MessagePageDeps } from './parts.ts';

interface Failed {
  values: Record<string, string>;
  errors: FieldErrors;
  refusal?: FormRefusal;
}

export function composePage({ messages }: MessagePageDeps): FixedPage {
  function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, failed?: Failed): FastifyReply {
    const to = failed?.values['to'] ?? (visit.query.get('to') ?? '').slice(0, USERNAME_MAX);
    return sendPage(request, reply, {
      title: t('messages.write'),
      canonical: newMessagePath(),
      status: failed === undefined ? 200 : failedStatus(reply, failed.refusal),
      head: EDITOR_SCRIPTS,
      body: html`<h1>${t('messages.write')}</h1>
${folderTabs('new')}
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['to', 'subject', 'body'])}
<form method="post" action="${newMessagePath()}send/" class="stacked">
${csrfInput(request, reply)}
${textInput(pageFormState({ to }, failed?.errors), { name: 'to', label: t('messages.to_name'), required: true, maxlength: USERNAME_MAX })}
${messageFields(failed?.values, failed?.errors, t('messages.message'))}
<div><button type="submit">${t('messages.send')}</button></div>
</form>`,
    });
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      if (request.method === 'POST') throw outdatedForm();
      return show(request, reply, visit);
    },
    forms: [
      fixedForm({
        name: 'send',
        body: MessageBodies.send,
        async submit(request, reply, visit, body) {
          const sent = await attempt(() => messages.send(assertUser(request), body.to, { subject: body.subject, body: body.body }));
          if (!sent.ok) return show(request, reply, visit, { values: submittedText(request.body), errors: sent.errors, refusal: sent.refusal });
          return reply.redirect(messagePath(sent.value.id, { sent: 1 }), 303);
        },
        invalid: async (request, reply, visit, errors) => show(request, reply, visit, { values: submittedText(request.body), errors }),
        async refused(request, reply, visit, refusal) {
          const values = submittedText(request.body);
          if (request.user === null) return sessionEndedPage(request, reply, newMessagePath(), { fields: DRAFT_FIELDS, values });
          return show(request, reply, visit, { values, errors: {}, refusal });
        },
      }),
    ],
  };
}
