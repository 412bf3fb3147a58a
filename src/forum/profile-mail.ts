// Members write to each other through the profile page
// (/profile/{slug}.{id}/email/). The mail goes out through the outbox; the
// recipient's address is never shown to the sender, nor the sender's to the
// recipient (they answer through the sender's profile page the same way).
// The text passes the `private_messages` word filters: block → an error on
// the field, moderate → not sent (a mail cannot wait for a moderator),
// replace → the replaced text is what is sent. The mail is written in the
// recipient's language (their setting, else the sender's: i18n memberReader).
import { Type } from 'typebox';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import { FieldErrorBag } from '../http/errors.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import { t } from '../i18n/messages.ts';
import { RequiredText } from '../http/schemas.ts';
import type { MailBudget } from '../mail/budget.ts';
import type { Mailer } from '../mail/mailer.ts';
import { profileEmailPath, profilePath } from '../urls/paths.ts';
import { blockedMessage, type TextScreen } from '../word-filters/text-screen.ts';

export const PROFILE_MAIL_SUBJECT_MAX = 200;
export const PROFILE_MAIL_MESSAGE_MAX = 10_000;

export const ProfileMailForm = Type.Object({
  subject: RequiredText(PROFILE_MAIL_SUBJECT_MAX, 'Subject of the mail'),
  message: RequiredText(PROFILE_MAIL_MESSAGE_MAX, 'Text of the mail'),
});

export interface ProfileMailInput {
  subject: string;
  message: string;
}

export interface Recipient {
  id: number;
  username: string;
  email: string;
  /** Their language and time zone settings, for the mail's language. */
  locale: string | null;
  time_zone: string | null;
}

export type ProfileMailResult = { sent: true } | { sent: false; reason: 'needs-review' | 'too-many' };

/** Messages one member may send per hour. */
export const PROFILE_MAILS_PER_HOUR = 10;

export class ProfileMailService {
  readonly #screen: TextScreen;
  readonly #mailer: Mailer;
  readonly #budget: MailBudget;
  readonly #flood: FloodControl;

  /** `flood`: a mail is a `messages` write (FLOOD_INTERVAL_SECONDS between two), on top of the hourly budget. */
  constructor(screen: TextScreen, mailer: Mailer, budget: MailBudget, flood: FloodControl) {
    this.#screen = screen;
    this.#mailer = mailer;
    this.#budget = budget;
    this.#flood = flood;
  }

  async send(sender: AuthUser, recipient: Recipient, input: ProfileMailInput): Promise<ProfileMailResult> {
    const [subject, message] = await Promise.all([
      this.#screen.check(input.subject, 'private_messages'),
      this.#screen.check(input.message, 'private_messages'),
    ]);
    const errors = new FieldErrorBag();
    if (subject.action === 'block') errors.add('subject', blockedMessage('subject'));
    if (message.action === 'block') errors.add('message', blockedMessage('message'));
    errors.throwIfAny();
    if (subject.action === 'moderate' || message.action === 'moderate') return { sent: false, reason: 'needs-review' };

    return this.#flood.guard(sender, 'messages', async () => {
      if (!(await this.#budget.take(`member:${sender.id}`))) return { sent: false, reason: 'too-many' } as const;
      const author = { id: sender.id, name: sender.name };
      const values = { sender: sender.name, profile: this.#mailer.link(profilePath(author)), answer: this.#mailer.link(profileEmailPath(author)) };
      await this.#mailer.send(
        asReader(memberReader(recipient), () => ({
          to: recipient.email,
          subject: t('mail.profile.subject', { sender: sender.name, subject: subject.text }),
          text: t('mail.profile.text', { ...values, message: message.text }),
        })),
      );
      return { sent: true } as const;
    });
  }
}
