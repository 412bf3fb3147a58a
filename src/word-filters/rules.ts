// The vocabulary of word-filter rules, defined once for the schema, the
// validation, the SQL and the engine.

export const FILTER_TYPES = ['replace', 'block', 'moderate'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export const PATTERN_TYPES = ['exact', 'wildcard', 'regex'] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Every place in the product where users write text that rules apply to. */
export const CONTENT_TYPES = ['posts', 'private_messages', 'comments', 'signatures', 'usernames', 'topics'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const PATTERN_MAX_LENGTH = 255;
export const REPLACEMENT_MAX_LENGTH = 255;
export const NOTES_MAX_LENGTH = 1000;

/** What the engine needs of a rule. */
export interface FilterRule {
  id: number;
  pattern: string;
  pattern_type: PatternType;
  filter_type: FilterType;
  replacement: string | null;
  severity: Severity;
  case_sensitive: boolean;
}
