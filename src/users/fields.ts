// The rules of a user's fields, one definition each (API, forms and OpenAPI).
import { Type } from 'typebox';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const SIGNATURE_MAX = 500;

/**
 * Letters of any script, digits, space, `_ - .`; no space at either end;
 * nothing invisible (a name must not look like another: docs/members.md,
 * "Look-alike names"). The look-alike check against other members' names is
 * the service's (UsersService, db/username-skeleton.ts).
 */
export const Username = Type.String({
  minLength: USERNAME_MIN,
  maxLength: USERNAME_MAX,
  visible: true,
  noInvisible: true,
  pattern: '^[\\p{L}\\p{M}\\p{N}_.\\-](?:[\\p{L}\\p{M}\\p{N} _.\\-]*[\\p{L}\\p{M}\\p{N}_.\\-])?$',
  description: `${USERNAME_MIN}-${USERNAME_MAX} characters: letters (any script), digits, space, _ - .; no invisible characters, and not a name that looks like a member's`,
});

export const Email = Type.String({ format: 'email', maxLength: 255, description: 'Unique e-mail address' });

export const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: 1024, description: `At least ${PASSWORD_MIN} characters` });

export const Signature = Type.String({ maxLength: SIGNATURE_MAX, description: 'Shown under the user’s posts' });
