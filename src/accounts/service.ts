// Accounts as their owners manage them: registration with an activation link,
// password recovery, and the owner's own settings. Keys are random, mailed
// once, stored only as hashes, work once and expire.
//
// No answer tells whether an address has an account: registering with a
// taken address, or asking to reset the password of an unknown one, gets the
// same answer as the ordinary case, and the mail (if any) goes to the owner.
// User names may be reported as taken: profiles are public anyway.
import type { Locale } from '../i18n/locale.ts';
import { t } from '../i18n/messages.ts';
import { type Clock, isoNow, msNow } from '../clock.ts';
import type { AuthUser } from '../auth/service.ts';
import { newSecret, secretHash } from '../auth/secrets.ts';
import { ApiError, ValidationError } from '../http/errors.ts';
import type { MailBudget } from '../mail/budget.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import { activationPath, emailConfirmationPath, loginPath, passwordRecoveryPath, passwordResetPath } from '../urls/paths.ts';
import { emailKey, type UserRow } from '../users/repository.ts';
import type { UsersService } from '../users/service.ts';
import type { AccountKeyRow, AccountKeysRepository, EmailChangeRow } from './keys-repository.ts';
import {
  activationMail,
  addressInUseMail,
  alreadyRegisteredMail,
  confirmEmailMail,
  emailChangedMail,
  passwordChangedMail,
  passwordResetMail,
  stillInactiveMail,
} from './mails.ts';

export const ACTIVATION_KEY_DAYS = 7;
export const RESET_KEY_MINUTES = 60;
export const EMAIL_CHANGE_KEY_HOURS = 24;
/** Account mails one address may receive per hour: nobody can flood a mailbox through these forms. */
export const ACCOUNT_MAILS_PER_HOUR = 5;

const MINUTE_MS = 60 * 1000;

export interface Registration {
  username: string;
  email: string;
  password: string;
}

export type KeyProblem = 'unknown' | 'expired' | 'used';

/** A key that does not open anything (any more). */
export class AccountKeyError extends Error {
  readonly problem: KeyProblem;
  constructor(problem: KeyProblem) {
    super(`account key ${problem}`);
    this.name = 'AccountKeyError';
    this.problem = problem;
  }
}

export class AccountsService {
  readonly #users: UsersService;
  readonly #keys: AccountKeysRepository;
  readonly #mailer: Mailer;
  readonly #budget: MailBudget;
  readonly #clock: Clock;

  constructor(users: UsersService, keys: AccountKeysRepository, mailer: Mailer, budget: MailBudget, clock: Clock) {
    this.#clock = clock;
    this.#users = users;
    this.#keys = keys;
    this.#mailer = mailer;
    this.#budget = budget;
  }

  // Registration and activation

