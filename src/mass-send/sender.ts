// Sends the mass sends in the background (docs/mass-mail.md), after the
// administrator's request has been answered, one send at a time per instance.
//
// - Messages go in batches: each batch's private messages, the members'
//   unread counts and the send's cursor are one transaction, so a stop at any
//   moment loses nothing and repeats nothing.
// - Mail goes one member at a time: the mail, then the cursor past them. Each
//   mail first takes its place in the mail budget (MASS_MAIL_PER_MINUTE, shared
//   by the instances through Redis); when the budget is spent the sender waits
//   for the next window, it never skips a member. A stop between the mail and
//   the cursor can send that one member the mail twice, never none.
// - The event loop gets a turn after every batch and every mail (on SQLite the
//   queries themselves run on it), so a send to 100,000 members holds up no
//   request for longer than one batch.
//
// Resumable: the cursor is in the database. An instance works on a send under
// a lease it renews with every write (two minutes); stopping releases it, so
// the next start goes on at once; an instance that died leaves a lease that
// runs out, and every instance looks for such sends every minute.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { newSecret } from '../auth/secrets.ts';
import { type Clock, isoNow, msNow } from '../clock.ts';
import { bbcodeMailText } from '../forum/bbcode/bbcode.ts';
import { asReader, currentReader, memberReader } from '../i18n/context.ts';
import { DEFAULT_TIME_ZONE, type Locale } from '../i18n/locale.ts';
import type { Mailer } from '../mail/mailer.ts';
import { massMailUnsubscribePath, settingsPath } from '../urls/paths.ts';
import { massMail } from './mails.ts';
import type { Lease, MassSendRepository, MassSendRow, Recipient } from './repository.ts';

/** How long a claim on a send lasts without a write renewing it. */
export const LEASE_MS = 2 * 60_000;
/** How often an instance looks for sends nobody is working on. */
const POLL_MS = 60_000;
/** Private messages written per transaction. */
export const MESSAGE_BATCH = 500;
/** Mass mail has one budget, whoever it goes to. */
const BUDGET_KEY = 'all';

/** Where a mail may take its place: 0 when it did, else how long to wait before asking again (mail/budget.ts MailBudget). */
export interface MailGate {
  tryTake(key: string): Promise<number>;
}

export interface MassSenderOptions {
  log: Logger;
  /** The site's name (mail names it) and the language of members who chose none, as they are now. */
  site: () => { name: string; defaultLocale: Locale };
  /** This instance's name in leases (default: a random one). */
  owner?: string;
}

export class MassSender {
  readonly #repository: MassSendRepository;
  readonly #mailer: Mailer;
  readonly #budget: MailGate;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #site: () => { name: string; defaultLocale: Locale };
  readonly #owner: string;
  readonly #abort = new AbortController();
  #running: Promise<void> | null = null;
  #again = false;
  #stopping = false;
  #poll: NodeJS.Timeout | undefined;

  constructor(repository: MassSendRepository, mailer: Mailer, budget: MailGate, clock: Clock, options: MassSenderOptions) {
    this.#repository = repository;
    this.#mailer = mailer;
    this.#budget = budget;
    this.#clock = clock;
    this.#log = options.log;
    this.#site = options.site;
    this.#owner = options.owner ?? newSecret(12);
  }

  /** Goes on with unfinished sends now, and looks for sends nobody holds every minute. */
  start(): void {
    this.wake();
    this.#poll = setInterval(() => this.wake(), POLL_MS);
    this.#poll.unref();
  }

