import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { isUniqueViolation } from '../../src/db/dialect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/databases.ts';
import { insertUser } from '../helpers/rows.ts';

const log = pino({ level: 'silent' });
const at = '2026-01-02T03:04:05.678Z';
const FIVE_TIB = 5 * 1024 ** 4; // far beyond 2^31 and 2^32

for (const kind of databaseKinds()) {
  describe(`[${kind}] tracker tables (migration 0006)`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;
    let userId: number;
    let forumId: number;

    const topic = async (title: string): Promise<number> => {
      const row = await handle.db
        .insertInto('topics')
        .values({
          forum_id: forumId,
          title,
          author_id: userId,
          status: 'published',
          last_post_at: at,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };

    const torrent = (topicId: number, hashes: { v1?: string | null; v2?: string | null }) => ({
      topic_id: topicId,
      uploader_id: userId,
      info_hash_v1: hashes.v1 ?? null,
      info_hash_v2: hashes.v2 ?? null,
      info_hash_v2_short: hashes.v2 ? hashes.v2.slice(0, 40) : null,
      name: 'Big one',
      size: FIVE_TIB,
      piece_length: 16 * 1024 * 1024,
      piece_count: FIVE_TIB / (16 * 1024 * 1024),
      files_count: 1,
      creation_date: null,
      metainfo: Buffer.from([0x64, 0x00, 0xff, 0x65]),
      status: 'not_checked' as const,
      registered_at: at,
      status_changed_at: at,
    });

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config, log);
      await migrateToLatest(handle, log);
      userId = await insertUser(handle.db, 'seeder');
      forumId = (await handle.db.insertInto('forums').values({ name: 'Films', created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    it('keep byte counts beyond 2^32 exact, read back as numbers', async () => {
      const topicId = await topic('sizes');
      const { id } = await handle.db
        .insertInto('torrents')
        .values(torrent(topicId, { v1: 'a'.repeat(40) }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await handle.db.insertInto('torrent_files').values({ torrent_id: id, position: 0, path: 'a/b.bin', size: FIVE_TIB }).execute();
      await handle.db
        .insertInto('tracker_user_stats')
        .values({ user_id: userId, uploaded: FIVE_TIB + 1, downloaded: 2 ** 40, bonus_points: 2 ** 33, updated_at: at })
        .execute();

      const row = await handle.db.selectFrom('torrents').select(['size', 'piece_length', 'metainfo']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.size, FIVE_TIB);
      assert.equal(typeof row.size, 'number');
      assert.deepEqual(Buffer.from(row.metainfo), Buffer.from([0x64, 0x00, 0xff, 0x65]));
      const file = await handle.db.selectFrom('torrent_files').select('size').where('torrent_id', '=', id).executeTakeFirstOrThrow();
      assert.equal(file.size, FIVE_TIB);
      const stats = await handle.db.selectFrom('tracker_user_stats').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
      assert.deepEqual([stats.uploaded, stats.downloaded, stats.bonus_points], [FIVE_TIB + 1, 2 ** 40, 2 ** 33]);
      const sum = await handle.db
        .selectFrom('torrents')
        .select((eb) => eb.fn.sum<number>('size').as('total'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(sum.total), FIVE_TIB);
    });

    it('refuse a second torrent with the same v1, v2 or short v2 hash, and a second torrent on one topic', async () => {
      const v2 = 'b'.repeat(64);
      await handle.db
        .insertInto('torrents')
        .values(torrent(await topic('v2'), { v2 }))
        .execute();
      const refused = async (values: ReturnType<typeof torrent>): Promise<void> => {
        await assert.rejects(handle.db.insertInto('torrents').values(values).execute(), (error) => isUniqueViolation(error));
      };
      await refused(torrent(await topic('same v1'), { v1: 'a'.repeat(40) }));
      await refused(torrent(await topic('same v2'), { v2 }));
      await refused({ ...torrent(await topic('same short'), { v2: `${'b'.repeat(40)}${'c'.repeat(24)}` }) });
      const taken = (await handle.db.selectFrom('torrents').select('topic_id').executeTakeFirstOrThrow()).topic_id;
      await refused(torrent(taken, { v1: 'd'.repeat(40) }));
    });

    it('refuse a torrent without any hash, a size of zero, and an unknown status', async () => {
      await assert.rejects(
        handle.db
          .insertInto('torrents')
          .values(torrent(await topic('no hash'), {}))
          .execute(),
      );
      await assert.rejects(
        handle.db
          .insertInto('torrents')
          .values({ ...torrent(await topic('empty'), { v1: 'e'.repeat(40) }), size: 0 })
          .execute(),
      );
      await assert.rejects(
        handle.db
          .insertInto('torrents')
          .values({ ...torrent(await topic('odd'), { v1: 'f'.repeat(40) }), status: 'lost' as never })
          .execute(),
      );
    });

    it('delete a torrent with its topic, and its files and history with it', async () => {
      const topicId = await topic('short-lived');
      const { id } = await handle.db
        .insertInto('torrents')
        .values(torrent(topicId, { v1: '1'.repeat(40) }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await handle.db.insertInto('torrent_files').values({ torrent_id: id, position: 0, path: 'x', size: 1 }).execute();
      await handle.db
        .insertInto('torrent_status_changes')
        .values({ torrent_id: id, from_status: null, to_status: 'not_checked', changed_by: userId, changed_at: at })
        .execute();
      await handle.db.insertInto('torrent_downloads').values({ user_id: userId, torrent_id: id, downloaded_at: at }).execute();
      await handle.db.deleteFrom('topics').where('id', '=', topicId).execute();
      assert.equal((await handle.db.selectFrom('torrents').select('id').where('id', '=', id).execute()).length, 0);
      assert.equal((await handle.db.selectFrom('torrent_files').select('torrent_id').where('torrent_id', '=', id).execute()).length, 0);
      assert.equal((await handle.db.selectFrom('torrent_status_changes').select('id').where('torrent_id', '=', id).execute()).length, 0);
      // The download still counts towards the day's limit.
      const downloads = await handle.db.selectFrom('torrent_downloads').select('torrent_id').where('user_id', '=', userId).execute();
      assert.deepEqual(
        downloads.map((row) => row.torrent_id),
        [null],
      );
    });

    it('keep one passkey per user, unique across users', async () => {
      await handle.db
        .insertInto('passkeys')
        .values({ user_id: userId, passkey: 'A'.repeat(20), created_at: at })
        .execute();
      await assert.rejects(
        handle.db
          .insertInto('passkeys')
          .values({ user_id: userId, passkey: 'B'.repeat(20), created_at: at })
          .execute(),
        (error) => isUniqueViolation(error),
      );
    });
  });
}
