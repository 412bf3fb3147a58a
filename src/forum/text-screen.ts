// What the forum needs from the word filters: a verdict on a piece of user
// text of one content type (WordFiltersService.check provides it).
import type { CheckResult } from '../word-filters/engine/apply.ts';
import type { ContentType } from '../word-filters/rules.ts';

export type { ContentType };

export interface TextScreen {
  check(text: string, contentType: ContentType): Promise<CheckResult>;
}
