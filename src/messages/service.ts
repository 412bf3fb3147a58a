// Private messages between members (docs/messages.md): send to a member by
// name, reply, read (the first opening marks it read), list the Inbox and the
// Sent folder, delete from one's own folder, and the e-mail about a new
// message for members who asked for it.
//
// Subject and text pass the `private_messages` word filters as they are
// written: a block rule refuses the field, a moderate rule too (a private
// message is read by its recipient only, so nothing can hold it for a
// moderator; the sender is asked to rephrase), and replace rules apply when
// the message is shown, as for posts. A message is a `messages` write for
// flood control (FLOOD_INTERVAL_SECONDS between two).
import type { NotificationStore } from '../notifications/store.ts';
import { t } from '../i18n/messages.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import type { FloodControl } from '../auth/flood-control.ts';
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { ApiError, FieldErrorBag } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import type { Mailer } from '../mail/mailer.ts';
import { inboxPath, messagePath } from '../urls/paths.ts';
import type { UserRow, UsersRepository } from '../users/repository.ts';
import { blockedMessage, needsReviewMessage, type TextScreen } from '../word-filters/text-screen.ts';
import { newMessageMail } from './mails.ts';
import type { Folder, MessageRow, MessagesRepository } from './repository.ts';

export const MESSAGE_SUBJECT_MAX = 255;
export const MESSAGE_BODY_MAX = 60_000;

export interface MessageInput {
  subject: string;
  body: string;
}

export interface Opened {
  message: MessageRow;
  /** This opening was the first: the message was unread until now. */
  firstRead: boolean;
}

/** The subject as pages show it (the presenter): mails name a message the same way. */
export interface MessageNaming {
  messageSubject(subject: string): Promise<string>;
}

export class PrivateMessages {
  readonly #repository: MessagesRepository;
  readonly #users: UsersRepository;
  readonly #screen: TextScreen;
  readonly #flood: FloodControl;
  readonly #mailer: Mailer;
  readonly #naming: MessageNaming;
  readonly #notifications: NotificationStore;
  readonly #clock: Clock;

  constructor(
    repository: MessagesRepository,
    users: UsersRepository,
    screen: TextScreen,
    flood: FloodControl,
    mailer: Mailer,
    naming: MessageNaming,
    notifications: NotificationStore,
    clock: Clock,
  ) {
    this.#notifications = notifications;
    this.#repository = repository;
    this.#users = users;
    this.#screen = screen;
    this.#flood = flood;
    this.#mailer = mailer;
    this.#naming = naming;
    this.#clock = clock;
  }

  /** A new message to the member called `to` (any letter case). */
  async send(sender: AuthUser, to: string, input: MessageInput): Promise<MessageRow> {
    const errors = new FieldErrorBag();
    const recipient = await this.#users.findByUsername(to.trim());
    if (recipient === undefined) errors.add('to', t('validation.no_member', { name: to.trim() }));
    else if (recipient.id === sender.id) errors.add('to', t('validation.message_self'));
    else if (recipient.status !== 'active') errors.add('to', t('validation.cannot_receive', { name: recipient.username }));
    await this.#screenText(input, errors);
    errors.throwIfAny();
    return this.#deliver(sender, recipient!, null, input);
  }

  /** An answer to a message in the member's Inbox or Sent folder, sent to the other side. */
  async reply(sender: AuthUser, messageId: number, input: MessageInput): Promise<MessageRow> {
    const original = await this.#visible(sender, messageId);
    const otherId = original.sender_id === sender.id ? original.recipient_id : original.sender_id;
    const errors = new FieldErrorBag();
    const other = otherId === null ? undefined : await this.#users.find(otherId);
    if (other === undefined) errors.add('body', t('validation.conversation_gone'));
    else if (other.status !== 'active') errors.add('body', t('validation.cannot_receive', { name: other.username }));
    await this.#screenText(input, errors);
    errors.throwIfAny();
    return this.#deliver(sender, other!, original.id, input);
  }

