// Every migration, in order. Names sort in the order they must run.
import type { Migration } from 'kysely';
import * as users from './0001_users.ts';
import * as emoji from './0002_emoji.ts';

export const migrations: Record<string, Migration> = {
  '0001_users': users,
  '0002_emoji': emoji,
};
