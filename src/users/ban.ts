// What a ban says and when it is over: one reading for the login, the
// tracker and the profile (the ban itself is forum/member-bans.ts).
import { t } from '../i18n/messages.ts';
import type { UserRow } from './repository.ts';

type Ban = Pick<UserRow, 'ban_reason' | 'banned_until'>;

/** The ban's end has passed (a ban without an end never passes). */
export function banOver(user: Pick<UserRow, 'banned_until'>, now: string): boolean {
  return user.banned_until !== null && user.banned_until <= now;
}

/** The day a ban ends (YYYY-MM-DD, UTC), or null for a ban until lifted: how every page and message names it. */
export function banEndDay(user: Pick<UserRow, 'banned_until'>): string | null {
  return user.banned_until === null ? null : user.banned_until.slice(0, 10);
}

/** "This account has been banned until 2026-12-01: spam." as the member is told at login, in the reader's language. */
export function banMessage(user: Ban): string {
  const day = banEndDay(user);
  const reason = user.ban_reason === null || user.ban_reason === '' ? null : user.ban_reason;
  if (reason === null) return day === null ? t('profile.banned') : t('auth.banned_until', { day });
  return day === null ? t('auth.banned_reason', { reason }) : t('auth.banned_until_reason', { day, reason });
}