  /** Looks for a send to work on (a new one; one another instance left) unless already at work, which looks again when done. */
  wake(): void {
    if (this.#stopping) return;
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  /** Resolves when this instance works on no send (tests; the stop). */
  async settled(): Promise<void> {
    while (this.#running !== null) await this.#running;
  }

  /** Finishes the batch or mail in hand, lets go of the send (the next start goes on with it) and stops looking. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#poll);
    this.#abort.abort();
    await this.settled();
  }

  async #drain(): Promise<void> {
    try {
      while (!this.#stopping) {
        this.#again = false;
        const send = await this.#claimNext();
        if (send === undefined) return;
        await this.#work(send);
      }
    } catch (error) {
      // The database is away, most likely: the next look (within a minute) goes on from the cursor.
      this.#log.error({ err: error }, 'mass send failed; it goes on from where it stopped at the next look, within a minute');
    }
  }

  async #claimNext(): Promise<MassSendRow | undefined> {
    const now = isoNow(this.#clock);
    for (const candidate of await this.#repository.claimable(now, 10)) {
      const claimed = await this.#repository.claim(candidate.id, this.#lease(), now);
      if (claimed !== undefined) return claimed;
    }
    return undefined;
  }

  async #work(send: MassSendRow): Promise<void> {
    this.#log.info({ massSend: send.id, kind: send.kind, recipients: send.recipients, from: send.last_user_id }, 'mass send: sending');
    let finished = false;
    try {
      finished = send.kind === 'message' ? await this.#messages(send) : await this.#mails(send);
      if (finished) this.#log.info({ massSend: send.id }, 'mass send: finished');
    } finally {
      if (!finished) await this.#repository.release(send.id, this.#owner);
    }
  }

  /** True when every member has their message; false when stopped or the send was lost to another instance. */
  async #messages(send: MassSendRow): Promise<boolean> {
    let after = send.last_user_id;
    while (!this.#stopping) {
      const progress = await this.#repository.deliverMessages(send, after, this.#lease(), isoNow(this.#clock), MESSAGE_BATCH);
      if (progress === null) return this.#lost(send);
      if (progress.done) return true;
      after = progress.lastUserId;
      await nextTurn();
    }
    return false;
  }

  /** True when every member has been mailed; false when stopped or the send was lost to another instance. */
  async #mails(send: MassSendRow): Promise<boolean> {
    let after = send.last_user_id;
    // The text as plain text, per language (a quote says who wrote it in the reader's words).
    const texts = new Map<Locale, string>();
    while (!this.#stopping) {
      const [member] = await this.#repository.next(send, after, send.max_user_id, isoNow(this.#clock), 1);
      if (member === undefined) return (await this.#repository.finish(send.id, after, this.#lease(), isoNow(this.#clock))) || this.#lost(send);
      if (!(await this.#budgetTaken(send))) return false;
      const key = member.mass_mail_key ?? (await this.#repository.keyFor(member.id, newSecret(24)));
      await this.#mailer.send(this.#mailFor(send, member, key, texts));
      if (!(await this.#repository.advance(send.id, after, member.id, 1, this.#lease(), isoNow(this.#clock)))) return this.#lost(send);
      after = member.id;
      await nextTurn();
    }
    return false;
  }

  #mailFor(send: MassSendRow, member: Recipient, key: string, texts: Map<Locale, string>) {
    const site = this.#site();
    // A member without a language of their own reads the site's default.
    return asReader({ locale: site.defaultLocale, timeZone: DEFAULT_TIME_ZONE }, () =>
      asReader(memberReader(member), () => {
        const { locale } = currentReader();
        let text = texts.get(locale);
        if (text === undefined) texts.set(locale, (text = bbcodeMailText(send.body)));
        return massMail({
          to: member.email,
          subject: send.subject,
          text,
          siteName: site.name,
          unsubscribeLink: this.#mailer.link(massMailUnsubscribePath(key)),
          settingsLink: this.#mailer.link(settingsPath()),
        });
      }),
    );
  }

  /** Takes a place in the mail budget, waiting as long as it is spent; false when stopped meanwhile (nothing taken). */
  async #budgetTaken(send: MassSendRow): Promise<boolean> {
    for (;;) {
      const waitMs = await this.#budget.tryTake(BUDGET_KEY);
      if (waitMs === 0) return true;
      if (!(await this.#pause(waitMs))) return false;
      // A long wait must not let the claim run out under it.
      if (!(await this.#repository.renew(send.id, this.#lease()))) return this.#lost(send);
    }
  }

  /** Waits; false when stopped meanwhile. */
  #pause(ms: number): Promise<boolean> {
    return sleep(ms, undefined, { signal: this.#abort.signal }).then(
      () => !this.#stopping,
      () => false,
    );
  }

  #lost(send: MassSendRow): false {
    this.#log.warn({ massSend: send.id }, 'mass send: another instance holds it now; leaving it to that one');
    return false;
  }

  #lease(): Lease {
    return { owner: this.#owner, until: new Date(msNow(this.#clock) + LEASE_MS).toISOString() };
  }
}
