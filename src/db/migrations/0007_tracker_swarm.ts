// The swarm's own tables: transfer per user and torrent (with the one
// completion that counts), the seed-bonus windows already credited (the
// unique window start is what lets exactly one instance credit a window),
// and each user's bonus history (credits and exchanges, the exchange's
// idempotency key unique so that one click applies once).
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  const flag = dialect === 'postgres' ? 'boolean' : 'integer';

  await db.schema
    .createTable('tracker_user_torrents')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('torrent_id', 'integer', (c) => c.notNull().references('torrents.id').onDelete('cascade'))
    // Bytes counted: upload as reported, download after freeleech.
    .addColumn('uploaded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('downloaded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', ts)
    // The user's state in the swarm at their last announce (for "seeding now" on profiles).
    .addColumn('seeding', flag, (c) => c.notNull())
    .addColumn('active', flag, (c) => c.notNull())
    .addColumn('last_announce_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('tracker_user_torrents_pk', ['user_id', 'torrent_id'])
    .execute();
  await db.schema.createIndex('tracker_user_torrents_torrent').on('tracker_user_torrents').column('torrent_id').execute();

  await db.schema
    .createTable('tracker_bonus_windows')
    .addColumn('window_start', ts, (c) => c.primaryKey())
    .addColumn('window_end', ts, (c) => c.notNull())
    .addColumn('users_credited', 'integer', (c) => c.notNull())
    .addColumn('points_credited', 'bigint', (c) => c.notNull())
    .addColumn('credited_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tracker_bonus_history')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOfCheck('kind', ['seeding', 'exchange'])))
    // Hundredths of a point: positive for credits, negative for exchanges.
    .addColumn('points', 'bigint', (c) => c.notNull())
    // Seeding: seconds seeded in the window and torrents seeded; exchange: upload credit bought.
    .addColumn('seconds', 'integer')
    .addColumn('torrents', 'integer')
    .addColumn('upload_bytes', 'bigint')
    .addColumn('window_start', ts)
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addCheckConstraint('tracker_bonus_history_sign', sql`(kind = 'seeding' and points >= 0) or (kind = 'exchange' and points < 0)`)
    .execute();
  await db.schema.createIndex('tracker_bonus_history_user').on('tracker_bonus_history').columns(['user_id', 'id']).execute();
}
