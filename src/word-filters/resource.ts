// The JSON shapes of the word-filter API: a rule, and the result of checking
// text. Every endpoint that returns a rule builds it with wordFilterResource.
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from '../http/schemas.ts';
import { isoMicros } from '../http/timestamps.ts';
import type { CheckResult } from './engine/apply.ts';
import type { WordFilterRecord } from './repository.ts';
import { CONTENT_TYPES, FILTER_TYPES, PATTERN_TYPES, SEVERITIES } from './rules.ts';

const Timestamp = Type.String({ description: 'ISO 8601 UTC with six fractional digits, e.g. 2026-01-02T03:04:05.678000Z' });

export const WordFilter = Type.Object({
  id: Type.Integer(),
  pattern: Type.String(),
  replacement: Nullable(Type.String()),
  filter_type: OneOf(FILTER_TYPES),
  pattern_type: OneOf(PATTERN_TYPES),
  severity: OneOf(SEVERITIES),
  is_active: Type.Boolean(),
  case_sensitive: Type.Boolean(),
  applies_to: Type.Array(OneOf(CONTENT_TYPES)),
  notes: Nullable(Type.String()),
  creator: Nullable(
    Type.Object(
      { id: Type.Integer(), name: Type.String(), email: Type.String() },
      { description: 'The admin who created the rule; null once that user is deleted' },
    ),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export type WordFilterJson = Static<typeof WordFilter>;

export function wordFilterResource(record: WordFilterRecord): WordFilterJson {
  return {
    id: record.id,
    pattern: record.pattern,
    replacement: record.replacement,
    filter_type: record.filter_type,
    pattern_type: record.pattern_type,
    severity: record.severity,
    is_active: record.is_active,
    case_sensitive: record.case_sensitive,
    applies_to: record.applies_to,
    notes: record.notes,
    creator: record.creator,
    created_at: isoMicros(record.created_at),
    updated_at: isoMicros(record.updated_at),
  };
}

export const CheckResultSchema = Type.Object({
  action: OneOf(['allow', 'moderate', 'block'] as const, 'block beats moderate; allow when nothing blocks or holds the text'),
  text: Type.String({ description: 'The text with every matching replace rule applied' }),
  matches: Type.Array(
    Type.Object({
      filter_id: Type.Integer(),
      filter_type: OneOf(FILTER_TYPES),
      severity: OneOf(SEVERITIES),
      start: Type.Integer({ description: 'UTF-16 offset of the first matched character in the checked text' }),
      end: Type.Integer({ description: 'UTF-16 offset just past the match' }),
      match: Type.String(),
    }),
    { description: 'Every match by position (the first 1000)' },
  ),
});

export function checkResultResource(result: CheckResult): Static<typeof CheckResultSchema> {
  return { action: result.action, text: result.text, matches: result.matches };
}
