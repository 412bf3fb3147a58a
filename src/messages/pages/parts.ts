// What the message pages share: the folder tabs, the dependencies, the
// subject and text fields of the compose and reply forms.
import { t } from '../../i18n/messages.ts';
import type { FieldErrors } from '../../http/errors.ts';
import type { ForumPresenter } from '../../forum/presenter.ts';
import { inboxPath, newMessagePath, sentMessagesPath } from '../../urls/paths.ts';
import type { PageRoutes } from '../../urls/semantic-routes.ts';
import { pageFormState, textArea, textInput } from '../../web/form-controls.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { emojiPickerField } from '../../web/emoji-picker.ts';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX, type PrivateMessages } from '../service.ts';

export interface MessagePageDeps {
  pages: PageRoutes;
  messages: PrivateMessages;
  presenter: ForumPresenter;
}

/** What a draft shows again when the login ended meanwhile (sessionEndedPage). */
export const DRAFT_FIELDS = [
  { name: 'to', label: 'To' },
  { name: 'subject', label: 'Subject' },
  { name: 'body', label: 'Message' },
];

/** Inbox · Sent · Write a message, the current one marked. */
export function folderTabs(current: 'inbox' | 'sent' | 'new' | null): SafeHtml {
  const tab = (name: typeof current, href: string, label: string) =>
    html`<li><a href="${href}"${name === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="${t('messages.tabs')}"><ul class="tabs">${tab('inbox', inboxPath(), t('messages.inbox'))}${tab('sent', sentMessagesPath(), t('messages.sent_tab'))}${tab('new', newMessagePath(), t('messages.write'))}</ul></nav>`;
}

/** The subject and text fields, with what was typed and its errors. */
export function messageFields(values: Readonly<Record<string, string>> | undefined, errors: FieldErrors | undefined, bodyLabel: string): SafeHtml {
  const form = pageFormState(values, errors);
  return html`${textInput(form, { name: 'subject', label: t('messages.subject'), required: true, maxlength: MESSAGE_SUBJECT_MAX })}
${textArea(form, { name: 'body', label: bodyLabel, required: true, maxlength: MESSAGE_BODY_MAX, rows: 10, attributes: emojiPickerField() })}`;
}

/** `Re: subject`, once: a reply to a reply keeps one prefix. */
export function replySubject(subject: string): string {
  const bare = subject.replace(/^(\s*re:\s*)+/i, '');
  return `Re: ${bare}`.slice(0, MESSAGE_SUBJECT_MAX);
}
