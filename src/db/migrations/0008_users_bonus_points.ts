// Seed-bonus points live with the tracker's per-user figures
// (tracker_user_stats.bonus_points, in hundredths); the users column of the
// same name was the forum's stand-in before the tracker and nothing writes it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('bonus_points').execute();
}
