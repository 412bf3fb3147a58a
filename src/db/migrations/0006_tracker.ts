// The tracker's registry: torrents on topics (with the stored .torrent, its
// files and its status history), passkeys, .torrent downloads (for the daily
// limit) and each user's transfer totals. Byte counts are bigint on both
// databases (SQLite's integer is 64-bit already); info hashes are lower-case
// hex text, unique, and null where a torrent has no such hash (v1-only or
// v2-only). The swarm's own tables come in 0007.
import { sql, type Kysely } from 'kysely';
import { autoId, dialectOf, oneOfCheck, timestampType } from '../dialect.ts';

// The statuses and freeleech kinds as of this migration (their meaning lives in
// tracker/torrents/statuses.ts; a migration keeps its own copy, as history).
const TORRENT_STATUSES = [
  'not_checked',
  'checked',
  'needs_editing',
  'not_fully_described',
  'doubtful',
  'being_checked',
  'temporary',
  'replenished',
  'closed',
  'duplicate',
  'closed_by_right_holder',
  'absorbed',
  'premoderation',
] as const;

const FREELEECH_KINDS = ['none', 'silver', 'gold'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const ts = timestampType(dialect);
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('torrents')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    // One torrent per topic; deleting the topic deletes its torrent.
    .addColumn('topic_id', 'integer', (c) => c.notNull().unique().references('topics.id').onDelete('cascade'))
    .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('info_hash_v1', 'text', (c) => c.unique().check(sql`info_hash_v1 is null or length(info_hash_v1) = 40`))
    .addColumn('info_hash_v2', 'text', (c) => c.unique().check(sql`info_hash_v2 is null or length(info_hash_v2) = 64`))
    // The first 20 bytes of the v2 hash: what a v2 client announces (BEP 52).
    .addColumn('info_hash_v2_short', 'text', (c) => c.unique().check(sql`info_hash_v2_short is null or length(info_hash_v2_short) = 40`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size > 0`))
    .addColumn('piece_length', 'bigint', (c) => c.notNull())
    .addColumn('piece_count', 'integer', (c) => c.notNull())
    .addColumn('files_count', 'integer', (c) => c.notNull())
    .addColumn('creation_date', ts)
    .addColumn('metainfo', bytes, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(oneOfCheck('status', TORRENT_STATUSES)))
    .addColumn('freeleech', 'text', (c) => c.notNull().defaultTo('none').check(oneOfCheck('freeleech', FREELEECH_KINDS)))
    .addColumn('completed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('registered_at', ts, (c) => c.notNull())
    .addColumn('status_changed_at', ts, (c) => c.notNull())
    .addCheckConstraint('torrents_some_hash', sql`info_hash_v1 is not null or info_hash_v2 is not null`)
    .execute();
  await db.schema.createIndex('torrents_registered').on('torrents').columns(['registered_at', 'id']).execute();
  await db.schema.createIndex('torrents_status').on('torrents').columns(['status', 'id']).execute();
  await db.schema.createIndex('torrents_uploader').on('torrents').column('uploader_id').execute();

  await db.schema
    .createTable('torrent_files')
    .addColumn('torrent_id', 'integer', (c) => c.notNull().references('torrents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('torrent_files_pk', ['torrent_id', 'position'])
    .execute();

  await db.schema
    .createTable('torrent_status_changes')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('torrent_id', 'integer', (c) => c.notNull().references('torrents.id').onDelete('cascade'))
    // Null on the first entry (registration).
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('changed_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('torrent_status_changes_torrent').on('torrent_status_changes').columns(['torrent_id', 'id']).execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('passkey', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('torrent_downloads')
    .addColumn('id', 'integer', (c) => autoId(c, dialect))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A deleted torrent's downloads still count towards that day's limit.
    .addColumn('torrent_id', 'integer', (c) => c.references('torrents.id').onDelete('set null'))
    .addColumn('downloaded_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('torrent_downloads_user_time').on('torrent_downloads').columns(['user_id', 'downloaded_at']).execute();

  await db.schema
    .createTable('tracker_user_stats')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('uploaded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('downloaded', 'bigint', (c) => c.notNull().defaultTo(0))
    // Seed-bonus points in hundredths (1.25 points = 125): exact sums, no floats.
    .addColumn('bonus_points', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`bonus_points >= 0`),
    )
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
