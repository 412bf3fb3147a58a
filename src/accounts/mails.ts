// The mails about an account: what they say, in one place. Links are
// absolute (the mailer's origin); keys appear only here and in the outbox.
// The activation and password mails are in the reader's language (the one
// the request that sends them is answered in: docs/i18n.md); the others are
// still English only.
import type { MailMessage } from '../mail/mailer.ts';
import { t } from '../i18n/messages.ts';

export interface AccountMailTarget {
  username: string;
  email: string;
}

export function activationMail(user: AccountMailTarget, link: string, days: number): MailMessage {
  return {
    to: user.email,
    subject: t('mail.activation.subject'),
    text: t('mail.activation.text', { name: user.username, link, days }),
  };
}

/** Someone registered with an address that already has an account. */
export function alreadyRegisteredMail(user: AccountMailTarget, loginLink: string, recoveryLink: string): MailMessage {
  return {
    to: user.email,
    subject: 'Someone tried to register with your address',
    text: `Hello ${user.username},\n\nsomeone tried to create a new forum account with this e-mail address, which already belongs to your account "${user.username}". No new account was created.\n\nIf that was you: log in at ${loginLink}\nForgot your password? Choose a new one at ${recoveryLink}\n\nIf it was not you, you can ignore this mail.\n`,
  };
}

/** Someone registered (or asked for a password) with the address of an account that is not activated yet. */
export function stillInactiveMail(user: AccountMailTarget, link: string, days: number): MailMessage {
  return {
    to: user.email,
    subject: t('mail.activation.subject'),
    text: t('mail.inactive.text', { name: user.username, link, days }),
  };
}

export function passwordResetMail(user: AccountMailTarget, link: string, minutes: number): MailMessage {
  return {
    to: user.email,
    subject: t('mail.reset.subject'),
    text: t('mail.reset.text', { name: user.username, link, minutes }),
  };
}

export function passwordChangedMail(user: AccountMailTarget, recoveryLink: string): MailMessage {
  return {
    to: user.email,
    subject: 'Your forum password was changed',
    text: `Hello ${user.username},\n\nthe password of your forum account "${user.username}" was just changed, and every login with the old one has ended.\n\nIf you did not do this, choose a new password at once: ${recoveryLink}\n`,
  };
}

export function confirmEmailMail(username: string, newEmail: string, link: string, hours: number): MailMessage {
  return {
    to: newEmail,
    subject: 'Confirm your new forum e-mail address',
    text: `Hello ${username},\n\nyou asked to use this address for your forum account "${username}". Open this link to confirm it:\n\n${link}\n\nThe link works once and for ${hours} hours. Until then your account keeps its old address. If you did not ask for this, ignore this mail.\n`,
  };
}

/** Someone asked to move their account to an address that already has one. */
export function addressInUseMail(owner: AccountMailTarget): MailMessage {
  return {
    to: owner.email,
    subject: 'Someone tried to use your e-mail address',
    text: `Hello ${owner.username},\n\nanother forum member tried to change their account's e-mail address to this one, which already belongs to your account "${owner.username}". Nothing was changed.\n`,
  };
}

export function emailChangedMail(user: AccountMailTarget, newEmail: string): MailMessage {
  return {
    to: user.email,
    subject: 'Your forum e-mail address was changed',
    text: `Hello ${user.username},\n\nthe e-mail address of your forum account "${user.username}" is now ${newEmail}. Mail about your account goes there from now on.\n\nIf you did not do this, contact the forum's administrators.\n`,
  };
}
