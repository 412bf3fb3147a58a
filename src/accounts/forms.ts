// The account forms, built from the users API's field schemas so pages give
// the API's messages. A repeated password is a form's own concern.
import { LOCALES } from '../i18n/locale.ts';
import { Type } from 'typebox';
import type { FieldErrors } from '../http/errors.ts';
import { t } from '../i18n/messages.ts';
import { Email, Password, Signature, Username } from '../users/fields.ts';

const Confirmation = Type.String({ maxLength: 1024 });
const CurrentPassword = Type.String({ minLength: 1, maxLength: 1024 });

export const RegisterForm = Type.Object({ username: Username, email: Email, password: Password, password_confirmation: Confirmation });
export const RecoveryForm = Type.Object({ email: Email });
export const NewPasswordForm = Type.Object({ password: Password, password_confirmation: Confirmation });
export const EmailChangeForm = Type.Object({ email: Email, current_password: CurrentPassword });
export const PasswordChangeForm = Type.Object({ current_password: CurrentPassword, password: Password, password_confirmation: Confirmation });
export const SignatureForm = Type.Object({ signature: Signature });

/** Language and time zone; an empty choice means "as the browser asks". */
/** An unchecked box sends nothing: absent is off. */
export const PrivacyForm = Type.Object({
  hide_online: Type.Optional(Type.Literal('1')),
});

/** The settings' "Mail to all members" section: the box ticked to get it. */
export const MassMailForm = Type.Object({
  mass_mails: Type.Optional(Type.Literal('1')),
});

export const ReadingForm = Type.Object({
  locale: Type.Optional(Type.Union([Type.Literal(''), ...LOCALES.map((locale) => Type.Literal(locale))])),
  time_zone: Type.Optional(Type.String({ maxLength: 64 })),
});

/** The field errors of a form, plus a mismatch between `password` and `password_confirmation`. */
export function withConfirmation(errors: FieldErrors | undefined, values: Record<string, string>): FieldErrors | undefined {
  const password = values['password'];
  const confirmation = values['password_confirmation'];
  if (password === undefined || confirmation === undefined || confirmation === '' || password === confirmation) return errors;
  return { ...errors, password_confirmation: [t('validation.confirmation')] };
}
