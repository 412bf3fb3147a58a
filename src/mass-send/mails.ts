// One member's copy of a mass mail: the administrator's subject and text
// (BBCode made plain text), then, in the member's language, why they get it
// and how to stop: the unsubscribe link, which works without logging in, and
// the settings page. The same link is in the List-Unsubscribe header with
// List-Unsubscribe-Post (RFC 8058), so mail programs offer their own
// "Unsubscribe" button, which posts to it. Written in the recipient's
// language (the caller runs it as them: i18n asReader).
import { t } from '../i18n/messages.ts';
import type { MailMessage } from '../mail/mailer.ts';

export interface MassMailParts {
  to: string;
  subject: string;
  /** The text as plain text (forum/bbcode bbcodeMailText). */
  text: string;
  siteName: string;
  /** Absolute URLs. */
  unsubscribeLink: string;
  settingsLink: string;
}

export function massMail(parts: MassMailParts): MailMessage {
  return {
    to: parts.to,
    subject: parts.subject,
    text: t('mail.mass.text', { text: parts.text, site: parts.siteName, unsubscribe: parts.unsubscribeLink, settings: parts.settingsLink }),
    headers: { 'List-Unsubscribe': `<${parts.unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
