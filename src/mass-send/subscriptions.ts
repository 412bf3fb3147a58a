// Whether a member gets mass mail (docs/mass-mail.md): on unless they turn it
// off, in their settings, through the API, or with the unsubscribe link of a
// mass mail, which works without logging in: its random key names the member.
// Private messages from administrators are not mail and still arrive.
import type { AuthUser } from '../auth/service.ts';
import type { MassSendRepository } from './repository.ts';

/** An unsubscribe link's key: newSecret(24), 32 base64url characters. */
const KEY = /^[\w-]{32}$/;

export interface KeyHolder {
  id: number;
  username: string;
  /** Whether they get mass mail now. */
  subscribed: boolean;
}

export class MassMailSubscriptions {
  readonly #repository: MassSendRepository;

  constructor(repository: MassSendRepository) {
    this.#repository = repository;
  }

  subscribed(user: AuthUser): Promise<boolean> {
    return this.#repository.massMails(user.id);
  }

  set(user: AuthUser, on: boolean): Promise<void> {
    return this.#repository.setMassMails(user.id, on);
  }

  /** The member an unsubscribe link names; undefined for a key that is no one's. */
  async holder(key: string): Promise<KeyHolder | undefined> {
    if (!KEY.test(key)) return undefined;
    const member = await this.#repository.byKey(key);
    return member === undefined ? undefined : { id: member.id, username: member.username, subscribed: member.mass_mails };
  }

  /** Stops mass mail to the member the key names (again: no change); undefined for a key that is no one's. */
  async unsubscribe(key: string): Promise<KeyHolder | undefined> {
    const member = await this.holder(key);
    if (member === undefined) return undefined;
    if (member.subscribed) await this.#repository.setMassMails(member.id, false);
    return { ...member, subscribed: false };
  }
}
