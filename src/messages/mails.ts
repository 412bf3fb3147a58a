// The mail a member gets about a new private message, when they asked for it
// (the Inbox page's setting). It names the sender and the subject as shown,
// never the text: the message stays on the site, behind the login. Written
// in the recipient's language (the caller runs it as them: i18n asReader).
import { t } from '../i18n/messages.ts';
import type { MailMessage } from '../mail/mailer.ts';

export interface NewMessageNotice {
  sender: string;
  /** The subject as the Inbox shows it (replacement rules applied). */
  subject: string;
  /** Absolute URLs. */
  messageLink: string;
  inboxLink: string;
}

export function newMessageMail(to: string, notice: NewMessageNotice): MailMessage {
  return {
    to,
    subject: t('mail.message.subject', { sender: notice.sender, subject: notice.subject }),
    text: t('mail.message.text', { sender: notice.sender, subject: notice.subject, link: notice.messageLink, inbox: notice.inboxLink }),
  };
}
