// Hidden posts and topics (docs/moderation.md): a moderator hides a post or a
// topic instead of deleting it; it is then seen by moderators only (marked),
// left out of every count, list, feed and search of everyone else, and can be
// restored as it was. `hidden_by` is who hid it.
import type { Kysely } from 'kysely';
import { dialectOf, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(dialectOf(db));
  for (const table of ['posts', 'topics']) {
    await db.schema.alterTable(table).addColumn('hidden_at', ts).execute();
    await db.schema
      .alterTable(table)
      .addColumn('hidden_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  }
}