  /** The message, marked read if the member is its recipient and had not opened it yet. */
  async open(user: AuthUser, id: number): Promise<Opened> {
    const message = await this.#visible(user, id);
    if (message.recipient_id !== user.id || message.read_at !== null) return { message, firstRead: false };
    const now = isoNow(this.#clock);
    const firstRead = await this.#repository.transaction(async (trx) => {
      const marked = await this.#repository.markRead(id, user.id, now, trx);
      if (marked) await this.#repository.addUnread(user.id, -1, trx);
      return marked;
    });
    // Read, the message's notification is read too.
    if (firstRead) await this.#notifications.markReadAbout(user.id, { messageId: id }, now);
    return { message: firstRead ? { ...message, read_at: now } : message, firstRead };
  }

  /** The message without marking it read (what a reply form quotes). */
  get(user: AuthUser, id: number): Promise<MessageRow> {
    return this.#visible(user, id);
  }

  folder(user: AuthUser, folder: Folder, page: PageRequest): Promise<{ rows: MessageRow[]; total: number }> {
    return this.#repository.folder(user.id, folder, page.offset, page.perPage);
  }

  /** Removes the message from the member's own folder (both, for a message to oneself); the other side keeps it. Answers the message as it was. */
  async delete(user: AuthUser, id: number): Promise<MessageRow> {
    const now = isoNow(this.#clock);
    return this.#repository.transaction(async (trx) => {
      const message = await this.#repository.findFor(id, user.id, trx);
      if (message === undefined) throw new ApiError('NOT_FOUND', t('error.no_message'));
      if (message.recipient_id === user.id && message.recipient_deleted_at === null) {
        // An unread message leaves the count with the inbox.
        if (await this.#repository.markRead(id, user.id, now, trx)) await this.#repository.addUnread(user.id, -1, trx);
        await this.#repository.removeFrom(id, 'recipient', now, trx);
      }
      if (message.sender_id === user.id && message.sender_deleted_at === null) await this.#repository.removeFrom(id, 'sender', now, trx);
      return message;
    });
  }

  markAllRead(user: AuthUser): Promise<void> {
    return this.#repository.markAllRead(user.id, isoNow(this.#clock));
  }

  /** How many messages wait unopened, and whether each new one is mailed. */
  preferences(user: AuthUser): Promise<{ unread_messages: number; message_mails: boolean }> {
    return this.#repository.preferences(user.id);
  }

  setMessageMails(user: AuthUser, on: boolean): Promise<void> {
    return this.#repository.setMessageMails(user.id, on);
  }

  async #visible(user: AuthUser, id: number): Promise<MessageRow> {
    const message = await this.#repository.findFor(id, user.id);
    if (message === undefined) throw new ApiError('NOT_FOUND', t('error.no_message'));
    return message;
  }

  async #screenText(input: MessageInput, errors: FieldErrorBag): Promise<void> {
    const [subject, body] = await Promise.all([this.#screen.check(input.subject, 'private_messages'), this.#screen.check(input.body, 'private_messages')]);
    for (const [field, verdict] of [
      ['subject', subject],
      ['body', body],
    ] as const) {
      if (verdict.action === 'block') errors.add(field, blockedMessage(field));
      else if (verdict.action === 'moderate') errors.add(field, needsReviewMessage(field));
    }
  }

  async #deliver(sender: AuthUser, recipient: UserRow, replyToId: number | null, input: MessageInput): Promise<MessageRow> {
    // The notification centre lists the message too, unless its recipient chose not (docs/notifications.md).
    const listed = (await this.#notifications.deliveryOf('message', [recipient.id])).site.has(recipient.id);
    const id = await this.#flood.guard(sender, 'messages', () =>
      this.#repository.transaction(async (trx) => {
        const at = isoNow(this.#clock);
        const id = await this.#repository.insert(
          { sender_id: sender.id, recipient_id: recipient.id, reply_to_id: replyToId, subject: input.subject, body: input.body },
          at,
          trx,
        );
        await this.#repository.addUnread(recipient.id, 1, trx);
        if (listed) await this.#notifications.add(trx, [{ userId: recipient.id, kind: 'message', actorId: sender.id, messageId: id }], at);
        return id;
      }),
    );
    const message = (await this.#repository.findFor(id, sender.id))!;
    await this.#notify(recipient, message);
    return message;
  }

  /** The recipient's e-mail about the new message, when they asked for one (the row read when the message was checked). */
  async #notify(recipient: UserRow, message: MessageRow): Promise<void> {
    if (!recipient.message_mails) return;
    const subject = await this.#naming.messageSubject(message.subject);
    const mail = asReader(memberReader(recipient), () =>
      newMessageMail(recipient.email, {
        sender: message.sender_name ?? t('mail.message.someone'),
        subject,
        messageLink: this.#mailer.link(messagePath(message.id)),
        inboxLink: this.#mailer.link(inboxPath()),
      }),
    );
    await this.#mailer.send(mail);
  }
}
