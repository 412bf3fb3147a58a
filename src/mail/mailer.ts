// Outgoing mail. Every message is recorded in the outbox table (admins read it
// at /admin/outbox/); with SMTP_URL set it is also delivered through SMTP.
// The log gets the recipient and subject only: bodies carry one-time links.
import { type Clock, isoNow } from '../clock.ts';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Header lines beyond From, To, Subject and the MIME ones (a mass mail's List-Unsubscribe); kept in the outbox with the mail. */
  headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Absolute URL of a path on this site, for links in mail. */
  link(path: string): string;
}

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  origin: string;
}

export class OutboxMailer implements Mailer {
  readonly #db: Kysely<Database>;
  readonly #log: Logger;
  readonly #transport: Transporter | null;
  readonly #options: MailerOptions;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, log: Logger, options: MailerOptions, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.#log = log;
    this.#options = options;
    this.#transport = options.smtpUrl === null ? null : nodemailer.createTransport(options.smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    const row = await this.#db
      .insertInto('outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        body: message.text,
        headers: message.headers === undefined ? null : JSON.stringify(message.headers),
        created_at: isoNow(this.#clock),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (this.#transport === null) {
      this.#log.info({ mail: row.id, to: message.to, subject: message.subject }, 'mail stored in the outbox (no SMTP_URL)');
      return;
    }
    try {
      await this.#transport.sendMail({
        from: this.#options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.headers === undefined ? {} : { headers: { ...message.headers } }),
      });
      await this.#db
        .updateTable('outbox')
        .set({ sent_at: isoNow(this.#clock) })
        .where('id', '=', row.id)
        .execute();
      this.#log.info({ mail: row.id, to: message.to, subject: message.subject }, 'mail sent');
    } catch (error) {
      // The message stays in the outbox with the reason, for an admin to see; the user's action still succeeds.
      await this.#db
        .updateTable('outbox')
        .set({ error: error instanceof Error ? error.message : String(error) })
        .where('id', '=', row.id)
        .execute();
      this.#log.error({ mail: row.id, to: message.to, err: error }, 'mail delivery failed');
    }
  }

  link(path: string): string {
    return new URL(path, this.#options.origin).toString();
  }
}
