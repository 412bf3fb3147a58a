// What a ban says and when it is over: one reading for the login, the
// tracker and the profile (the ban itself is forum/member-bans.ts).
import { t } from '../i18n/messages.ts';
import { dateText } from '../web/format.ts';
import type { UserRow } from './repository.ts';

type Ban = Pick<UserRow, 'ban_reason' | 'banned_until'>;

/** The ban's end has passed (a ban without an end never passes). */
export function banOver(user: Pick<UserRow, 'banned_until'>, now: string): boolean {
  return user.banned_until !== null && user.banned_until <= now;
}

/** The day a ban ends in the reader's words ("1 Dec 2026"; in Russian "1 дек. 2026 г."), or null for a ban until lifted: how every page and message names it. */
export function banEndDay(user: Pick<UserRow, 'banned_until'>): string | null {
  return user.banned_until === null ? null : dateText(user.banned_until);
}

/** "This account has been banned until 1 Dec 2026: spam." as the member is told at login, in the reader's language. */
export function banMessage(user: Ban): string {
  const day = banEndDay(user);
  const reason = user.ban_reason === null || user.ban_reason === '' ? null : user.ban_reason;
  if (reason === null) return day === null ? t('profile.banned') : t('auth.banned_until', { day });
  return day === null ? t('auth.banned_reason', { reason }) : t('auth.banned_until_reason', { day, reason });
}
