// Banning a member (docs/moderation.md): moderators ban members, admins also
// moderators; nobody bans an administrator or themselves. A ban has a reason
// and an end (a day, or none: until lifted by hand). It ends every login of
// the member at once, refuses new ones with its reason and end, and refuses
// their passkey on the tracker; a ban whose end has passed is lifted at the
// member's next login (and no longer refuses the tracker). Both ban and
// lift are written to the moderation log in the same transaction.
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import { ApiError, FieldErrorBag } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import type { UserRow } from '../users/repository.ts';
import type { UsersService } from '../users/service.ts';
import { isStaff } from './access.ts';
import type { ModerationLog } from './moderation-log.ts';

export const BAN_REASON_MAX = 500;

export interface BanInput {
  reason: string;
  /** The day the ban ends (YYYY-MM-DD, at 00:00 UTC); null: until lifted. */
  until: string | null;
}

export class MemberBans {
  readonly #users: UsersService;
  readonly #log: ModerationLog;
  readonly #clock: Clock;

  constructor(users: UsersService, log: ModerationLog, clock: Clock) {
    this.#users = users;
    this.#log = log;
    this.#clock = clock;
  }

  async ban(moderator: AuthUser, userId: number, input: BanInput): Promise<UserRow> {
    const member = await this.#bannable(moderator, userId);
    const errors = new FieldErrorBag();
    const until = input.until === null ? null : `${input.until}T00:00:00.000Z`;
    if (until !== null && (Number.isNaN(Date.parse(until)) || until <= isoNow(this.#clock))) errors.add('until', t('validation.ban_end'));
    errors.throwIfAny();
    const reason = input.reason.trim();
    await this.#users.update(member.id, { status: 'banned' }, moderator, async (trx) => {
      await this.#users.repository.setBan(member.id, { reason, until, by: moderator.id }, trx);
      await this.#log.record(
        { actorId: moderator.id, action: 'ban', forumId: null, topicId: null, userId: member.id, subject: `${member.username}: ${reason}` },
        isoNow(this.#clock),
        trx,
      );
    });
    return this.#users.get(member.id);
  }

  async lift(moderator: AuthUser, userId: number): Promise<UserRow> {
    const member = await this.#bannable(moderator, userId);
    if (member.status !== 'banned') return member;
    await this.#users.update(member.id, { status: 'active' }, moderator, async (trx) => {
      await this.#users.repository.setBan(member.id, null, trx);
      await this.#log.record(
        { actorId: moderator.id, action: 'unban', forumId: null, topicId: null, userId: member.id, subject: member.username },
        isoNow(this.#clock),
        trx,
      );
    });
    return this.#users.get(member.id);
  }

  /** Whether this moderator may ban or lift the member's ban: members for moderators, also moderators for admins; never oneself or an admin. */
  mayBan(moderator: AuthUser | null, member: Pick<UserRow, 'id' | 'role'>): boolean {
    if (moderator === null || !isStaff(moderator) || moderator.id === member.id) return false;
    return member.role === 'user' || (member.role === 'moderator' && moderator.role === 'admin');
  }

  async #bannable(moderator: AuthUser, userId: number): Promise<UserRow> {
    if (!isStaff(moderator)) throw new ApiError('FORBIDDEN', t('ban.moderators_only'));
    const member = await this.#users.get(userId);
    if (!this.mayBan(moderator, member)) throw new ApiError('FORBIDDEN', t('ban.not_this_member'));
    return member;
  }
}