  /** A pending account and its activation mail; for a taken address, a mail to its owner instead (same outcome for the caller). */
  async register(input: Registration): Promise<void> {
    const key = newSecret(32);
    let user: UserRow;
    try {
      user = await this.#users.create({ ...input, role: 'user', status: 'pending' }, (trx, created) =>
        this.#keys.insert(this.#newKey(created.id, 'activation', key, ACTIVATION_KEY_DAYS * 24 * 60), trx),
      );
    } catch (error) {
      if (!(error instanceof ValidationError) || error.errors['email'] === undefined) throw error;
      const { email: _taken, ...others } = error.errors;
      if (Object.keys(others).length > 0) throw new ValidationError(others);
      // The work of creating an account, so a taken address is not told apart by a faster answer.
      await this.#users.passwords.hash(input.password);
      await this.#tellOwner(input.email);
      return;
    }
    await this.#mail(activationMail(user, this.#mailer.link(activationPath(user.id, key)), ACTIVATION_KEY_DAYS));
  }

  /** The account an activation link is for, if the link still works. */
  async checkActivation(userId: number, key: string): Promise<UserRow> {
    const row = await this.#usableKey(key, 'activation');
    if (row.user_id !== userId) throw new AccountKeyError('unknown');
    return this.#users.get(userId);
  }

  async activate(userId: number, key: string): Promise<UserRow> {
    const user = await this.checkActivation(userId, key);
    if (user.status === 'banned') throw new ApiError('FORBIDDEN', t('profile.banned'));
    const row = await this.#usableKey(key, 'activation');
    const now = isoNow(this.#clock);
    return this.#users.update(user.id, user.status === 'pending' ? { status: 'active' } : {}, undefined, async (trx) => {
      if (!(await this.#keys.consume(row.id, now, trx))) throw new AccountKeyError('used');
      await this.#keys.retire(user.id, 'activation', now, trx);
    });
  }

  // Password recovery

  /** Mails a reset link to an active account's address (an activation link to a pending one); nothing otherwise. */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.#users.repository.findByEmail(email);
    if (user === undefined || user.status === 'banned') return;
    if (user.status === 'pending') {
      await this.#sendActivationAgain(user);
      return;
    }
    const key = newSecret(32);
    await this.#keys.insert(this.#newKey(user.id, 'password_reset', key, RESET_KEY_MINUTES));
    await this.#mail(passwordResetMail(user, this.#mailer.link(passwordResetPath(key)), RESET_KEY_MINUTES));
  }

  async checkPasswordReset(key: string): Promise<UserRow> {
    return this.#users.get((await this.#usableKey(key, 'password_reset')).user_id);
  }

  /** Sets the password once per key; every existing login of the account ends (UsersService.update). */
  async resetPassword(key: string, password: string): Promise<UserRow> {
    const row = await this.#usableKey(key, 'password_reset');
    const now = isoNow(this.#clock);
    const user = await this.#users.update(row.user_id, { password }, undefined, async (trx) => {
      if (!(await this.#keys.consume(row.id, now, trx))) throw new AccountKeyError('used');
      await this.#keys.retire(row.user_id, 'password_reset', now, trx);
    });
    await this.#mail(passwordChangedMail(user, this.#mailer.link(passwordRecoveryPath())));
    return user;
  }

  // The owner's settings

  /**
   * Mails a confirmation link to the new address; the account keeps its old
   * one until the link is opened. A taken address gets a note to its owner
   * instead, and the caller the same answer.
   */
  async requestEmailChange(actor: AuthUser, currentPassword: string, newEmail: string): Promise<'unchanged' | 'confirmation-sent'> {
    const user = await this.#withPassword(actor, currentPassword);
    if (emailKey(newEmail) === user.email_key) return 'unchanged';
    const holder = await this.#users.repository.findByEmail(newEmail);
    if (holder !== undefined) {
      await this.#mail(addressInUseMail(holder));
      return 'confirmation-sent';
    }
    const key = newSecret(32);
    const now = this.#clock.now();
    await this.#keys.insertEmailChange({
      user_id: user.id,
      new_email: newEmail,
      key_hash: secretHash(key),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_CHANGE_KEY_HOURS * 60 * MINUTE_MS).toISOString(),
    });
    await this.#mail(confirmEmailMail(user, newEmail, this.#mailer.link(emailConfirmationPath(key)), EMAIL_CHANGE_KEY_HOURS));
    return 'confirmation-sent';
  }

  async checkEmailChange(key: string): Promise<{ change: EmailChangeRow; user: UserRow }> {
    const change = await this.#keys.findEmailChange(secretHash(key));
    if (change === undefined) throw new AccountKeyError('unknown');
    assertUsable(change, msNow(this.#clock));
    return { change, user: await this.#users.get(change.user_id) };
  }

  /** The new address replaces the old one, which is told so. A 422 on `email` when another account took it meanwhile. */
  async confirmEmailChange(key: string): Promise<UserRow> {
    const { change, user } = await this.checkEmailChange(key);
    const now = isoNow(this.#clock);
    const updated = await this.#users.update(user.id, { email: change.new_email }, undefined, async (trx) => {
      if (!(await this.#keys.consumeEmailChange(change, now, trx))) throw new AccountKeyError('used');
    });
    await this.#mail(emailChangedMail(user, updated.email));
    return updated;
  }

  /** A new password ends every login of the account, this one included: the page starts a new session for it. */
  async changePassword(actor: AuthUser, currentPassword: string, password: string): Promise<UserRow> {
    await this.#withPassword(actor, currentPassword);
    const user = await this.#users.update(actor.id, { password });
    await this.#mail(passwordChangedMail(user, this.#mailer.link(passwordRecoveryPath())));
    return user;
  }

  changeSignature(actor: AuthUser, signature: string): Promise<UserRow> {
    return this.#users.update(actor.id, { signature });
  }

  /** The member's interface language and time zone (null: as the browser asks). */
  changeReading(actor: AuthUser, locale: Locale | null, timeZone: string | null): Promise<UserRow> {
    return this.#users.update(actor.id, { locale, time_zone: timeZone });
  }

  /** Whether the member keeps out of who is online (named to staff only). */
  changePrivacy(actor: AuthUser, hideOnline: boolean): Promise<UserRow> {
    return this.#users.update(actor.id, { hide_online: hideOnline });
  }

  /** The account of the logged-in user, as its settings show it. */
  owner(actor: AuthUser): Promise<UserRow> {
    return this.#users.get(actor.id);
  }

  // Internals

  #newKey(userId: number, purpose: AccountKeyRow['purpose'], key: string, minutes: number) {
    const now = this.#clock.now();
    return {
      user_id: userId,
      purpose,
      key_hash: secretHash(key),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + minutes * MINUTE_MS).toISOString(),
    };
  }

  async #usableKey(key: string, purpose: AccountKeyRow['purpose']): Promise<AccountKeyRow> {
    const row = await this.#keys.find(secretHash(key));
    if (row === undefined || row.purpose !== purpose) throw new AccountKeyError('unknown');
    assertUsable(row, msNow(this.#clock));
    return row;
  }

  /** The owner of an address someone tried to register with. */
  async #tellOwner(email: string): Promise<void> {
    const owner = await this.#users.repository.findByEmail(email);
    if (owner === undefined || owner.status === 'banned') return;
    if (owner.status === 'pending') {
      await this.#sendActivationAgain(owner);
      return;
    }
    await this.#mail(alreadyRegisteredMail(owner, this.#mailer.link(loginPath()), this.#mailer.link(passwordRecoveryPath())));
  }

  async #sendActivationAgain(user: UserRow): Promise<void> {
    const key = newSecret(32);
    await this.#keys.insert(this.#newKey(user.id, 'activation', key, ACTIVATION_KEY_DAYS * 24 * 60));
    await this.#mail(stillInactiveMail(user, this.#mailer.link(activationPath(user.id, key)), ACTIVATION_KEY_DAYS));
  }

  async #withPassword(actor: AuthUser, currentPassword: string): Promise<UserRow> {
    const user = await this.#users.get(actor.id);
    if (!(await this.#users.passwords.verify(currentPassword, user.password_hash)))
      throw ValidationError.field('current_password', t('validation.wrong_password'));
    return user;
  }

  /** Within the address's hourly budget the mail goes out; past it, silently not. */
  async #mail(message: MailMessage): Promise<void> {
    if (await this.#budget.take(`address:${emailKey(message.to)}`)) await this.#mailer.send(message);
  }
}

function assertUsable(key: { used_at: string | null; expires_at: string }, now: number): void {
  if (key.used_at !== null) throw new AccountKeyError('used');
  if (Date.parse(key.expires_at) <= now) throw new AccountKeyError('expired');
}
