// Timestamps in API responses. Stored values are ISO 8601 UTC with
// milliseconds (src/db/database.ts); the contract prints them in two forms.
import { Type } from 'typebox';

/** `2026-01-02T03:04:05Z` (emoji, aliases, categories, forum content) */
export function isoSeconds(stored: string): string {
  return `${new Date(stored).toISOString().slice(0, 19)}Z`;
}

/** `2026-01-02T03:04:05.678000Z` (word filters: six fractional digits) */
export function isoMicros(stored: string): string {
  return `${new Date(stored).toISOString().slice(0, 23)}000Z`;
}

export const SecondsTimestamp = Type.String({ format: 'date-time', description: 'UTC, YYYY-MM-DDTHH:MM:SSZ' });
