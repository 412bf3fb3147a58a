// The two ways the accounting queue is written: by the event loop
// (PostgreSQL, in-memory SQLite) and by the accounting worker (a SQLite
// file). Both must write the same rows, say what they could not write, and
// never leave a transfer counted twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { packTransfers, unpackTransfers, UnwrittenTransfers, FLUSH_SLICE, type PendingTransfer } from '../../src/tracker/accounting-batch.ts';
import { batchWriterFor, inProcessWriter, WorkerWriter, type BatchWriter } from '../../src/tracker/accounting-writers.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts';
import { usernameSkeleton } from '../../src/db/username-skeleton.ts';

const log = pino({ level: 'silent' });
const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const FLUSH = { nowMs: NOW, claimWindowMs: 3600_000 };

/** Each transfer's own download covers its upload, so every upload is credited (accounting-batch.ts matches them); silver freeleech counts half of it. */
function transfer(userId: number, torrentId: number, overrides: Partial<PendingTransfer> = {}): PendingTransfer {
  return {
    userId,
    torrentId,
    uploaded: 100,
    downloaded: 50,
    swarmDownloaded: 100,
    completed: false,
    seeding: false,
    active: true,
    lastAnnounce: NOW,
    ...overrides,
  };
}

/** A migrated SQLite file with `users` users and `torrents` torrents (ids 1…n). */
async function seededFile(users: number, torrents: number): Promise<{ testDatabase: TestDatabase; database: DatabaseHandle }> {
  const testDatabase = await createTestDatabase('sqlite', { sqliteFile: true });
  const database = openDatabase(testDatabase.config, log);
  await migrateToLatest(database, log);
  const at = new Date(NOW).toISOString();
  await database.db.transaction().execute(async (trx) => {
    for (let n = 1; n <= users; n += 1) {
      await trx
        .insertInto('users')
        .values({
          username: `u${n}`,
          username_key: `u${n}`,
          username_skeleton: usernameSkeleton(`u${n}`),
          email: `u${n}@x.test`,
          email_key: `u${n}@x.test`,
          password_hash: 'x',
          role: 'user',
          status: 'active',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const forum = await trx.insertInto('forums').values({ name: 'F', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
    for (let n = 1; n <= torrents; n += 1) {
      const topic = await trx
        .insertInto('topics')
        .values({ forum_id: forum.id, title: `T${n}`, author_id: null, status: 'published', last_post_at: at, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('torrents')
        .values({
          topic_id: topic.id,
          uploader_id: null,
          info_hash_v1: n.toString(16).padStart(40, '0'),
          info_hash_v2: null,
          info_hash_v2_short: null,
          name: `t${n}`,
          size: 1,
          piece_length: 16384,
          piece_count: 1,
          files_count: 1,
          creation_date: null,
          metainfo: Buffer.from('d4:infodee'),
          status: 'checked',
          freeleech: 'none',
          registered_at: at,
          status_changed_at: at,
        })
        .execute();
    }
  });
  return { testDatabase, database };
}

async function totalsOf(database: DatabaseHandle): Promise<{ rows: number; uploaded: number; users: number; userUploaded: number }> {
  const pairs = await database.db
    .selectFrom('tracker_user_torrents')
    .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('uploaded').as('uploaded')])
    .executeTakeFirstOrThrow();
  const users = await database.db
    .selectFrom('tracker_user_stats')
    .select((eb) => [eb.fn.countAll<number>().as('users'), eb.fn.sum<number>('uploaded').as('userUploaded')])
    .executeTakeFirstOrThrow();
  return { rows: Number(pairs.rows), uploaded: Number(pairs.uploaded ?? 0), users: Number(users.users), userUploaded: Number(users.userUploaded ?? 0) };
}

describe('accounting transfers packed for the worker', () => {
  it('come back as they went, byte counts past 2^32 included', () => {
    const list = [transfer(1, 2, { uploaded: 2 ** 50 + 3, downloaded: 2 ** 40, completed: true, seeding: true }), transfer(7, 9, { active: false })];
    assert.deepEqual(unpackTransfers(packTransfers(list)), list);
  });
});

for (const kind of ['worker', 'event loop'] as const) {
  describe(`accounting written by the ${kind}`, () => {
    let testDatabase: TestDatabase;
    let database: DatabaseHandle;
    let writer: BatchWriter;
    let heard = 0;
    before(async () => {
      ({ testDatabase, database } = await seededFile(30, 120));
      database.writes.subscribe((tables) => {
        if (tables.has('tracker_user_stats')) heard += 1;
      });
      writer =
        kind === 'worker'
          ? new WorkerWriter((testDatabase.config as { path: string }).path, () => database.reportWrites(new Set(['tracker_user_stats'])))
          : inProcessWriter(database.db);
    });
    after(async () => {
      await writer.close();
      await database.close();
      await testDatabase.drop();
    });

    it('writes every slice of a queue longer than one slice, and reports first completions per torrent', async () => {
      const queued: PendingTransfer[] = [];
      for (let user = 30; user >= 1; user -= 1)
        for (let torrent = 1; torrent <= 40; torrent += 1) queued.push(transfer(user, torrent, { completed: torrent === 3 }));
      assert.ok(queued.length > FLUSH_SLICE);
      const completions = new Map<number, number>();
      heard = 0;
      await writer.writeAll(queued, FLUSH, (slice) => {
        for (const [torrent, count] of slice) completions.set(torrent, (completions.get(torrent) ?? 0) + count);
      });
      assert.deepEqual(await totalsOf(database), { rows: 1200, uploaded: 120_000, users: 30, userUploaded: 120_000 });
      assert.deepEqual([...completions], [[3, 30]]);
      const torrent = await database.db.selectFrom('torrents').select('completed_count').where('id', '=', 3).executeTakeFirstOrThrow();
      assert.equal(torrent.completed_count, 30);
      assert.ok(heard >= 1, 'write listeners of this process heard of it');
    });

    it('adds to the rows already there, and skips users or torrents deleted since the announce', async () => {
      await writer.writeAll([transfer(1, 1, { uploaded: 5 }), transfer(1, 999), transfer(999, 1)], FLUSH, () => {});
      const row = await database.db
        .selectFrom('tracker_user_torrents')
        .select('uploaded')
        .where('user_id', '=', 1)
        .where('torrent_id', '=', 1)
        .executeTakeFirstOrThrow();
      assert.equal(row.uploaded, 105);
      assert.equal((await totalsOf(database)).rows, 1200);
    });

    it('names what it could not write when a transaction fails, and has written nothing of it', async () => {
      const before = await totalsOf(database);
      await database.db.schema.alterTable('tracker_user_stats').renameTo('tracker_user_stats_away').execute();
      try {
        const queued = [transfer(2, 2), transfer(3, 3)];
        await assert.rejects(
          writer.writeAll(queued, FLUSH, () => {}),
          (error: unknown) => {
            assert.ok(error instanceof UnwrittenTransfers);
            assert.deepEqual(
              error.unwritten.map((entry) => [entry.userId, entry.torrentId]),
              [
                [2, 2],
                [3, 3],
              ],
            );
            return true;
          },
        );
      } finally {
        await database.db.schema.alterTable('tracker_user_stats_away').renameTo('tracker_user_stats').execute();
      }
      assert.deepEqual(await totalsOf(database), before, 'the failed slice was rolled back whole');
    });
  });
}

describe('the accounting worker', () => {
  it('is chosen for a SQLite file only', async () => {
    const memory = await createTestDatabase('sqlite');
    const database = openDatabase(memory.config, log);
    try {
      assert.ok(!(batchWriterFor(memory.config, database) instanceof WorkerWriter));
      assert.ok(batchWriterFor({ dialect: 'sqlite', path: '/tmp/forum.db' }, database) instanceof WorkerWriter);
      assert.ok(!(batchWriterFor({ dialect: 'postgres', url: 'postgres://127.0.0.1/x' }, database) instanceof WorkerWriter));
    } finally {
      await database.close();
    }
  });

  it('when it dies mid-write, refuses the queue as unknown (never to be retried) and starts again on the next write', async () => {
    const { testDatabase, database } = await seededFile(2, 2);
    const writer = new WorkerWriter((testDatabase.config as { path: string }).path, () => {});
    try {
      const pending = writer.writeAll([transfer(1, 1)], FLUSH, () => {});
      await writer.close();
      await assert.rejects(pending, (error: unknown) => !(error instanceof UnwrittenTransfers));
      await writer.writeAll([transfer(2, 2)], FLUSH, () => {});
      const row = await database.db.selectFrom('tracker_user_torrents').select('uploaded').where('user_id', '=', 2).executeTakeFirstOrThrow();
      assert.equal(row.uploaded, 100);
    } finally {
      await writer.close();
      await database.close();
      await testDatabase.drop();
    }
  });
});
