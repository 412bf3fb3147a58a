// The mails about an account: what they say, in one place. Links are
// absolute (the mailer's origin); keys appear only here and in the outbox.
// Each is written in its recipient's language (docs/i18n.md): the account's
// setting, else the language of the request that sends it (the registering
// or recovering browser's: i18n memberReader).
import type { MailMessage } from '../mail/mailer.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import { t, tn } from '../i18n/messages.ts';

export interface AccountMailTarget {
  username: string;
  email: string;
  /** The account's language and time zone settings (null: none chosen). */
  locale: string | null;
  time_zone: string | null;
}

/** A mail to `to` (the account's address unless given), its texts made in the account's language. */
function written(user: AccountMailTarget, texts: () => { subject: string; text: string }, to = user.email): MailMessage {
  return { to, ...asReader(memberReader(user), texts) };
}

export function activationMail(user: AccountMailTarget, link: string, days: number): MailMessage {
  return written(user, () => ({
    subject: t('mail.activation.subject'),
    text: t('mail.activation.text', { name: user.username, link, days }),
  }));
}

/** Someone registered with an address that already has an account. */
export function alreadyRegisteredMail(user: AccountMailTarget, loginLink: string, recoveryLink: string): MailMessage {
  return written(user, () => ({
    subject: t('mail.registered.subject'),
    text: t('mail.registered.text', { name: user.username, login: loginLink, recovery: recoveryLink }),
  }));
}

/** Someone registered (or asked for a password) with the address of an account that is not activated yet. */
export function stillInactiveMail(user: AccountMailTarget, link: string, days: number): MailMessage {
  return written(user, () => ({
    subject: t('mail.activation.subject'),
    text: t('mail.inactive.text', { name: user.username, link, days }),
  }));
}

export function passwordResetMail(user: AccountMailTarget, link: string, minutes: number): MailMessage {
  return written(user, () => ({
    subject: t('mail.reset.subject'),
    text: t('mail.reset.text', { name: user.username, link, minutes }),
  }));
}

export function passwordChangedMail(user: AccountMailTarget, recoveryLink: string): MailMessage {
  return written(user, () => ({
    subject: t('mail.password_changed.subject'),
    text: t('mail.password_changed.text', { name: user.username, recovery: recoveryLink }),
  }));
}

/** To the new address, in the language of the account that asked for it. */
export function confirmEmailMail(user: AccountMailTarget, newEmail: string, link: string, hours: number): MailMessage {
  return written(
    user,
    () => ({
      subject: t('mail.confirm_email.subject'),
      text: tn('mail.confirm_email.text', hours, { name: user.username, link }),
    }),
    newEmail,
  );
}

/** Someone asked to move their account to an address that already has one. */
export function addressInUseMail(owner: AccountMailTarget): MailMessage {
  return written(owner, () => ({
    subject: t('mail.address_in_use.subject'),
    text: t('mail.address_in_use.text', { name: owner.username }),
  }));
}

export function emailChangedMail(user: AccountMailTarget, newEmail: string): MailMessage {
  return written(user, () => ({
    subject: t('mail.email_changed.subject'),
    text: t('mail.email_changed.text', { name: user.username, email: newEmail }),
  }));
}
