// Mass sends (docs/mass-mail.md): an administrator's private message or
// e-mail to all members, one group's members or one role's. Making one checks
// it, counts who it is for and records it; the sending itself runs in the
// background (sender.ts), which this wakes. The record is kept: there is no
// changing or deleting a send.
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { AudienceKind, MassSendKind, Role } from '../db/schema.ts';
import { FieldErrorBag, ModelNotFoundError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';
import { hasVisibleCharacter } from '../http/validation.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t, tn } from '../i18n/messages.ts';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX } from '../messages/service.ts';
import type { Audience, MassSendRepository, MassSendRow } from './repository.ts';

export const MASS_SEND_KINDS: readonly MassSendKind[] = ['message', 'mail'];
export const AUDIENCE_KINDS: readonly AudienceKind[] = ['all', 'group', 'role'];
export const AUDIENCE_ROLES: readonly Role[] = ['user', 'moderator', 'admin'];
/** An Idempotency-Key's longest length: printable ASCII, as header values are. */
export const REQUEST_KEY_MAX = 200;

/** Who a send is for: the group for `group`, the role for `role`, neither for `all`. */
export interface AudienceInput {
  kind: AudienceKind;
  group_id?: number | undefined;
  role?: Role | undefined;
}

export interface MassSendInput {
  kind: MassSendKind;
  audience: AudienceInput;
  subject: string;
  /** BBCode; a mail carries it as plain text. */
  body: string;
}

/** An audience once checked: the group found, with its name as it is now. */
interface CheckedAudience {
  audience: AudienceKind;
  group_id: number | null;
  group_name: string | null;
  role: Role | null;
}

export class MassSends {
  readonly #repository: MassSendRepository;
  readonly #clock: Clock;
  readonly #created: () => void;

  /** `created`: told of each new send (the sender wakes up for it). */
  constructor(repository: MassSendRepository, clock: Clock, created: () => void) {
    this.#repository = repository;
    this.#clock = clock;
    this.#created = created;
  }

  /** How many members a send of this kind to this audience would go to now; 422 for an audience that is not one. */
  async preview(sender: AuthUser, kind: MassSendKind, input: AudienceInput): Promise<number> {
    const errors = new FieldErrorBag();
    const audience = await this.#audience(input, errors);
    errors.throwIfAny();
    return this.#repository.count(audienceOf(kind, audience!, sender.id), isoNow(this.#clock));
  }

  /** Records the send and starts it; 422 naming each field that is wrong. */
  async create(sender: AuthUser, input: MassSendInput): Promise<MassSendRow> {
    return (await this.createOnce(sender, input, undefined)).send;
  }

  /**
   * As create, once per `requestKey` (a request's Idempotency-Key, the admin
   * page's confirmation): the same key again, whatever it asks, answers the
   * send made the first time (`created` false), so a retry or a double click
   * never sends twice.
   */
  async createOnce(sender: AuthUser, input: MassSendInput, requestKey: string | undefined): Promise<{ send: MassSendRow; created: boolean }> {
    const earlier = requestKey === undefined ? undefined : await this.#repository.byRequestKey(requestKey);
    if (earlier !== undefined) return { send: earlier, created: false };
    try {
      return { send: await this.#make(sender, input, requestKey ?? null), created: true };
    } catch (error) {
      // The same key twice at once: the database's unique key let one through.
      const first = requestKey !== undefined && isUniqueViolation(error) ? await this.#repository.byRequestKey(requestKey) : undefined;
      if (first === undefined) throw error;
      return { send: first, created: false };
    }
  }

  async #make(sender: AuthUser, input: MassSendInput, requestKey: string | null): Promise<MassSendRow> {
    const errors = new FieldErrorBag();
    const audience = await this.#audience(input.audience, errors);
    const subject = input.subject.trim();
    const body = input.body.replace(/\r\n?/g, '\n').trim();
    checkText(errors, 'subject', subject, MESSAGE_SUBJECT_MAX);
    checkText(errors, 'body', body, MESSAGE_BODY_MAX);
    errors.throwIfAny();
    const now = isoNow(this.#clock);
    // The newest account is read before counting: whoever registers between the two is in neither.
    const newest = await this.#repository.newestUserId();
    const recipients = await this.#repository.count(audienceOf(input.kind, audience!, sender.id), now);
    const send = await this.#repository.insert({
      kind: input.kind,
      ...audience!,
      subject,
      body,
      sender_id: sender.id,
      sender_name: sender.name,
      recipients,
      max_user_id: newest,
      created_at: now,
      request_key: requestKey,
    });
    this.#created();
    return send;
  }

  async get(id: number): Promise<MassSendRow> {
    const send = await this.#repository.find(id);
    if (send === undefined) throw new ModelNotFoundError('MassSend', id);
    return send;
  }

  /** Newest first. */
  list(page: PageRequest): Promise<{ rows: MassSendRow[]; total: number }> {
    return this.#repository.list(page.offset, page.perPage);
  }

  /** Every group an administrator may write to (all of them), by name. */
  groups(): Promise<Array<{ id: number; name: string }>> {
    return this.#repository.groups();
  }

  /** The audience with its group looked up, or undefined with its errors in the bag (under `audience.`). */
  async #audience(input: AudienceInput, errors: FieldErrorBag): Promise<CheckedAudience | undefined> {
    let valid = true;
    const refuse = (field: 'group_id' | 'role', message: string): void => {
      errors.add(`audience.${field}`, message);
      valid = false;
    };
    const required = (field: 'group_id' | 'role') => t('validation.required', { field: fieldName(`audience.${field}`) });
    // A group or role beside another audience is refused, not ignored: "all members" sent instead of one group is not undone.
    if (input.kind !== 'group' && input.group_id !== undefined) refuse('group_id', t('mass_send.error.group_not_for_audience'));
    if (input.kind !== 'role' && input.role !== undefined) refuse('role', t('mass_send.error.role_not_for_audience'));
    if (input.kind === 'role' && input.role === undefined) refuse('role', required('role'));
    let group: { id: number; name: string } | undefined;
    if (input.kind === 'group') {
      if (input.group_id === undefined) refuse('group_id', required('group_id'));
      else if ((group = await this.#repository.group(input.group_id)) === undefined) {
        refuse('group_id', t('validation.selected', { field: fieldName('audience.group_id') }));
      }
    }
    if (!valid) return undefined;
    return { audience: input.kind, group_id: group?.id ?? null, group_name: group?.name ?? null, role: input.kind === 'role' ? (input.role ?? null) : null };
  }
}

function audienceOf(kind: MassSendKind, audience: CheckedAudience, senderId: number): Audience {
  return { kind, audience: audience.audience, group_id: audience.group_id, role: audience.role, sender_id: senderId };
}

/** Required, with something to see, and within its length in code points (as the API's schemas count). */
function checkText(errors: FieldErrorBag, field: 'subject' | 'body', text: string, max: number): void {
  if (text === '' || !hasVisibleCharacter(text)) errors.add(field, t('validation.required', { field: fieldName(field) }));
  else if ([...text].length > max) errors.add(field, tn('validation.max_length', max, { field: fieldName(field), limit: String(max) }));
}
