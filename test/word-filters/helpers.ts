// Word-filter fixtures, made through the service the routes use.
import type { TestApp } from '../helpers/app.ts';
import type { WordFilterRecord } from '../../src/word-filters/repository.ts';
import type { WordFilterInput } from '../../src/word-filters/service.ts';

export async function createRule(t: TestApp, input: Partial<WordFilterInput> = {}, creatorId: number | null = null): Promise<WordFilterRecord> {
  return t.services.wordFilters.create(
    {
      pattern: 'darn',
      filter_type: 'block',
      pattern_type: 'exact',
      applies_to: ['posts'],
      ...input,
    },
    creatorId,
  );
}

/** ISO 8601 UTC with six fractional digits. */
export const MICROSECOND_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
