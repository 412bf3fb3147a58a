// `/messages/` (Inbox) and `/messages/sent/` (Sent), login required: the
// member's private messages, newest first, unread ones marked. The Inbox has
// two forms: "Mark all read" (`/messages/read/`) and the e-mail setting
// (`/messages/settings/`).
import { t, type TextKey } from '../../i18n/messages.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertUser } from '../../auth/guard.ts';
import { AuthorLinks } from '../../forum/pages/parts.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT, pageRequest } from '../../http/pagination.ts';
import { inboxPath, messagePath, sentMessagesPath } from '../../urls/paths.ts';
import { fixedForm, pageNotFound, type FixedPage, type PageVisit } from '../../urls/semantic-routes.ts';
import { failedNotice, okNotice, outdatedForm, NoFields } from '../../web/form.ts';
import { checkbox, pageFormState } from '../../web/form-controls.ts';
import { timeHtml } from '../../web/format.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { lastPage, pageNav, requestedPage } from '../../web/page-nav.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { Folder, MessageRow } from '../repository.ts';
import { folderTabs, type MessagePageDeps } from './parts.ts';

export const MESSAGES_PER_PAGE = PER_PAGE_DEFAULT;

const SettingsForm = Type.Object({ email_notifications: Type.Optional(Type.Literal('1')) });

const SAVED: Readonly<Record<string, TextKey>> = { settings: 'messages.saved_settings', read: 'messages.saved_read' };

const FOLDERS = {
  inbox: { title: 'messages.inbox', path: inboxPath, other: 'messages.from', empty: 'messages.inbox_empty' },
  sent: { title: 'messages.sent_title', path: sentMessagesPath, other: 'messages.to', empty: 'messages.sent_empty' },
} as const;

export function mailboxPage({ messages, presenter }: MessagePageDeps, folder: Folder): FixedPage {
  const shape = FOLDERS[folder];

  async function show(request: FastifyRequest, reply: FastifyReply, visit: PageVisit, errors?: FieldErrors): Promise<FastifyReply> {
    const user = assertUser(request);
    const page = requestedPage(visit.query);
    if (page === null) throw pageNotFound();
    const [{ rows, total }, preferences] = await Promise.all([
      messages.folder(user, folder, pageRequest({ page, per_page: MESSAGES_PER_PAGE })),
      messages.preferences(user),
    ]);
    const last = lastPage(total, MESSAGES_PER_PAGE);
    if (page > last) throw pageNotFound();
    const subjects = await Promise.all(rows.map((row) => presenter.messageSubject(row.subject)));
    const href = (n: number) => shape.path(n === 1 ? {} : { page: n });
    const saved = visit.query.get('saved');
    return sendPage(request, reply, {
      title: t(shape.title),
      canonical: href(page),
      status: errors === undefined ? 200 : 422,
      body: html`<h1>${t(shape.title)}</h1>
${folderTabs(folder)}
${SAVED[saved ?? ''] === undefined ? '' : okNotice(t(SAVED[saved ?? '']!))}
${visit.query.get('deleted') === '1' ? okNotice(t('messages.deleted')) : ''}
${errors === undefined ? '' : failedNotice(undefined, errors, [])}
${rows.length === 0 ? html`<p>${t(shape.empty)}</p>` : messageTable(rows, subjects, folder)}
${pageNav(page, last, href)}
${folder === 'inbox' ? inboxForms(request, reply, preferences) : ''}`,
    });
  }

  function inboxForms(request: FastifyRequest, reply: FastifyReply, preferences: { unread_messages: number; message_mails: boolean }): SafeHtml {
    return html`${
      preferences.unread_messages === 0
        ? ''
        : html`<form method="post" action="${inboxPath()}read/" class="inline">${csrfInput(request, reply)}<button type="submit" class="secondary">${t('messages.mark_read')}</button></form>`
    }
<form method="post" action="${inboxPath()}settings/" class="stacked settings">
${csrfInput(request, reply)}
${checkbox(pageFormState({ email_notifications: preferences.message_mails ? '1' : '' }), { name: 'email_notifications', label: t('messages.mail_me') })}
<div><button type="submit" class="secondary">${t('messages.save_setting')}</button></div>
</form>`;
  }

  return {
    loginRequired: true,
    async serve(request, reply, visit) {
      // The page's forms have their own addresses; a POST here is from a page loaded before that.
      if (request.method === 'POST') throw outdatedForm();
      return show(request, reply, visit);
    },
    forms:
      folder === 'sent'
        ? []
        : [
            fixedForm({
              name: 'read',
              body: NoFields,
              async submit(request, reply) {
                await messages.markAllRead(assertUser(request));
                return reply.redirect(inboxPath({ saved: 'read' }), 303);
              },
              invalid: (request, reply, visit, errors) => show(request, reply, visit, errors),
            }),
            fixedForm({
              name: 'settings',
              body: SettingsForm,
              async submit(request, reply, _visit, body) {
                await messages.setMessageMails(assertUser(request), body.email_notifications === '1');
                return reply.redirect(inboxPath({ saved: 'settings' }), 303);
              },
              invalid: (request, reply, visit, errors) => show(request, reply, visit, errors),
            }),
          ],
  };
}

function messageTable(rows: readonly MessageRow[], subjects: readonly string[], folder: Folder): SafeHtml {
  const authors = new AuthorLinks();
  const shape = FOLDERS[folder];
  return html`<div class="table-wrap"><table class="messages cards">
<caption>${t(shape.title)}</caption>
<thead><tr><th scope="col">${t('messages.subject')}</th><th scope="col">${t(shape.other)}</th><th scope="col">${t('messages.sent_at')}</th>${folder === 'sent' ? html`<th scope="col">${t('messages.read')}</th>` : ''}</tr></thead>
<tbody>
${rows.map((row, index) => {
  const unread = folder === 'inbox' && row.read_at === null;
  const other = folder === 'inbox' ? authors.link(row.sender_id, row.sender_name) : authors.link(row.recipient_id, row.recipient_name);
  return html`<tr${unread ? html` class="unread"` : ''}>
<td><a href="${messagePath(row.id)}">${subjects[index]}</a>${unread ? html` <span class="badge">${t('messages.new_badge')}</span>` : ''}</td>
<td data-label="${t(shape.other)}">${other}</td>
<td data-label="${t('messages.sent_at')}">${timeHtml(row.created_at)}</td>
${folder === 'sent' ? html`<td data-label="${t('messages.read')}">${row.read_at === null ? t('messages.not_yet') : timeHtml(row.read_at)}</td>` : ''}
</tr>`;
})}
</tbody>
</table></div>`;
}
