// How messages name a form field ("The {field} field is required."): the
// catalog's `field.<name>` in the reader's language ("Текущий пароль"), else
// Laravel's attribute label (`current_password` → `current password`). The
// English names are those labels: the API's messages, part of its contract,
// are the English ones (test/i18n/forms.test.ts holds them to it).
import { isTextKey, t } from './messages.ts';

export function fieldName(field: string): string {
  const key = `field.${field}`;
  return isTextKey(key) ? t(key) : label(field);
}

/** Laravel's attribute label: `emoji_shortcode` → `emoji shortcode`. */
export function label(field: string): string {
  return field.replace(/_/g, ' ');
}
