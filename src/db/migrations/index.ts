// Every migration, in order. Names sort in the order they must run.
import type { Migration } from 'kysely';
import * as users from './0001_users.ts';
import * as emoji from './0002_emoji.ts';
import * as wordFilters from './0003_word_filters.ts';
import * as forum from './0004_forum.ts';
import * as emailChanges from './0005_email_changes.ts';

export const migrations: Record<string, Migration> = {
  '0001_users': users,
  '0002_emoji': emoji,
  '0003_word_filters': wordFilters,
  '0004_forum': forum,
  '0005_email_changes': emailChanges,
};
