// What a ban says and when it is over: one reading for the login, the
// tracker and the profile (the ban itself is forum/member-bans.ts).
import type { UserRow } from './repository.ts';

type Ban = Pick<UserRow, 'ban_reason' | 'banned_until'>;

/** The ban's end has passed (a ban without an end never passes). */
export function banOver(user: Pick<UserRow, 'banned_until'>, now: string): boolean {
  return user.banned_until !== null && user.banned_until <= now;
}

/** "This account has been banned until 2026-12-01: spam." as the member is told at login. */
export function banMessage(user: Ban): string {
  const until = user.banned_until === null ? '' : ` until ${user.banned_until.slice(0, 10)}`;
  const reason = user.ban_reason === null || user.ban_reason === '' ? '' : `: ${user.ban_reason}`;
  return `This account has been banned${until}${reason}.`;
}
