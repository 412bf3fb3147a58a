// Members write to each other through the profile page
// (/profile/{slug}.{id}/email/). The mail goes out through the outbox; the
// recipient's address is never shown to the sender, nor the sender's to the
// recipient (they answer through the sender's profile page the same way).
// The text passes the `private_messages` word filters: block → an error on
// the field, moderate → not sent (a mail cannot wait for a moderator),
// replace → the replaced text is what is sent.
import { Type } from 'typebox';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import { FieldErrorBag } from '../http/errors.ts';
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
      await this.#mailer.send({
        to: recipient.email,
        subject: `Message from ${sender.name}: ${subject.text}`,
        text: `${sender.name} (${this.#mailer.link(profilePath(author))}) sent you this message through the forum:\n\n${message.text}\n\n--\nTo answer, write back through their profile: ${this.#mailer.link(profileEmailPath(author))}\nYour e-mail address was not shown to ${sender.name}.\n`,
      });
      return { sent: true } as const;
    });
  }
}
