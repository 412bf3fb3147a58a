// What every writer of user text (forum, users, profile mail) needs from the
// word filters: a verdict on a piece of text of one content type
// (WordFiltersService.check provides it), and the messages given for a
// verdict, in the reader's language (the API's English).
import type { CheckResult } from './engine/apply.ts';
import type { ContentType } from './rules.ts';
import { fieldName } from '../i18n/field-names.ts';
import { t } from '../i18n/messages.ts';

export type { ContentType };

export interface TextScreen {
  check(text: string, contentType: ContentType): Promise<CheckResult>;
}

/** A block rule matched: the field's error. */
export function blockedMessage(field: string): string {
  return t('validation.blocked', { field: fieldName(field) });
}

/** A moderate rule matched where nothing can wait for a moderator (names, signatures, messages). */
export function needsReviewMessage(field: string): string {
  return t('validation.needs_review', { field: fieldName(field) });
}
