// `/messages/{id}/` (login required): one of the member's messages, marked
// read when its recipient opens it, with the reply form (posted to
// `/messages/{id}/reply/`) and "Delete" (`/messages/{id}/delete/`: from the
// member's own folder only). Another member's message is the 404 page, as one
// that does not exist.
import { t } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertUser } from '../../auth/guard.ts';
import type { AuthUser } from '../../auth/service.ts';
import { AuthorLinks } from '../../forum/pages/parts.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { inboxPath, messagePath, parseId, sentMessagesPath } from '../../urls/paths.ts';
import { fixedForm, pageNotFound, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { attempt, failedNotice, failedStatus, okNotice, outdatedForm, sessionEndedPage, submittedText, NoFields } from '../../web/form.ts';
import type { FormRefusal } from '../../http/errors.ts';
import { timeHtml } from '../../web/format.ts';
import { EDITOR_SCRIPTS } from '../../web/emoji-picker.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { MessageRow } from '../repository.ts';
import { MessageBodies } from '../routes.ts';
import { DRAFT_FIELDS, folderTabs, messageFields, replySubject, type MessagePageDeps } from './parts.ts';

export const MESSAGE_PAGE = '/messages/:messageId/';

interface Failed {
  values: Record<string, string>;
  errors: FieldErrors;
  refusal?: FormRefusal;
}

export function messagePage({ messages, presenter }: MessagePageDeps): FixedPage {
  function messageId(visit: PageVisit): number {
    const id = parseId(visit.params['messageId'] ?? '');
    if (id === null) throw pageNotFound();
    return id;
  }

  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, message: MessageRow, failed?: Failed): Promise<FastifyReply> {
    const user = assertUser(request);
    const [subject, body] = await Promise.all([presenter.messageSubject(message.subject), presenter.messageBody(message.body)]);
    const received = message.recipient_id === user.id;
    const path = messagePath(message.id);
    const authors = new AuthorLinks();
    return sendPage(request, reply, {
      title: subject,
      canonical: path,
      status: failed === undefined ? 200 : failedStatus(reply, failed.refusal),
      head: html`<meta name="robots" content="noindex">${EDITOR_SCRIPTS}`,
      body: html`${folderTabs(received ? 'inbox' : 'sent')}
${visit.query.get('sent') === '1' && failed === undefined ? okNotice(t('messages.was_sent')) : ''}
<article class="message">
<h1>${subject}</h1>
<dl class="facts">
<dt>${t('messages.from')}</dt><dd>${authors.link(message.sender_id, message.sender_name)}</dd>
<dt>${t('messages.to')}</dt><dd>${authors.link(message.recipient_id, message.recipient_name)}</dd>
<dt>${t('messages.sent_at')}</dt><dd>${timeHtml(message.created_at)}</dd>
${message.reply_to_id === null ? '' : html`<dt>${t('messages.in_reply_to')}</dt><dd><a href="${messagePath(message.reply_to_id)}">${t('messages.earlier')}</a></dd>`}
</dl>
<div class="body">${body}</div>
</article>
<div class="actions">${deleteButton(request, reply, path)}</div>
${replyForm(request, reply, user, message, subject, failed)}`,
    });
  }

  function replyForm(request: FastifyRequest, reply: FastifyReply, user: AuthUser, message: MessageRow, subject: string, failed: Failed | undefined): SafeHtml {
    const otherName = message.sender_id === user.id ? message.recipient_name : message.sender_name;
    if (otherName === null) return html`<p class="muted">${t('messages.no_one')}</p>`;
    const values = failed?.values ?? { subject: replySubject(subject) };
    return html`<section aria-labelledby="reply-heading">
<h2 id="reply-heading">Reply to ${otherName}</h2>
${failed === undefined ? '' : failedNotice(failed.refusal, failed.errors, ['subject', 'body'])}
<form method="post" action="${messagePath(message.id)}reply/" class="stacked">
${csrfInput(request, reply)}
${messageFields(values, failed?.errors, t('messages.your_reply'))}
<div><button type="submit">${t('messages.send_reply')}</button></div>
</form>
</section>`;
  }

  async function showAgain(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, failed: Failed): Promise<FastifyReply> {
    const message = await messages.get(assertUser(request), messageId(visit));
    return show(request, reply, visit, message, failed);
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      if (request.method === 'POST') throw outdatedForm();
      const opened = await messages.open(assertUser(request), messageId(visit));
      // The header was read with the session, before this opening.
      if (opened.firstRead) request.unreadMessages = Math.max(0, request.unreadMessages - 1);
      return show(request, reply, visit, opened.message);
    },
    forms: [
      fixedForm({
        name: 'reply',
        body: MessageBodies.reply,
        async submit(request, reply, visit, body) {
          const sent = await attempt(() => messages.reply(assertUser(request), messageId(visit), body));
          if (!sent.ok) return showAgain(request, reply, visit, { values: submittedText(request.body), errors: sent.errors, refusal: sent.refusal });
          return reply.redirect(messagePath(sent.value.id, { sent: 1 }), 303);
        },
        invalid: (request, reply, visit, errors) => showAgain(request, reply, visit, { values: submittedText(request.body), errors }),
        async refused(request, reply, visit, refusal) {
          const values = submittedText(request.body);
          if (request.user === null) return sessionEndedPage(request, reply, visit.canonicalPath, { fields: DRAFT_FIELDS.slice(1), values });
          return showAgain(request, reply, visit, { values, errors: {}, refusal });
        },
      }),
      fixedForm({
        name: 'delete',
        body: NoFields,
        async submit(request, reply, visit) {
          const user = assertUser(request);
          const message = await messages.delete(user, messageId(visit));
          return reply.redirect((message.recipient_id === user.id ? inboxPath : sentMessagesPath)({ deleted: 1 }), 303);
        },
        invalid: async (request, reply, visit, errors) => {
          const message = await messages.get(assertUser(request), messageId(visit));
          return show(request, reply, visit, message, { values: {}, errors });
        },
      }),
    ],
  };
}

function deleteButton(request: FastifyRequest, reply: FastifyReply, path: string): SafeHtml {
  return html`<form method="post" action="${path}delete/" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('messages.delete')}</button></form>`;
}
